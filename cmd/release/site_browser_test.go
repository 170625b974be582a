package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

var (
	benchLevel  = flag.Int("site-bench-level", 0, "TestSiteBrowser also times hints at this level on bench/midgame.obf's 24 positions in the browser, each after a new game, and the same requests to the native \"outflank web --threads 1\" (0: not)")
	benchRounds = flag.Int("site-bench-rounds", 1, "with -site-bench-level: rounds of the browser's and the native run, alternated")
	warmStarts  = flag.Int("site-warm-starts", 1, "TestSiteBrowser times the first engine move after opening the page on a warm cache this many times")
	startOnly   = flag.Bool("site-start-only", false, "TestSiteBrowser times the engine's start only: no game, hints, solve or stop")
)

// findChromium returns the path of a Chromium or Chrome binary, or "".
func findChromium() string {
	if p := os.Getenv("OUTFLANK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// ffo27 is FFO position #27 (20 empties, black to move): b7 loses by 2,
// the best black has (testdata/ffo/fforum-20-39.obf).
const ffo27 = "--XO-O----OOOO--OOXOXXO-OOOOXXOOOOOXXOX-OXOXXXXX--XXXX----X-O-X-X"

// TestSiteBrowser builds the browser build with the real engine, serves it
// as a plain static server does (no special headers), and drives it in
// headless Chromium: the engine starts in its worker, a whole game against
// it at a low level, hints, an exact solve of a 20-empties position, then
// the same page offline (the server gone) from the service worker's cache,
// where the engine still answers.
func TestSiteBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser test builds the WebAssembly engine and starts Chromium")
	}
	chromium := findChromium()
	if chromium == "" {
		t.Skip("no Chromium found (chromium, chromium-browser, google-chrome or $OUTFLANK_CHROMIUM): install it, e.g. apt-get install chromium")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	src, err := ReadSource(context.Background(), root)
	if err != nil {
		t.Skipf("the site is built from a git checkout: %v", err)
	}
	site := filepath.Join(t.TempDir(), "site")
	s := &Site{Source: src, Out: site, BuildWasm: GoBuildWasm, Log: testLog{t}}
	if err := s.Make(context.Background()); err != nil {
		t.Fatal(err)
	}
	url, stop := serveStatic(t, site)
	defer stop()

	profile, err := os.MkdirTemp("", "outflank-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(profile)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1200, 860),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	poll := func(js string, d time.Duration) chromedp.Action {
		return chromedp.Poll(js, nil, chromedp.WithPollingTimeout(d))
	}
	text := func(id string) string {
		t.Helper()
		var s string
		run("read #"+id, chromedp.Evaluate(`document.getElementById('`+id+`').textContent`, &s))
		return s
	}
	startup := func() string {
		var s string
		run("startup times", chromedp.Evaluate(`JSON.stringify(window.outflankStartup)`, &s))
		return s
	}
	engineUp := `document.getElementById('version').textContent.includes('WebAssembly')`

	start := time.Now()
	run("load the page", chromedp.Navigate(url), poll(engineUp, time.Minute),
		poll(`document.getElementById('turn').textContent === 'Black to move'`, 10*time.Second))
	t.Logf("cold start: the engine answered %v after the page was opened (header %q; worker: %s)", time.Since(start).Round(time.Millisecond), text("version"), startup())
	var ok bool
	run("service worker", chromedp.Evaluate(`navigator.serviceWorker.ready.then(() => true)`, &ok, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }))

	if !*startOnly {
		playInBrowser(t, ctx, run, poll, text)
	}
	if *benchLevel > 0 {
		benchAgainstNative(t, ctx, root, *benchLevel, *benchRounds)
	}

	// Offline: the server is gone; the page, its engine and its data come
	// from the service worker's cache. The first engine move on a warm
	// cache is timed from the page's opening.
	stop()
	for range max(*warmStarts, 1) {
		start = time.Now()
		run("reload offline", chromedp.Navigate(url), poll(engineUp, time.Minute),
			poll(`document.getElementById('turn').textContent === 'Black to move'`, 10*time.Second))
		up := time.Since(start)
		run("the first move", chromedp.Click(`#board .sq[data-sq="f5"]`, chromedp.ByQuery),
			poll(`document.getElementById('progress').textContent.startsWith('White played')`, time.Minute))
		moved := time.Since(start)
		// The engine's note on its move (white's reply to f5, the game's
		// second move), once the page has put it in the record.
		reply := `document.querySelector('#moves .mv[data-ply="2"]')`
		var note string
		run("read the engine's note", poll(reply+` !== null`, 10*time.Second), chromedp.Evaluate(reply+`.title`, &note))
		t.Logf("offline, warm cache: first engine move %v after the page was opened (the engine up at %v; %s; its note %q; the start's steps, ms from the page's opening: %s)",
			moved.Round(time.Millisecond), up.Round(time.Millisecond), text("progress"), note, startup())
	}
	if !strings.Contains(text("version"), "(commit ") {
		t.Errorf("the header %q does not name the commit", text("version"))
	}
}

