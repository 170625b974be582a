package web

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/search"
)

func newTestServer(t *testing.T, cfg Config) *httptest.Server {
	t.Helper()
	if cfg.Searcher == nil {
		cfg.Searcher = &playtest.Greedy{}
	}
	ts := httptest.NewServer(New(cfg))
	t.Cleanup(ts.Close)
	return ts
}

func post(t *testing.T, ts *httptest.Server, path, body string) (int, []byte) {
	t.Helper()
	r, err := http.Post(ts.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	return r.StatusCode, b
}

func postState(t *testing.T, ts *httptest.Server, path, body string) gameState {
	t.Helper()
	code, b := post(t, ts, path, body)
	if code != http.StatusOK {
		t.Fatalf("%s %s: %d %s", path, body, code, b)
	}
	var st gameState
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestGame(t *testing.T) {
	ts := newTestServer(t, Config{})
	st := postState(t, ts, "/api/game", `{"moves":["f5","D6","c3"]}`)
	if got := strings.Join(st.Moves, " "); got != "f5 d6 c3" {
		t.Errorf("moves %q", got)
	}
	if len(st.Plies) != 4 || st.Plies[3].ToMove != "white" || st.Plies[3].Black != 5 || st.Plies[3].White != 2 {
		t.Errorf("plies %+v", st.Plies)
	}
	if st.Transcript != "f5d6c3" || !strings.Contains(st.GGF, "B[F5]W[D6]B[C3]") {
		t.Errorf("transcript %q ggf %q", st.Transcript, st.GGF)
	}
	if got := strings.Join(st.Plies[0].Legal, " "); got != "d3 c4 f5 e6" {
		t.Errorf("legal moves at the start %q", got)
	}
	// White to move must pass: the pass is added, and black moves next.
	st = postState(t, ts, "/api/game", `{"start":"-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O"}`)
	if len(st.Moves) != 1 || st.Moves[0] != "pa" || !st.Plies[0].Pass || st.Plies[1].ToMove != "black" {
		t.Errorf("forced pass: moves %v plies %+v", st.Moves, st.Plies)
	}
	st = postState(t, ts, "/api/game", `{"start":"-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O","moves":["a1"]}`)
	if len(st.Moves) != 2 || !st.Plies[2].Over || st.Plies[2].Result != "Black wins 64-0" {
		t.Errorf("pass then a1: moves %v last %+v", st.Moves, st.Plies[len(st.Plies)-1])
	}
}

func TestParse(t *testing.T) {
	ts := newTestServer(t, Config{})
	for _, tc := range []struct {
		name, text  string
		start       string
		moves, last int
	}{
		{"transcript", "f5d6c3d3c4", "", 5, 5},
		{"spaced transcript", "F5 D6\nC3", "", 3, 3},
		{"ggf", "(;GM[Othello]PB[a]PW[b]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5]W[F6];)", "", 2, 2},
		{"obf with scores", "---------------------------OX------XO--------------------------- X; F5:+0; % comment", bitboard.Start().String(), 0, 0},
		{"ffo", "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--\nBlack to move", "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X", 0, 0},
	} {
		st := postState(t, ts, "/api/parse", mustJSON(t, map[string]string{"text": tc.text}))
		if len(st.Moves) != tc.moves || len(st.Plies) != tc.last+1 {
			t.Errorf("%s: %d moves, %d plies", tc.name, len(st.Moves), len(st.Plies))
		}
		if tc.start != "" && st.Start != tc.start {
			t.Errorf("%s: start %q, want %q", tc.name, st.Start, tc.start)
		}
	}
}

// TestRecord: a GGF record's players survive the round trip through the
// page, and a finished game's record gets its result.
func TestRecord(t *testing.T) {
	ts := newTestServer(t, Config{})
	st := postState(t, ts, "/api/parse", mustJSON(t, map[string]string{"text": "(;GM[Othello]PB[Ann]PW[Bob]B[F5];)"}))
	st = postState(t, ts, "/api/game", mustJSON(t, gameRequest{Start: st.Start, Moves: append(st.Moves, "d6/-1.5/2.25"), Props: st.Props}))
	if !strings.HasPrefix(st.GGF, "(;GM[Othello]PB[Ann]PW[Bob]BO[8 ") || !strings.HasSuffix(st.GGF, "B[F5]W[D6/-1.50/2.25];)") {
		t.Errorf("record %s", st.GGF)
	}
	st = postState(t, ts, "/api/game", `{"start":"-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X","moves":["a1"]}`)
	if !strings.Contains(st.GGF, "RE[+64.000]") {
		t.Errorf("finished record %s: want RE[+64.000]", st.GGF)
	}
}

func TestNewHandicap(t *testing.T) {
	ts := newTestServer(t, Config{})
	st := postState(t, ts, "/api/new", `{"handicap":4,"weaker":"white"}`)
	b := st.Plies[0].Board
	for _, i := range []int{0, 7, 56, 63} {
		if b[i] != 'O' {
			t.Errorf("corner %d: %q, want white's disc", i, b[i])
		}
	}
	if st.Plies[0].ToMove != "black" || st.Plies[0].White != 6 {
		t.Errorf("handicap start %+v", st.Plies[0])
	}
	if !strings.Contains(st.GGF, "PC[Outflank web]") {
		t.Errorf("new game record %s", st.GGF)
	}
	st = postState(t, ts, "/api/new", `{"handicap":1}`)
	if st.Plies[0].Board[0] != 'X' || st.Plies[0].Black != 3 {
		t.Errorf("one corner for black: %+v", st.Plies[0])
	}
}

// TestBadInput: every malformed request gets a 4xx with a message that
// names the problem, and the server goes on serving.
func TestBadInput(t *testing.T) {
	ts := newTestServer(t, Config{})
	huge := `{"text":"` + strings.Repeat("f5", 40<<10) + `"}`
	over := "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX---- O"
	for _, tc := range []struct {
		name, method, path, body string
		code                     int
		want                     string
	}{
		{"illegal move", "POST", "/api/game", `{"moves":["f5","a1"]}`, 400, "move 2 (a1) illegal"},
		{"bad square", "POST", "/api/game", `{"moves":["z9"]}`, 400, "bad square"},
		{"bad evaluation", "POST", "/api/game", `{"moves":["f5/NaN"]}`, 400, "finite"},
		{"negative time", "POST", "/api/game", `{"moves":["f5/1/-3"]}`, 400, "not negative"},
		{"pass with a move", "POST", "/api/game", `{"moves":["pa"]}`, 400, "pass while black has a move"},
		{"malformed board", "POST", "/api/game", `{"start":"XXOO? X"}`, 400, "bad square character"},
		{"short board", "POST", "/api/game", `{"start":"XXOO X"}`, 400, "only"},
		{"too many moves", "POST", "/api/game", `{"moves":[` + strings.Repeat(`"f5",`, 200) + `"f5"]}`, 400, "at most"},
		{"not json", "POST", "/api/game", `moves=f5`, 400, "bad request body"},
		{"unknown field", "POST", "/api/game", `{"move":"f5"}`, 400, "unknown field"},
		{"two values", "POST", "/api/game", `{}{}`, 400, "more than one"},
		{"bad property", "POST", "/api/game", `{"props":[{"key":"PB","value":"a]b"}]}`, 400, "without ']'"},
		{"moves as property", "POST", "/api/game", `{"props":[{"key":"B","value":"f5"}]}`, 400, "on their own"},
		{"oversized body", "POST", "/api/parse", huge, 413, "over 64 KiB"},
		{"empty paste", "POST", "/api/parse", `{"text":"  "}`, 400, "nothing to read"},
		{"bad ggf", "POST", "/api/parse", `{"text":"(;GM[Othello]B[F5]W[A1];)"}`, 400, "ggf"},
		{"bad transcript", "POST", "/api/parse", `{"text":"f5f5"}`, 400, "transcript"},
		{"prose", "POST", "/api/parse", `{"text":"the quick brown fox"}`, 400, "not a GGF record"},
		{"bad ffo", "POST", "/api/parse", `{"text":"XXXXXXXX--------\nBlack to move"}`, 400, "board"},
		{"handicap 5", "POST", "/api/new", `{"handicap":5}`, 400, "0 to 4"},
		{"weaker green", "POST", "/api/new", `{"handicap":1,"weaker":"green"}`, 400, "black or white"},
		{"bad mode", "POST", "/api/search", `{"mode":"ponder"}`, 400, "mode"},
		{"bad level", "POST", "/api/search", `{"mode":"hint","level":99}`, 400, "level 99"},
		{"bad time", "POST", "/api/search", `{"mode":"move","time":-1}`, 400, "time"},
		{"search illegal", "POST", "/api/search", `{"mode":"hint","moves":["e3"]}`, 400, "illegal"},
		{"game over", "POST", "/api/search", `{"mode":"move","start":"` + over + `"}`, 400, "the game is over"},
		{"unknown route", "GET", "/api/nothing", "", 404, "no API route"},
		{"wrong method", "GET", "/api/game", "", 405, "use POST"},
		{"unknown page", "GET", "/nothing.html", "", 404, ""},
	} {
		req, err := http.NewRequest(tc.method, ts.URL+tc.path, strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != tc.code || !strings.Contains(string(b), tc.want) {
			t.Errorf("%s: %d %s, want %d with %q", tc.name, r.StatusCode, b, tc.code, tc.want)
		}
		if tc.want != "" && strings.HasPrefix(tc.path, "/api/") {
			var e errorBody
			if json.Unmarshal(b, &e) != nil || e.Error == "" {
				t.Errorf("%s: body %s is not an error object", tc.name, b)
			}
		}
	}
	// Still serving.
	postState(t, ts, "/api/game", `{}`)
}

func TestForeignOrigin(t *testing.T) {
	ts := newTestServer(t, Config{})
	req, _ := http.NewRequest("POST", ts.URL+"/api/stop", nil)
	req.Header.Set("Origin", "http://evil.example")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusForbidden {
		t.Errorf("request from another site's page: %d, want 403", r.StatusCode)
	}
	req, _ = http.NewRequest("GET", ts.URL+"/api/info", nil)
	req.Header.Set("Origin", ts.URL)
	r, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusOK {
		t.Errorf("same-origin request: %d", r.StatusCode)
	}
}

// TestLoopbackHost: on a loopback listener a request naming another host
// (DNS rebinding) is refused, one naming localhost served.
func TestLoopbackHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	s := New(Config{Searcher: &playtest.Greedy{}})
	go s.Serve(ln)
	defer ln.Close()
	for host, want := range map[string]int{"rebound.example:80": 403, "localhost": 200, ln.Addr().String(): 200, "[::1]:8080": 200} {
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/api/info", nil)
		req.Host = host
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, r.StatusCode, want)
		}
	}
}

