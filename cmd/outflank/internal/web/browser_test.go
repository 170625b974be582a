package web

import (
	"bytes"
	"context"
	"flag"
	"image/png"
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

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

var updateScreenshot = flag.Bool("update-screenshot", false, "write the browser test's screenshots to testdata/screenshot.png and screenshot-phone.png (the README shows them)")

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

// pageState says what the page shows, for a failed step's message: a
// step that times out (seen once, under a cold parallel build) then says
// whether the page was waiting, showing an error or elsewhere. It gets a
// few seconds of its own, since the step's context may have expired.
func pageState(ctx context.Context) string {
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	var state string
	js := `JSON.stringify({hash: location.hash, turn: document.getElementById('turn').textContent,
		progress: document.getElementById('progress').textContent, message: document.getElementById('message').textContent,
		searching: !document.getElementById('stop').disabled})`
	if err := chromedp.Run(c, chromedp.Evaluate(js, &state)); err != nil {
		return "unknown: " + err.Error()
	}
	return state
}

// ffo1 is FFO endgame position #1 (14 empties): black's best is G8 for a
// final +18 (testdata/ffo/fforum-1-19.obf).
const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--X"

// TestBrowser loads the page in headless Chromium and plays: a move, the
// engine's book reply, hints (values on every legal square, the book move
// marked), a move answered by a search, an illegal click, undo, import,
// GGF export, the game's analysis, a drag in the edit mode, and an exact
// solve of FFO #1. It takes the README's screenshot on the way.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the browser test starts Chromium")
	}
	chromium := findChromium()
	if chromium == "" {
		t.Skip("no Chromium found (chromium, chromium-browser, google-chrome or $OUTFLANK_CHROMIUM): install it, e.g. apt-get install chromium (.ci/run does when it runs as root)")
	}
	afterF5 := bitboard.Start().Play(sq("f5"))
	afterF5D6 := afterF5.Play(sq("d6"))
	bk := playtest.Book{
		afterF5:   {{Move: sq("d6"), Score: -1, Games: 500}},
		afterF5D6: {{Move: sq("c3"), Score: 5, Games: 400, Depth: 14, Selectivity: 95}, {Move: sq("c5"), Score: -3, Games: 20}},
	}
	// Level 4: the hints and replies come at once, keeping the test short.
	srv := New(Config{Searcher: search.New(search.Options{HashMB: 4, Eval: eval.Simple{}}), Book: bk, Level: 4, Version: "test", Threads: 3})
	ts := httptest.NewServer(srv)
	defer ts.Close()

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profileDir(t)),
		chromedp.WindowSize(1200, 860),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	run := func(what string, actions ...chromedp.Action) {
		t.Helper()
		if err := chromedp.Run(ctx, actions...); err != nil {
			t.Fatalf("%s: %v (the page then: %s)", what, err, pageState(ctx))
		}
	}
	click := func(square string) chromedp.Action {
		return chromedp.Click(`#board .sq[data-sq="`+square+`"]`, chromedp.ByQuery)
	}
	boardJS := `[...document.querySelectorAll('#board .sq')].map(e => e.querySelector('.disc.black') ? 'X' : e.querySelector('.disc.white') ? 'O' : '-').join('')`
	hintsJS := `Object.fromEntries([...document.querySelectorAll('#board .sq')].filter(e => e.querySelector('.hint')).map(e => [e.dataset.sq, e.querySelector('.hint').textContent]))`
	booksJS := `[...document.querySelectorAll('#board .sq')].filter(e => e.querySelector('.book')).map(e => e.dataset.sq)`
	progressIs := func(prefix string) chromedp.Action {
		return chromedp.Poll(`document.getElementById('progress').textContent.startsWith('`+prefix+`')`, nil, chromedp.WithPollingTimeout(30*time.Second))
	}
	checkHints := func(pos bitboard.Position) map[string]string {
		t.Helper()
		var hints map[string]string
		var books []string
		run("read hints", chromedp.Evaluate(hintsJS, &hints), chromedp.Evaluate(booksJS, &books))
		var legal []string
		for m := pos.Moves(); m != 0; m &= m - 1 {
			legal = append(legal, bitboard.FirstSquare(m).String())
		}
		var got []string
		for s, v := range hints {
			got = append(got, s)
			if !regexp.MustCompile(`^[+-]?\d+$`).MatchString(v) {
				t.Errorf("hint on %s: %q is not a disc difference", s, v)
			}
		}
		slices.Sort(legal)
		slices.Sort(got)
		if !slices.Equal(got, legal) {
			t.Errorf("hints on %v, want every legal move %v", got, legal)
		}
		return hints
	}

	run("load the page", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`#board .sq[data-sq="h8"]`, chromedp.ByQuery),
		chromedp.Poll(`document.getElementById('turn').textContent === 'Black to move'`, nil))
	var board, header string
	run("read the start", chromedp.Evaluate(boardJS, &board), chromedp.Poll(`document.getElementById('version').textContent !== ''`, nil),
		chromedp.Evaluate(`document.getElementById('version').textContent`, &header))
	if !strings.Contains(header, "3 threads") {
		t.Errorf("header %q does not say the engine's 3 threads", header)
	}
	if want := bitboard.Start().String()[:64]; board != want {
		t.Fatalf("start board %q, want %q", board, want)
	}
	// What a newcomer sees first: the board as large as the window
	// allows (it was at most 60% of its height), the current-move chip readable on its
	// green, no hints legend while hints are off, the time field saying
	// what 0 means.
	var look struct {
		Board       float64 `json:"board"`
		Height      float64 `json:"height"`
		Chip        string  `json:"chip"`
		LegendShown bool    `json:"legend"`
		TimeLabel   string  `json:"timeLabel"`
	}
	run("look at the page", chromedp.Evaluate(`({board: document.getElementById('board').getBoundingClientRect().width, height: innerHeight,
		chip: getComputedStyle(document.querySelector('#moves .mv.current')).color,
		legend: !document.getElementById('legend').hidden,
		timeLabel: document.getElementById('time').parentElement.textContent})`, &look))
	if look.Board < 0.7*look.Height || look.Chip != "rgb(255, 255, 255)" || look.LegendShown || !strings.Contains(look.TimeLabel, "0: by level") {
		t.Errorf("first look: %+v; want a board of 70%% of the window's height or more, a white chip on green, no legend, the time field's 0 explained", look)
	}

	// Black f5; the engine plays white and answers from the book.
	run("play f5", click("f5"), chromedp.WaitVisible(`#moves .mv[data-ply="2"]`, chromedp.ByQuery), progressIs("White played d6 (book move)"))
	run("read the board", chromedp.Evaluate(boardJS, &board))
	if want := afterF5D6.String()[:64]; board != want {
		t.Fatalf("after f5 and the book reply: board %q, want %q (d6)", board, want)
	}

	// Hints: every legal move gets one value. The book's c3, valued by a
	// depth-14 search, keeps the book's value, marked B and saying so;
	// c5, known to the book only by its games, gets the search's value.
	run("hints on", chromedp.Click(`#hints`, chromedp.ByQuery), progressIs("hints done"), chromedp.WaitVisible(`#legend`, chromedp.ByQuery))
	hints := checkHints(afterF5D6)
	var books []string
	var c3Title string
	run("read book marks", chromedp.Evaluate(booksJS, &books),
		chromedp.Evaluate(`document.querySelector('#board .sq[data-sq="c3"] .hint').title`, &c3Title))
	if !slices.Equal(books, []string{"c3"}) || hints["c3"] != "+5" || c3Title != "+5 (book 14@95%)" {
		t.Errorf("book marks on %v, c3 shows %q (%q); want the mark on c3 alone, showing +5 (book 14@95%%)", books, hints["c3"], c3Title)
	}

	// The README's screenshots: the desktop window, then a phone's width,
	// where the board must fit the screen.
	shoot := func(name string, minWidth int) {
		t.Helper()
		var shot []byte
		run("screenshot "+name, chromedp.CaptureScreenshot(&shot))
		if img, err := png.Decode(bytes.NewReader(shot)); err != nil || img.Bounds().Dx() < minWidth {
			t.Errorf("screenshot %s: %v", name, err)
		}
		out := filepath.Join(t.TempDir(), name)
		if *updateScreenshot {
			out = filepath.Join("testdata", name)
		}
		if err := os.WriteFile(out, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("scroll to the top", chromedp.Evaluate(`window.scrollTo(0, 0)`, nil))
	shoot("screenshot.png", 600)
	var phoneBoard float64
	run("phone width", chromedp.EmulateViewport(390, 844), chromedp.Sleep(200*time.Millisecond),
		chromedp.Evaluate(`document.getElementById('board').getBoundingClientRect().right`, &phoneBoard))
	if phoneBoard > 390 {
		t.Errorf("at a phone's width (390 px) the board reaches %v px", phoneBoard)
	}
	shoot("screenshot-phone.png", 380)
	run("desktop again", chromedp.ActionFunc(func(ctx context.Context) error { return emulation.ClearDeviceMetricsOverride().Do(ctx) }))

	// An import that is no known format says so beside the text, and the
	// board does not move.
	var importErr string
	var top0, top1 float64
	topJS := `document.getElementById('board').getBoundingClientRect().top + window.scrollY` // the click may scroll
	run("import prose", chromedp.Evaluate(topJS, &top0), chromedp.SetValue(`#text`, "the quick brown fox", chromedp.ByQuery), chromedp.Click(`#import`, chromedp.ByQuery),
		chromedp.WaitVisible(`#importError`, chromedp.ByQuery), chromedp.Text(`#importError`, &importErr, chromedp.ByQuery), chromedp.Evaluate(topJS, &top1))
	if !strings.HasPrefix(importErr, "not a GGF record") || top1 != top0 {
		t.Errorf("import of prose: %q, board moved from %v to %v", importErr, top0, top1)
	}

	// c3: out of the book, the engine searches its reply; hints follow.
	run("play c3", click("c3"), chromedp.WaitVisible(`#moves .mv[data-ply="4"]`, chromedp.ByQuery), progressIs("hints done"))
	var moves []string
	run("read the moves", chromedp.Evaluate(`[...document.querySelectorAll('#moves .mv[data-ply]')].map(e => e.textContent)`, &moves))
	if len(moves) != 4 || moves[0] != "f5" || moves[1] != "d6" || moves[2] != "c3" {
		t.Fatalf("move list %v", moves)
	}
	pos, err := bitboard.PlayTranscript(bitboard.Start(), strings.Join(moves, ""))
	if err != nil {
		t.Fatalf("the engine's reply %s: %v", moves[3], err)
	}
	run("read the board", chromedp.Evaluate(boardJS, &board))
	if board != pos.String()[:64] {
		t.Errorf("board %q, want %q", board, pos.String()[:64])
	}
	checkHints(pos)
	// The record keeps the engine's evaluations and times, as GGF has them.
	var record string
	run("export", chromedp.Click(`#exportGGF`, chromedp.ByQuery), chromedp.Value(`#text`, &record, chromedp.ByQuery))
	if !regexp.MustCompile(`B\[F5\]W\[D6/-?\d+\.\d\d/\d+\.\d\d\]B\[C3\]W\[` + strings.ToUpper(moves[3]) + `/`).MatchString(record) {
		t.Errorf("record %q: want the engine's moves with evaluation and time", record)
	}

	// An illegal click says so on the page and changes nothing.
	var msg string
	run("click a1", click("a1"), chromedp.WaitVisible(`#message`, chromedp.ByQuery), chromedp.Text(`#message`, &msg, chromedp.ByQuery))
	if !strings.Contains(msg, "a1 is not a legal move") {
		t.Errorf("illegal click: message %q", msg)
	}

	// Undo against the engine goes back to black's last turn.
	var turn string
	run("undo", chromedp.Click(`#undo`, chromedp.ByQuery), chromedp.Poll(`document.querySelector('#moves .mv.current')?.dataset.ply === '2'`, nil),
		chromedp.Text(`#turn`, &turn, chromedp.ByQuery))
	if turn != "Black to move" {
		t.Errorf("after undo: %q", turn)
	}

	// Import a transcript, export it as GGF, analyse the game for the graph.
	var ggf string
	var points int
	run("import", chromedp.SetValue(`#text`, "f5 d6 c3 d3 c4", chromedp.ByQuery), chromedp.Click(`#import`, chromedp.ByQuery),
		chromedp.WaitVisible(`#moves .mv[data-ply="5"]`, chromedp.ByQuery),
		chromedp.Click(`#exportGGF`, chromedp.ByQuery), chromedp.Value(`#text`, &ggf, chromedp.ByQuery),
		chromedp.Click(`#analyze`, chromedp.ByQuery), progressIs("Analysis done"),
		chromedp.Evaluate(`document.querySelectorAll('#graph circle.pt').length`, &points))
	if !strings.Contains(ggf, "B[F5]W[D6]B[C3]W[D3]B[C4]") {
		t.Errorf("exported GGF %q", ggf)
	}
	if points != 6 {
		t.Errorf("graph has %d points after analysing 5 moves, want 6", points)
	}
	// The graph marks where its values come from: after f5 d6 the book's
	// deeper value (c3 +5 at 14@95%), the search's elsewhere.
	var kinds []string
	run("read the graph", chromedp.Evaluate(`[...document.querySelectorAll('#graph circle.pt')].map(c => c.dataset.ply + ':' + c.classList[1])`, &kinds))
	if !slices.Contains(kinds, "2:book") || !slices.Contains(kinds, "5:search") {
		t.Errorf("graph points %v: want ply 2 from the book, ply 5 from the search", kinds)
	}

	// Edit mode: from the start position, drag white's d4 to c3.
	var at map[string]float64
	run("edit", chromedp.Click(`#edit`, chromedp.ByQuery), chromedp.Click(`#editStart`, chromedp.ByQuery),
		chromedp.Evaluate(`(() => { const r = (s) => document.querySelector('#board .sq[data-sq="' + s + '"]').getBoundingClientRect();
			const a = r('d4'), b = r('c3'); return {ax: a.x + a.width / 2, ay: a.y + a.height / 2, bx: b.x + b.width / 2, by: b.y + b.height / 2}; })()`, &at))
	run("drag d4 to c3",
		chromedp.MouseEvent(input.MousePressed, at["ax"], at["ay"], chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseMoved, at["bx"], at["by"], chromedp.ButtonLeft),
		chromedp.MouseEvent(input.MouseReleased, at["bx"], at["by"], chromedp.ButtonLeft),
		chromedp.Click(`#editDone`, chromedp.ByQuery),
		chromedp.WaitVisible(`#edit`, chromedp.ByQuery), chromedp.Evaluate(boardJS, &board))
	want := []byte(bitboard.Start().String()[:64])
	want[bitboard.SquareAt(2, 2)], want[bitboard.SquareAt(3, 3)] = 'O', '-'
	if board != string(want) {
		t.Errorf("after the drag: board %q, want %q", board, want)
	}

	// A link to a position whose side to move must pass: the page shows
	// the position after the pass, and a1 ends the game.
	passing := "-O" + strings.Repeat("X", 62) + "O" // white to move must pass
	run("a game that starts with a pass", chromedp.Evaluate(`location.hash = 'start=`+passing+`'`, nil),
		chromedp.Poll(`document.getElementById('turn').textContent === 'Black to move'`, nil),
		click("a1"), chromedp.Poll(`document.getElementById('turn').textContent === 'Black wins 64-0'`, nil))

	// A link opens a position; Solve finds FFO #1's exact +18 and G8.
	var solution string
	run("solve FFO #1", chromedp.Evaluate(`document.getElementById('hints').click(); location.hash = 'start=`+ffo1+`'`, nil),
		chromedp.Poll(`document.getElementById('nblack').textContent === '`+strconv.Itoa(bitboard.Count(mustBoard(t, ffo1).Black()))+`'`, nil),
		chromedp.Click(`#solve`, chromedp.ByQuery),
		chromedp.Poll(`document.getElementById('solution').textContent.startsWith('Exact')`, nil, chromedp.WithPollingTimeout(60*time.Second)),
		chromedp.Text(`#solution`, &solution, chromedp.ByQuery))
	if !strings.Contains(solution, "Black wins by 18") || !strings.Contains(solution, "Best line: g8") {
		t.Errorf("solve of FFO #1: %q, want black +18 with g8", solution)
	}
	// Lines of play write a pass as "pass", as every command does.
	var written string
	run("a line with a pass", chromedp.Evaluate(`line(['A4', 'PA', 'H1'])`, &written))
	if written != "a4 pass h1" {
		t.Errorf("a line with a pass is written %q, want %q", written, "a4 pass h1")
	}
}

func mustBoard(t *testing.T, s string) bitboard.Position {
	t.Helper()
	p, err := bitboard.ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// profileDir is a fresh Chromium profile folder, removed after the test.
// Not t.TempDir: Chromium's helper processes may still be writing there for
// a moment after the browser is told to quit, and t.TempDir's cleanup then
// fails the test; here the removal is retried for a while, and a profile
// left behind in the temporary folder is not a test failure.
func profileDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "outflank-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for range 20 {
			if os.RemoveAll(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("left the Chromium profile %s behind", dir)
	})
	return dir
}