// playInBrowser plays a game against the engine in the page, asks for
// hints, solves FFO #27 exactly, stops a solve and plays a timed move.
func playInBrowser(t *testing.T, ctx context.Context, run func(string, ...chromedp.Action), poll func(string, time.Duration) chromedp.Action, text func(string) string) {
	t.Helper()
	// A whole game: the person (black) plays the first legal move each
	// turn, the engine (white) answers at level 2.
	run("level 2", chromedp.SetValue(`#level`, "2", chromedp.ByID))
	idle := `!document.querySelector('#board .sq.legal') || (document.getElementById('stop').disabled && document.getElementById('turn').textContent === 'Black to move')`
	for moves := 0; ; moves++ {
		turn := text("turn")
		if strings.Contains(turn, "wins") || strings.HasPrefix(turn, "Draw") {
			t.Logf("the game: %s after %d moves of black's", turn, moves)
			break
		}
		if moves > 40 {
			t.Fatalf("no end after 40 moves of black's: %q, %q", turn, text("progress"))
		}
		run("black moves", chromedp.Click(`#board .sq.legal`, chromedp.ByQuery), chromedp.Sleep(50*time.Millisecond), poll(idle, time.Minute))
	}

	// Hints after f5 d6: a value on every legal square.
	run("hints", chromedp.Evaluate(`location.hash = 'moves=f5d6'`, nil),
		poll(`document.querySelectorAll('#board .sq.legal').length === 5`, 10*time.Second),
		chromedp.Click(`#hints`, chromedp.ByQuery), poll(`document.getElementById('progress').textContent.startsWith('hints done')`, time.Minute))
	var hinted int
	run("count hints", chromedp.Evaluate(`document.querySelectorAll('#board .sq.legal .hint').length`, &hinted))
	if hinted != 5 {
		t.Errorf("%d hints after f5 d6, want one on each of the 5 legal moves", hinted)
	}

	// An exact solve of 20 empties.
	run("solve FFO #27", chromedp.Click(`#hints`, chromedp.ByQuery), poll(`!document.getElementById('hints').checked`, time.Second),
		chromedp.Evaluate(`location.hash = 'start=`+ffo27+`'`, nil),
		poll(`document.getElementById('turn').textContent === 'Black to move' && document.getElementById('nblack').textContent === '`+count(ffo27, 'X')+`'`, 10*time.Second),
		chromedp.Click(`#solve`, chromedp.ByQuery),
		poll(`document.getElementById('solution').textContent.startsWith('Exact')`, 3*time.Minute))
	solution, progress := text("solution"), text("progress")
	t.Logf("FFO #27 in the browser: %s (%s)", solution, progress)
	if !strings.Contains(solution, "White wins by 2") || !strings.Contains(solution, "Best line: b7") {
		t.Errorf("solve of FFO #27: %q, want black -2 with b7", solution)
	}

	// Stop: an exact solve of the start position would run for ever; the
	// Stop button ends it (the search yields to the page's messages), and
	// a second of time a move is kept (the search's timer is seen).
	run("stop a solve", chromedp.Evaluate(`location.hash = 'moves=f5'`, nil),
		poll(`document.querySelectorAll('#board .sq.legal').length === 3`, 10*time.Second),
		chromedp.Click(`#solve`, chromedp.ByQuery), chromedp.Sleep(1500*time.Millisecond))
	stopAt := time.Now()
	run("press Stop", chromedp.Click(`#stop`, chromedp.ByQuery),
		poll(`document.getElementById('solution').textContent.startsWith('Stopped before the end')`, 20*time.Second))
	t.Logf("a solve stopped %v after Stop was pressed: %s", time.Since(stopAt).Round(time.Millisecond), text("solution"))
	// The last position of bench/midgame.obf (32 empties, out of the book).
	const midgame = "--XXX-----XOXX---XOXXX---OOOOXX---OOOOXX--OOOOX----O-O-------O--X"
	run("a timed move", chromedp.SetValue(`#time`, "1", chromedp.ByID), chromedp.SetValue(`#level`, "60", chromedp.ByID),
		chromedp.Evaluate(`location.hash = 'start=`+midgame+`'`, nil),
		poll(`document.getElementById('nblack').textContent === '`+count(midgame, 'X')+`'`, 10*time.Second),
		chromedp.Click(`#go`, chromedp.ByQuery),
		// The engine's move is in the record with its note; white's reply
		// may already be under way, so the progress line is not read.
		poll(`(document.querySelector('#moves .mv[data-ply="1"]') || {title: ''}).title.startsWith('engine:')`, 30*time.Second))
	var note string
	run("read the move's note", chromedp.Evaluate(`document.querySelector('#moves .mv[data-ply="1"]').title`, &note))
	t.Logf("a move at 1 s a move: %s", note)
	run("back to levels", chromedp.SetValue(`#time`, "0", chromedp.ByID), chromedp.SetValue(`#level`, "2", chromedp.ByID))
}