func TestStatic(t *testing.T) {
	ts := newTestServer(t, Config{})
	for path, want := range map[string]string{"/": "static/app.js", "/static/app.js": "api/search", "/static/style.css": "#board"} {
		r, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("%s: %d, %d bytes without %q", path, r.StatusCode, len(b), want)
		}
	}
}

// event is one server-sent event.
type event struct {
	name string
	data json.RawMessage
}

// events reads a search stream, sending each event on the channel, which
// is closed at the end of the stream.
func events(t *testing.T, body io.ReadCloser) <-chan event {
	ch := make(chan event, 100)
	go func() {
		defer close(ch)
		defer body.Close()
		sc := bufio.NewScanner(body)
		var e event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				e.name = line[7:]
			case strings.HasPrefix(line, "data: "):
				e.data = json.RawMessage(line[6:])
			case line == "" && e.name != "":
				ch <- e
				e = event{}
			}
		}
	}()
	return ch
}

func startSearch(t *testing.T, ctx context.Context, ts *httptest.Server, body string) <-chan event {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, "POST", ts.URL+"/api/search", strings.NewReader(body))
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/event-stream" {
		b, _ := io.ReadAll(r.Body)
		t.Fatalf("search %s: %d %s", body, r.StatusCode, b)
	}
	return events(t, r.Body)
}

// collect reads a whole stream (failing after a while) and returns its
// events and the final result.
func collect(t *testing.T, ch <-chan event) (all []event, done result) {
	t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				if len(all) == 0 || all[len(all)-1].name != "done" {
					t.Fatalf("stream ended without done: %v", names(all))
				}
				json.Unmarshal(all[len(all)-1].data, &done)
				return all, done
			}
			all = append(all, e)
		case <-timeout:
			t.Fatalf("stream still open; events so far %v", names(all))
		}
	}
}

func names(es []event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.name)
	}
	return out
}

func TestSearchHint(t *testing.T) {
	afterF5 := bitboard.Start().Play(sq("f5"))
	bk := playtest.Book{afterF5: {{Move: sq("d6"), Score: -0.5, Games: 100}, {Move: sq("a1"), Score: 9, Games: 100}}}
	ts := newTestServer(t, Config{Book: bk})
	all, done := collect(t, startSearch(t, context.Background(), ts, `{"mode":"hint","moves":["f5"],"level":2}`))
	if all[0].name != "start" {
		t.Fatalf("first event %q", all[0].name)
	}
	var start startEvent
	json.Unmarshal(all[0].data, &start)
	// The book's illegal a1 (a damaged book) is left out.
	if start.Mode != "hint" || start.Empties != 59 || len(start.Book) != 1 || start.Book[0].Move != "d6" || start.Book[0].Games != 100 {
		t.Errorf("start %+v", start)
	}
	if len(done.Moves) != 3 || done.Stopped || done.Best == "" {
		t.Errorf("done %+v: want all three moves scored", done)
	}
	seen := map[string]bool{}
	for _, m := range done.Moves {
		seen[m.Move] = true
	}
	for _, m := range []string{"d6", "f4", "f6"} {
		if !seen[m] {
			t.Errorf("no hint for %s in %+v", m, done.Moves)
		}
	}
}