func count(s string, c byte) string { return strconv.Itoa(strings.Count(s[:64], string(c))) }

// serveStatic serves dir as a plain static server: python3 -m http.server
// where there is a python3 (the README's way), else Go's file server. It
// returns the site's address and a function that stops the server.
func serveStatic(t *testing.T, dir string) (url string, stop func()) {
	if py, err := exec.LookPath("python3"); err == nil {
		cmd := exec.Command(py, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		stop = func() {
			if cmd.ProcessState == nil {
				cmd.Process.Kill()
				cmd.Wait()
			}
		}
		// "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
		line, err := bufio.NewReader(out).ReadString('\n')
		m := regexp.MustCompile(`\((http://127\.0\.0\.1:[0-9]+/)\)`).FindStringSubmatch(line)
		if err != nil || m == nil {
			stop()
			t.Fatalf("python3 -m http.server said %q (%v)", line, err)
		}
		go io.Copy(io.Discard, out)
		t.Logf("serving with python3 -m http.server at %s", m[1])
		return m[1], stop
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(dir)))
	return ts.URL + "/", ts.Close
}

// testLog writes the builder's lines to the test's log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// benchAgainstNative times hints at a level on each of bench/midgame.obf's
// positions, each after a new game (a cleared table), one thread, in the
// browser and in the native "outflank web --threads 1" given the same
// requests, alternated for some rounds; it logs each run and the ratio of
// the browser's speed to the native's. Both must search the same nodes.
func benchAgainstNative(t *testing.T, ctx context.Context, root string, level, rounds int) {
	b, err := os.ReadFile(filepath.Join(root, "bench", "midgame.obf"))
	if err != nil {
		t.Fatal(err)
	}
	positions := strings.Split(strings.TrimSpace(string(b)), "\n")
	native := startNativeWeb(t, root)
	var ratios []float64
	for r := range max(rounds, 1) {
		bn, bms := benchHints(t, ctx, positions, level)
		nn, nms := nativeHints(t, native, positions, level)
		if bn != nn {
			t.Errorf("the browser searched %d nodes, the native engine %d: not the same search", bn, nn)
		}
		ratios = append(ratios, float64(nms)/float64(max(bms, 1)))
		t.Logf("round %d, hints at level %d on bench/midgame.obf, one thread: browser %d nodes in %d ms (%.2f M nodes/s), native %d nodes in %d ms (%.2f M nodes/s): %.2f× native",
			r+1, level, bn, bms, float64(bn)/float64(max(bms, 1))/1e3, nn, nms, float64(nn)/float64(max(nms, 1))/1e3, ratios[r])
	}
	slices.Sort(ratios)
	t.Logf("the browser's speed against the native engine's over %d alternated rounds: median %.2f×, %.2f× to %.2f×", len(ratios), ratios[len(ratios)/2], ratios[0], ratios[len(ratios)-1])
}