func TestSearchMove(t *testing.T) {
	bk := playtest.Book{bitboard.Start(): {{Move: sq("e6"), Score: 0, Games: play.MinBookGames}}}
	ts := newTestServer(t, Config{Book: bk})
	_, done := collect(t, startSearch(t, context.Background(), ts, `{"mode":"move"}`))
	if done.Best != "e6" || !done.Book {
		t.Errorf("book move: %+v", done)
	}
	_, done = collect(t, startSearch(t, context.Background(), ts, `{"mode":"move","moves":["f5"],"time":0.5}`))
	if done.Book || !bitboard.Start().Play(sq("f5")).IsLegal(sq(done.Best)) {
		t.Errorf("searched move: %+v", done)
	}
}

func TestSolveAndAnalyze(t *testing.T) {
	ts := newTestServer(t, Config{})
	// Black to move, one empty square left (a1); greedy is exact there.
	_, done := collect(t, startSearch(t, context.Background(), ts, `{"mode":"solve","start":"-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X"}`))
	if done.Best != "a1" || !done.Exact || done.Score != 64 {
		t.Errorf("solve: %+v", done)
	}
	all, _ := collect(t, startSearch(t, context.Background(), ts, `{"mode":"analyze","moves":["f5","d6","c3"],"level":1}`))
	plies := map[int]bool{}
	for _, e := range all {
		if e.name == "eval" {
			var ev evalEvent
			json.Unmarshal(e.data, &ev)
			plies[ev.Ply] = true
		}
	}
	if len(plies) != 4 {
		t.Errorf("analysed plies %v, want 0..3; events %v", plies, names(all))
	}
}

// waitStart waits until the slow searcher has started a search.
func waitStart(t *testing.T, started chan struct{}) {
	t.Helper()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the search did not start")
	}
}