// benchHints runs the hints in the page's engine and returns the nodes
// and the search time the engine reported.
func benchHints(t *testing.T, ctx context.Context, positions []string, level int) (nodes, ms int64) {
	list, _ := json.Marshal(positions)
	js := `(async (positions, level) => {
	  let nodes = 0, ms = 0;
	  for (const start of positions) {
	    await (await window.outflankFetch('api/new', { method: 'POST', body: '{}' })).json();
	    const r = await window.outflankFetch('api/search', { method: 'POST', body: JSON.stringify({ start, mode: 'hint', level }) });
	    const done = JSON.parse((await r.text()).split('event: done\ndata: ')[1].split('\n')[0]);
	    nodes += done.nodes; ms += done.ms;
	  }
	  return { nodes, ms };
	})(` + string(list) + `, ` + strconv.Itoa(level) + `)`
	var res struct{ Nodes, Ms int64 }
	if err := chromedp.Run(ctx, chromedp.Evaluate(js, &res, func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) })); err != nil {
		t.Fatalf("bench: %v", err)
	}
	return res.Nodes, res.Ms
}

// startNativeWeb builds the native engine and starts "outflank web
// --threads 1" on a free loopback port; it returns the board's address.
// The server is stopped when the test ends.
func startNativeWeb(t *testing.T, root string) string {
	bin := filepath.Join(t.TempDir(), "outflank")
	build := exec.Command("go", "build", "-o", bin, "./cmd/outflank")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/outflank: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "web", "--threads", "1", "--addr", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	// "Outflank board at http://localhost:40123/ (Ctrl-C stops the server)"
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`at (http://localhost:[0-9]+/)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("outflank web said %q (%v)", line, err)
	}
	go io.Copy(io.Discard, out)
	return m[1]
}

// nativeHints sends benchHints's requests to the native board at url.
func nativeHints(t *testing.T, url string, positions []string, level int) (nodes, ms int64) {
	post := func(path string, body any) string {
		b, _ := json.Marshal(body)
		r, err := http.Post(url+path, "application/json", strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("native %s: %v", path, err)
		}
		defer r.Body.Close()
		text, err := io.ReadAll(r.Body)
		if err != nil || r.StatusCode != http.StatusOK {
			t.Fatalf("native %s: HTTP %d, %v: %s", path, r.StatusCode, err, text)
		}
		return string(text)
	}
	for _, start := range positions {
		post("api/new", map[string]any{})
		events := post("api/search", map[string]any{"start": start, "mode": "hint", "level": level})
		_, after, ok := strings.Cut(events, "event: done\ndata: ")
		if !ok {
			t.Fatalf("native search of %s: no done event in %q", start, events)
		}
		line, _, _ := strings.Cut(after, "\n")
		var done struct{ Nodes, Ms int64 }
		if err := json.Unmarshal([]byte(line), &done); err != nil {
			t.Fatalf("native search of %s: %v", start, err)
		}
		nodes += done.Nodes
		ms += done.Ms
	}
	return nodes, ms
}