// TestStop: /api/stop ends a search that has no limit, which reports the
// best move so far as stopped.
func TestStop(t *testing.T) {
	slow := &playtest.Slow{Started: make(chan struct{}, 4)}
	ts := newTestServer(t, Config{Searcher: slow})
	ch := startSearch(t, context.Background(), ts, `{"mode":"hint"}`)
	waitStart(t, slow.Started)
	// The page sees the search deepen before it stops it.
	depths := []int{}
	for e := range ch {
		if e.name == "info" {
			var r result
			json.Unmarshal(e.data, &r)
			depths = append(depths, r.Depth)
			if len(depths) == 3 {
				break
			}
		}
	}
	if !slices.IsSorted(depths) || len(depths) < 3 || depths[0] == depths[2] {
		t.Errorf("progress depths %v, want deepening", depths)
	}
	if code, b := post(t, ts, "/api/stop", ""); code != http.StatusNoContent {
		t.Fatalf("stop: %d %s", code, b)
	}
	_, done := collect(t, ch)
	if !done.Stopped || done.Best == "" || len(done.Moves) != 4 {
		t.Errorf("stopped search: %+v", done)
	}
}

// TestPageGone: closing the request stops the search (the engine is free
// for the next one), and a new search stops the one running.
func TestPageGone(t *testing.T) {
	slow := &playtest.Slow{Started: make(chan struct{}, 4)}
	ts := newTestServer(t, Config{Searcher: slow})
	ctx, cancel := context.WithCancel(context.Background())
	startSearch(t, ctx, ts, `{"mode":"hint"}`)
	waitStart(t, slow.Started)
	cancel()
	first := startSearch(t, context.Background(), ts, `{"mode":"hint"}`)
	waitStart(t, slow.Started) // only after the first released the engine
	second := startSearch(t, context.Background(), ts, `{"mode":"hint"}`)
	if _, done := collect(t, first); !done.Stopped {
		t.Errorf("superseded search: %+v", done)
	}
	waitStart(t, slow.Started)
	post(t, ts, "/api/stop", "")
	if _, done := collect(t, second); !done.Stopped {
		t.Errorf("second search: %+v", done)
	}
}

// FuzzParseText: pasted text never crashes the reader, and what it accepts
// is a legal game that the game endpoint reads back the same.
func FuzzParseText(f *testing.F) {
	for _, s := range []string{"f5d6c3", "(;GM[Othello]B[F5];)", bitboard.Start().String(), "f5 pass", "XXXX\nwhite to move", "(;BO[8 x];)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := parseText(s)
		if err != nil {
			return
		}
		st := stateOf(g)
		g2, err := gameRequest{Start: st.Start, Moves: st.Moves}.game()
		if err != nil {
			t.Fatalf("%q: read back: %v", s, err)
		}
		if g2.Current() != g.Current() || len(g2.Moves) != len(g.Moves) {
			t.Fatalf("%q: read back differs", s)
		}
	})
}

// FuzzRequests: no request body makes a handler panic or answer 5xx.
func FuzzRequests(f *testing.F) {
	for _, s := range []string{`{"moves":["f5"]}`, `{"start":"` + bitboard.Start().String() + `","moves":["pa"]}`, `{"text":"f5d6"}`,
		`{"handicap":2,"weaker":"white"}`, `{"mode":"hint","level":1}`, `{"mode":"analyze","moves":["f5","d6"],"level":1,"time":0.01}`, `[]`, `{"moves":null}`} {
		f.Add(s)
	}
	srv := New(Config{Searcher: &playtest.Greedy{}, Level: 1})
	f.Fuzz(func(t *testing.T, body string) {
		for _, path := range []string{"/api/game", "/api/parse", "/api/new", "/api/search"} {
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, httptest.NewRequest("POST", path, strings.NewReader(body)))
			if w.Code >= 500 || (w.Code >= 400 && !strings.Contains(w.Body.String(), `"error"`)) {
				t.Fatalf("%s %q: %d %s", path, body, w.Code, w.Body)
			}
		}
	})
}

func sq(s string) bitboard.Square {
	q, err := bitboard.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestBeyondLoopback: on an address beyond loopback the DNS-rebinding
// check stays (a request naming another site's host is refused even with
// its own Origin), and every request needs the token: in the query, which
// sets a cookie, then in the cookie or an Authorization header.
func TestBeyondLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Skipf("no listener on every interface: %v", err)
	}
	s := New(Config{Searcher: &playtest.Greedy{}, Token: "s3cret", AllowHosts: []string{"board.lan"}})
	go s.Serve(ln)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	do := func(method, path, host, origin string, hdr map[string]string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, strings.NewReader(`{}`))
		if host != "" {
			req.Host = host
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r
	}
	lan := fmt.Sprintf("192.168.7.9:%d", port)
	for _, c := range []struct {
		name, method, path, host, origin string
		hdr                              map[string]string
		want                             int
	}{
		{"another site's page, rebound", "POST", "/api/search?token=s3cret", "evil.com", "http://evil.com", nil, 403},
		{"another site's name", "GET", "/api/info?token=s3cret", "evil.com:80", "", nil, 403},
		{"another site's page", "POST", "/api/stop?token=s3cret", lan, "http://evil.com", nil, 403},
		{"no token", "GET", "/api/info", lan, "", nil, 401},
		{"no token, the page", "GET", "/", lan, "", nil, 401},
		{"wrong token", "GET", "/api/info?token=guess", lan, "", nil, 401},
		{"wrong cookie", "GET", "/api/info", lan, "", map[string]string{"Cookie": fmt.Sprintf("outflank-token-%d=guess", port)}, 401},
		{"token", "GET", "/?token=s3cret", lan, "", nil, 200},
		{"cookie", "GET", "/api/info", lan, "", map[string]string{"Cookie": fmt.Sprintf("outflank-token-%d=s3cret", port)}, 200},
		{"header", "GET", "/api/info", lan, "", map[string]string{"Authorization": "token s3cret"}, 200},
		{"allowed name", "GET", "/api/info?token=s3cret", "board.lan:8080", "http://board.lan:8080", nil, 200},
		{"localhost", "GET", "/api/info?token=s3cret", "localhost", "", nil, 200},
	} {
		r := do(c.method, c.path, c.host, c.origin, c.hdr)
		if r.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", c.name, r.StatusCode, c.want)
		}
		if c.name == "token" {
			ck := r.Cookies()
			if len(ck) != 1 || ck[0].Value != "s3cret" || !ck[0].HttpOnly {
				t.Errorf("token: cookies %v", ck)
			}
		}
	}
}

// A server on one address answers only requests naming that address.
func TestHostOfListenAddress(t *testing.T) {
	s := New(Config{Searcher: &playtest.Greedy{}})
	s.listenIP = net.ParseIP("10.0.0.2")
	for host, want := range map[string]int{"10.0.0.2:8080": 200, "10.0.0.3:8080": 403, "localhost:8080": 200, "evil.com": 403} {
		w := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/api/info", nil)
		req.Host = host
		s.ServeHTTP(w, req)
		if w.Code != want {
			t.Errorf("Host %s: %d, want %d", host, w.Code, want)
		}
	}
}

// TestSteadyInResults: the page gets each midgame result's steady value
// (its score's mean with the depth before) and shows it beside the score;
// an exact result's is its score.
func TestSteadyInResults(t *testing.T) {
	if r := fromInfo(search.Info{Depth: 8, Selectivity: 73, Score: -2, Before: -1, BeforeDepth: 7, Best: bitboard.NoSquare}); r.Steady != -1.5 {
		t.Errorf("midgame: steady %v", r.Steady)
	}
	if r := fromInfo(search.Info{Depth: 20, Selectivity: 100, Exact: true, Score: 4, Best: bitboard.NoSquare}); r.Steady != 4 {
		t.Errorf("exact: steady %v", r.Steady)
	}
	js, err := static.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), "d.steady") {
		t.Error("the page does not show the steady value")
	}
}
