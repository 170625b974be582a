package nboard

import (
	"bufio"
	"context"
	"flag"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
	"github.com/outflank-othello/outflank/search"
)

// wait bounds every read so that a hang fails the test instead of the run.
const wait = 10 * time.Second

type harness struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan string
	done  chan struct{} // closed when Run returns
	err   error         // what Run returned
}

// startSession runs an NBoard session on pipes, stderr merged into stdout
// as the NBoard GUI does.
func startSession(t *testing.T, eng play.Searcher) *harness {
	return startSessionConfig(t, eng, Config{Name: "Outflank"})
}

func startSessionConfig(t *testing.T, eng play.Searcher, cfg Config) *harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, in: inW, lines: make(chan string, 1000), done: make(chan struct{})}
	go func() {
		h.err = Run(inR, outW, outW, eng, cfg)
		outW.Close()
		close(h.done)
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-h.done:
		case <-time.After(wait):
			t.Error("session did not end after its input closed")
		}
	})
	return h
}

func (h *harness) send(lines ...string) {
	h.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(h.in, l+"\n"); err != nil {
			h.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// expect reads lines until one starts with prefix and returns it with the
// lines read before it.
func (h *harness) expect(prefix string) (string, []string) {
	h.t.Helper()
	var before []string
	deadline := time.After(wait)
	for {
		select {
		case l, ok := <-h.lines:
			if !ok {
				h.t.Fatalf("output ended while waiting for %q; got %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-deadline:
			h.t.Fatalf("no %q line within %v; got %q", prefix, wait, before)
		}
	}
}

// answer parses a "=== MOVE/eval/time" line.
func answer(t *testing.T, line string) bitboard.Square {
	t.Helper()
	f := strings.Fields(line)
	if len(f) != 2 || f[0] != "===" {
		t.Fatalf("bad answer line %q", line)
	}
	parts := strings.Split(f[1], "/")
	if len(parts) != 3 {
		t.Fatalf("answer %q: want move/eval/time", line)
	}
	m, err := bitboard.ParseGameMove(f[1])
	if err != nil {
		t.Fatalf("answer %q: %v", line, err)
	}
	return m.Square
}

const exampleGame = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[engine]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)"

// TestExampleSession replays the example of the protocol notes (shared/protocols.md).
func TestExampleSession(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set game "+exampleGame, "set depth 12")
	if l, _ := h.expect("set myname"); l != "set myname Outflank" {
		t.Errorf("got %q", l)
	}
	h.send("ping 1", "hint 3")
	h.expect("pong 1")
	_, lines := h.expect("status")
	if l, _ := h.expect("status"); l != "status" {
		// the first status is "status thinking"; the hint ends by clearing it
		t.Errorf("hint did not end by clearing the status: %q", l)
	}
	_ = lines
	h.send("move E3//4.2", "ping 2", "go")
	h.expect("pong 2")
	l, before := h.expect("===")
	mv := answer(t, l)
	g, _ := bitboard.ParseGGF(exampleGame)
	pos := g.Current().Play(bitboard.SquareAt(4, 2))
	if !pos.IsLegal(mv) {
		t.Errorf("answer %s is not legal in %s", mv, pos)
	}
	if !hasPrefix(before, "nodestats ") {
		t.Errorf("no nodestats line before the answer: %q", before)
	}
	// go must not play the move: a second go gives a legal move of the
	// same position.
	h.send("ping 3", "go")
	h.expect("pong 3")
	l, _ = h.expect("===")
	if mv2 := answer(t, l); !pos.IsLegal(mv2) {
		t.Errorf("second answer %s not legal in %s: go played its move?", mv2, pos)
	}
	h.send("move "+mv.Upper()+"/-0.75/1.2", "ping 4", "quit")
	h.expect("pong 4")
}

func hasPrefix(lines []string, p string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// TestHintLines checks the form of the search lines: up to N distinct
// legal moves, each "search <pv> <eval> 0 <depth>".
func TestHintLines(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 4", "ping 1", "hint 3")
	h.expect("pong 1")
	h.expect("status thinking")
	_, lines := h.expect("status")
	seen := map[string]bool{}
	for _, l := range lines {
		if !strings.HasPrefix(l, "search ") {
			continue
		}
		f := strings.Fields(l)
		if len(f) != 5 || f[3] != "0" || f[4] != "1" {
			t.Errorf("bad search line %q", l)
			continue
		}
		first := strings.Split(f[1], "-")[0]
		sq, err := bitboard.ParseSquare(first)
		if err != nil || !bitboard.Start().IsLegal(sq) {
			t.Errorf("search line %q: move not legal", l)
		}
		if !strings.HasPrefix(f[2], "+") && !strings.HasPrefix(f[2], "-") {
			t.Errorf("search line %q: eval without sign", l)
		}
		seen[first] = true
	}
	if len(seen) != 3 {
		t.Errorf("hint 3 reported %d moves, want 3: %q", len(seen), lines)
	}
}

// passGame returns a game, played by always taking the first legal move,
// that reaches a position where the side to move must pass, and that
// position's index.
func passGame(t *testing.T) *bitboard.Game {
	t.Helper()
	// Deterministic: try move orders indexed by a seed until a pass occurs.
	for seed := 0; seed < 1000; seed++ {
		g := &bitboard.Game{Start: bitboard.Start()}
		p := g.Start
		for i := 0; !p.GameOver(); i++ {
			if p.MustPass() {
				return g
			}
			moves := p.Moves()
			k := (seed*7 + i*13) % bitboard.Count(moves)
			for ; k > 0; k-- {
				moves &= moves - 1
			}
			sq := bitboard.FirstSquare(moves)
			g.Moves = append(g.Moves, bitboard.GameMove{Square: sq})
			p = p.Play(sq)
		}
	}
	t.Fatal("no game with a pass found")
	return nil
}

// TestPass checks both sides of a pass: go answers PA when the side to move
// has no move, and a game that ends with the pass (sent as a move or inside
// the game record) leaves the other side to move.
func TestPass(t *testing.T) {
	g := passGame(t)
	before := g.GGF()
	after := g.Current().Pass()
	withPass := *g
	withPass.Moves = append(append([]bitboard.GameMove(nil), g.Moves...), bitboard.GameMove{Square: bitboard.PassMove})
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 2", "set game "+before, "ping 1", "go")
	h.expect("pong 1")
	l, _ := h.expect("===")
	if mv := answer(t, l); mv != bitboard.PassMove {
		t.Fatalf("side to move must pass, got %q", l)
	}
	for i, how := range []string{"move PA", "move pa/-3.00/0.1", "set game " + withPass.GGF()} {
		h.send("set game "+before, how, "ping "+strconv.Itoa(i+2), "go")
		h.expect("pong " + strconv.Itoa(i+2))
		l, _ = h.expect("===")
		if mv := answer(t, l); mv == bitboard.PassMove || !after.IsLegal(mv) {
			t.Errorf("after %q: answer %q is not a legal move of %s", how, l, after.ToMove)
		}
	}
	// A bad record leaves the game as it was.
	h.send("set game "+strings.Replace(withPass.GGF(), "[PA]", "[XX]", 1), "ping 9", "go")
	h.expect("outflank: set: game not changed")
	h.expect("pong 9")
	l, _ = h.expect("===")
	if mv := answer(t, l); mv == bitboard.PassMove || !after.IsLegal(mv) {
		t.Errorf("after a bad record: answer %q is not a legal move of %s", l, after.ToMove)
	}
}

// TestGameToTheEnd plays a whole game through go and move, with the
// answers checked for legality, until the game is over.
func TestGameToTheEnd(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 1", "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)")
	pos := bitboard.Start()
	for n := 1; !pos.GameOver(); n++ {
		h.send("ping "+strconv.Itoa(n), "go")
		h.expect("pong " + strconv.Itoa(n))
		l, _ := h.expect("===")
		mv := answer(t, l)
		next, err := pos.PlayMove(mv)
		if err != nil {
			t.Fatalf("move %d: %q: %v", n, l, err)
		}
		h.send("move " + strings.TrimPrefix(l, "=== "))
		pos = next
	}
	h.send("ping 999", "go")
	h.expect("pong 999")
	if l, _ := h.expect("outflank: go:"); !strings.Contains(l, "over") {
		t.Errorf("go after the end: %q", l)
	}
	h.send("move F5", "ping 1000")
	if l, _ := h.expect("outflank: move:"); !strings.Contains(l, "over") {
		t.Errorf("move after the end: %q", l)
	}
	h.expect("pong 1000")
}

// TestPingStopsSearch: a hint with a searcher that never ends by itself is
// stopped by ping, and nothing of it is written after the pong.
func TestPingStopsSearch(t *testing.T) {
	slow := &playtest.Slow{Started: make(chan struct{}, 10)}
	h := startSession(t, slow)
	h.send("nboard 2", "set depth 60", "ping 1", "hint 1")
	h.expect("pong 1")
	<-slow.Started
	h.expect("search ")
	h.send("ping 2")
	h.expect("pong 2")
	h.send("ping 3")
	_, between := h.expect("pong 3")
	if len(between) > 0 {
		t.Errorf("lines after pong 2: %q", between)
	}
	// go is stopped too, and still answers (before the pong) with a legal move.
	h.send("go")
	<-slow.Started
	h.send("ping 4")
	l, _ := h.expect("===")
	if mv := answer(t, l); !bitboard.Start().IsLegal(mv) {
		t.Errorf("stopped go answered %q", l)
	}
	h.expect("pong 4")
}

// TestClock: with a game clock, go answers even though the searcher would
// think forever, because the clock gives it a time limit.
func TestClock(t *testing.T) {
	slow := &playtest.Slow{}
	h := startSession(t, slow)
	h.send("nboard 2", "set depth 60",
		"set game (;GM[Othello]TI[0:03]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//1.5]W[F6//2.5];)",
		"ping 1", "go")
	h.expect("pong 1")
	h.expect("===")
}

// TestEOFDuringSearch: input ends while the engine thinks; the search
// finishes and answers, and the session ends.
func TestEOFDuringSearch(t *testing.T) {
	slow := &playtest.Slow{}
	h := startSession(t, slow)
	h.send("nboard 2", "set depth 60", "set game (;GM[Othello]TI[0:01];)", "go")
	h.in.Close()
	h.expect("===")
	select {
	case <-h.done:
		if h.err != nil {
			t.Errorf("Run: %v", h.err)
		}
	case <-time.After(wait):
		t.Fatal("session did not end at EOF")
	}
}

// TestBadInput: every kind of bad input gets one error line that does not
// start with a protocol keyword, and the engine carries on.
func TestBadInput(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	bad := []string{
		"frobnicate 3",
		"nboard x",
		"set depth",
		"set depth 0",
		"set depth 61",
		"set colour red",
		"set",
		"set game (;GM[Othello]BO[8 xyz];)",
		"set game (;GM[Othello]B[A1];)",
		"set game garbage",
		"set contempt much",
		"set contempt NaN",
		"set contempt +Inf",
		"set contempt -inf",
		"set contempt 1e308",
		"set contempt 100.5",
		"set depth NaN",
		"set depth 1e3",
		"hint " + strings.Repeat("9", 5000),
		"move",
		"move Z9",
		"move A1",
		"move F5/abc",
		"move PA",
		"hint -2",
		"hint many",
	}
	for i, b := range bad {
		h.send(b, "ping "+strconv.Itoa(i))
		l, before := h.expect("pong " + strconv.Itoa(i))
		_ = l
		// One error line on stderr, and for a known command the same text
		// as a status line, which NBoard shows.
		want := 2
		if b == "frobnicate 3" {
			want = 1
		}
		if len(before) != want {
			t.Errorf("%q: want %d error lines, got %q", b, want, before)
			continue
		}
		if len(before[0]) > 200 {
			t.Errorf("%q: error of %d bytes: a peer's text is not echoed whole", b[:min(len(b), 40)], len(before[0]))
		}
		if !strings.HasPrefix(before[0], "outflank: ") {
			t.Errorf("%q: error %q does not start with \"outflank: \"", b, before[0])
		}
		if want == 2 && (!strings.HasPrefix(before[1], "status ") || !strings.HasSuffix(before[0], strings.TrimPrefix(before[1], "status "))) {
			t.Errorf("%q: status line %q does not say what %q says", b, before[1], before[0])
		}
	}
	// The position is still the start: go answers a legal opening move.
	h.send("go")
	l, _ := h.expect("===")
	if mv := answer(t, l); !bitboard.Start().IsLegal(mv) {
		t.Errorf("after bad input, go answered %q", l)
	}
	// Blank lines and CRLF line ends are fine.
	h.send("", "  ", "ping 77\r")
	if _, before := h.expect("pong 77"); len(before) != 0 {
		t.Errorf("blank lines gave %q", before)
	}
}

// TestAnalyze: one analysis line per position, passes counted.
func TestAnalyze(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 2", "set game "+exampleGame, "ping 1", "analyze")
	h.expect("pong 1")
	h.expect("status analysing")
	_, lines := h.expect("status")
	got := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 3 || f[0] != "analysis" {
			t.Errorf("bad line %q", l)
			continue
		}
		got[f[1]] = true
	}
	for _, n := range []string{"0", "1", "2", "3", "4"} {
		if !got[n] {
			t.Errorf("no analysis of position %s: %q", n, lines)
		}
	}
	h.send("learn")
	h.expect("learned")
}

// FuzzCommand feeds arbitrary command lines to a session: nothing may
// panic, and the game must stay legal (go keeps answering legal moves).
// FuzzCommand runs whole NBoard sessions: the fuzzed text is sent as one
// burst of lines after "nboard 2", then "ping" and "quit", to an engine
// whose searches never end by themselves (as at depth 40), so every line
// arrives while a search runs or stops. It fails on a panic, on a hang (no
// pong, or no exit, within 10 s) and on an answer that is not a legal move
// of the game. The seeds run in every "go test"; a longer run:
//
//	go test -run NONE -fuzz FuzzCommand -fuzztime 10m ./cmd/outflank/internal/nboard
func FuzzCommand(f *testing.F) {
	for _, s := range []string{
		"nboard 2", "set depth 5", "set game " + exampleGame, "set contempt 0",
		"move F5", "move d3/1.5/2", "move PA", "hint 4", "go", "ping 9", "learn", "analyze",
		"set game (;GM[Othello]BO[8 ", "move //", "set depth 999999999999999999999", "hint 0",
		"set depth 40\nhint 1\nhint 1\nping 1",
		"set depth 40\ngo\ngo\nhint 3\nmove F5\ngo\nping 2\nanalyze\nhint 1",
		"set game " + exampleGame + "\nanalyze\nset game " + exampleGame + "\ngo\nundo\nlearn",
	} {
		f.Add(s)
	}
	f.Fuzz(burst)
}

// burst runs one session of FuzzCommand and TestStorm.
func burst(t *testing.T, text string) {
	var out playtest.SyncBuffer
	s := &session{
		cfg:    Config{Name: "Outflank", Depth: 2},
		player: &play.Player{Engine: &playtest.Slow{Tick: time.Millisecond}, Settings: play.Settings{Depth: 2}},
		out:    textio.NewOut(&out, &out),
		game:   &bitboard.Game{Start: bitboard.Start()},
	}
	r, w := io.Pipe()
	stop := make(chan struct{})
	defer close(stop)
	s.in = play.NewInput(r, stop, nil)
	go func() {
		io.WriteString(w, "nboard 2\n"+text+"\nping 424242\nquit\n")
		w.Close()
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			l, ok := s.in.Next()
			if !ok || s.handle(l) {
				return
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("session hung; output:\n%.2000s", out.String())
	}
	quits := false
	for _, l := range strings.Split(text, "\n") {
		if cmd, _ := splitWord(l); cmd == "quit" {
			quits = true
		}
	}
	if !quits && !strings.Contains(out.String(), "pong 424242") {
		t.Fatalf("no pong; output:\n%.2000s", out.String())
	}
	var moves []bitboard.Square
	for _, m := range s.game.Moves {
		moves = append(moves, m.Square)
	}
	if _, _, err := bitboard.Replay(s.game.Start, moves); err != nil {
		t.Fatalf("game became illegal: %v", err)
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(l, "=== ") {
			if _, err := bitboard.ParseGameMove(strings.TrimPrefix(l, "=== ")); err != nil {
				t.Fatalf("bad answer %q", l)
			}
		}
	}
}

// stormLines is how many lines TestStorm sends. The long run (3.5 M lines
// here, as many through GTP and the shell, 10 M in all):
//
//	go test -run TestStorm ./cmd/outflank/internal/nboard -storm-lines 3500000
var stormLines = flag.Int("storm-lines", 3000, "lines TestStorm sends")

// TestStorm sends sessions of random NBoard lines, good and bad, in bursts
// during searches (see FuzzCommand), until stormLines lines have gone.
func TestStorm(t *testing.T) {
	words := []string{"nboard 2", "set depth 40", "set depth 2", "set game " + exampleGame, "set game (;GM[Othello];)",
		"set contempt 0", "move F5", "move D6", "move C3", "move PA", "move d3/1.5/2", "hint 1", "hint 4", "go", "go",
		"ping 7", "learn", "analyze", "set game (;GM[Othello]BO[8 ", "move //", "hint 0", "bogus", "", "set depth -1"}
	before := playtest.Memory()
	sent, sessions := playtest.Storm(*stormLines, words, func(script string) int {
		burst(t, script)
		return 3 // the burst's handshake, game and closing ping
	})
	t.Logf("%d lines in %d sessions, every one pinged and ponged: no panic, no hang, no illegal game; %s before, %s after", sent, sessions, before, playtest.Memory())
}

// TestBook: go plays the book move without searching; hint sends book
// lines, then searches.
func TestBook(t *testing.T) {
	start := bitboard.Start()
	f5, _ := bitboard.ParseSquare("f5")
	book := playtest.Book{start: {{Move: f5, Score: 0.5, Games: 1000}}}
	g := &playtest.Greedy{}
	h := startSessionConfig(t, g, Config{Book: book})
	h.send("nboard 2", "set depth 5", "ping 1", "go")
	h.expect("pong 1")
	if l, _ := h.expect("==="); l != "=== F5/0.50/0.00" {
		t.Errorf("got %q", l)
	}
	if n := g.Searches.Load(); n != 0 {
		t.Errorf("%d searches for a book move", n)
	}
	h.send("hint 2")
	if l, _ := h.expect("book"); l != "book F5 +0.50 1000 0" {
		t.Errorf("got %q", l)
	}
	h.expect("search ")
}

// recorder is a greedy searcher that remembers the limits it was given.
type recorder struct {
	playtest.Greedy
	lims chan search.Limits
}

func (r *recorder) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	r.lims <- lim
	return r.Greedy.Search(ctx, pos, lim, report)
}

// TestLimits: go gets the depth and a time from the game clock; hint gets
// the depth and N, and no time.
func TestLimits(t *testing.T) {
	r := &recorder{lims: make(chan search.Limits, 10)}
	h := startSession(t, r)
	h.send("nboard 2", "set depth 7",
		"set game (;GM[Othello]TI[2:00/1]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//10]W[F6//20.5];)",
		"ping 1", "go")
	h.expect("===")
	lim := <-r.lims
	// Black: 120s + 1s per move made (one) - 10s = 111s, 58 empties.
	soft, hard := play.Clock{Left: 111 * time.Second, Increment: time.Second}.Limits(58)
	if lim.Depth != 7 || lim.EndgameEmpties != play.EndgameEmpties(7) || lim.Time != hard || lim.Soft != soft || lim.MultiPV != 0 {
		t.Errorf("go limits %+v, want depth 7, time %v soft %v", lim, hard, soft)
	}
	h.send("hint 4")
	h.expect("status")
	h.expect("status")
	lim = <-r.lims
	if lim.Depth != 7 || lim.Time != 0 || lim.MultiPV != 4 {
		t.Errorf("hint limits %+v, want depth 7, no time, MultiPV 4", lim)
	}
}

func TestDepthText(t *testing.T) {
	for _, c := range []struct {
		in   search.Info
		want string
	}{
		{search.Info{Depth: 12, Selectivity: 100}, "12"},
		{search.Info{Depth: 18, Selectivity: 95}, "18@95%"},
		{search.Info{Depth: 24, Selectivity: 73}, "24@73%"},
		{search.Info{Depth: 24, Selectivity: 100, Exact: true}, "100%"},
		{search.Info{Depth: 24, Selectivity: 100, Exact: true, WLD: true}, "100%W"},
		{search.Info{Depth: 7}, "7"},
	} {
		if got := depthText(c.in); got != c.want {
			t.Errorf("depthText(%+v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestRefusedMoveChangesNothing is the reproduction of a refused move that
// changed whose turn it was: Black must pass, the GUI sends an illegal
// move, and the next go must still answer for White (a pass for Black was
// once kept, so the engine answered for the wrong side).
func TestRefusedMoveChangesNothing(t *testing.T) {
	const bo = "O*--*----***--*--*********O**O**O*OOO*****OOOO*******O**OOOOOOO*"
	pos, err := bitboard.ParseBoard(bo + " *")
	if err != nil {
		t.Fatal(err)
	}
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 2", "set game (;GM[Othello]BO[8 "+bo+" *];)", "ping 1", "go")
	h.expect("pong 1")
	if l, _ := h.expect("==="); answer(t, l) != bitboard.PassMove {
		t.Fatalf("Black must pass here, got %q", l)
	}
	h.send("move A1", "ping 2")
	if l, _ := h.expect("outflank: move:"); !strings.Contains(l, "A1 not played") {
		t.Errorf("refusal says %q", l)
	}
	h.expect("pong 2")
	h.send("go")
	if l, _ := h.expect("==="); answer(t, l) != bitboard.PassMove {
		t.Errorf("after a refused move Black must still pass, got %q", l)
	}
	white := pos.Pass()
	h.send("move PA", "ping 3", "go")
	h.expect("pong 3")
	if l, _ := h.expect("==="); !white.IsLegal(answer(t, l)) {
		t.Errorf("after the pass the answer %q is not a move of White", l)
	}
}

// TestRandomRefusals plays random games through move and go, offering a
// refused move (occupied, flipping nothing, or a pass while a move exists)
// before every ply: each is refused and every answer of go is legal in
// the position the test tracks, forced passes included.
func TestRandomRefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(78, 2))
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 1")
	n := 0
	passes := 0
	for game := 0; game < 12; game++ {
		h.send("set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)")
		pos := bitboard.Start()
		for !pos.GameOver() {
			legal := pos.Moves()
			if pos.MustPass() {
				passes++
				legal = pos.Pass().Moves() // a board move implies the pass
			}
			var bad []string
			for sq := bitboard.Square(0); sq < 64; sq++ {
				if legal&sq.Bit() == 0 {
					bad = append(bad, sq.Upper())
				}
			}
			if !pos.MustPass() {
				bad = append(bad, "PA")
			}
			n++
			h.send("move "+bad[rng.IntN(len(bad))], "ping "+strconv.Itoa(n), "go")
			h.expect("outflank: move:")
			h.expect("pong " + strconv.Itoa(n))
			l, _ := h.expect("===")
			mv := answer(t, l)
			next, err := pos.PlayMove(mv)
			if err != nil {
				t.Fatalf("game %d: answer %q illegal in %s: %v", game, l, pos.BoardString('X', 'O', '-', ""), err)
			}
			// Play a random legal move (or the forced pass) instead of the
			// engine's answer now and then, to reach other positions.
			if !pos.MustPass() && rng.IntN(2) == 0 {
				ms := pos.Moves()
				for k := rng.IntN(bitboard.Count(ms)); k > 0; k-- {
					ms &= ms - 1
				}
				mv = bitboard.FirstSquare(ms)
				next = pos.Play(mv)
			}
			h.send("move " + mv.Upper())
			pos = next
		}
	}
	if passes == 0 {
		t.Error("no forced pass met: the test does not cover them")
	}
}

// burstLines is how many lines of 1 MiB TestBurstBounded sends during a
// search; the 4,096: -burst-lines 4096.
var burstLines = flag.Int("burst-lines", 256, "lines of 1 MiB TestBurstBounded sends")

// TestBurstBounded: lines of about 1 MiB each during a go that would think
// for ever (unknown ones, reported and dropped; and long known commands,
// which stop the search and wait their turn) leave the heap bounded, and
// the quit after them ends the session at once.
func TestBurstBounded(t *testing.T) {
	slow := &playtest.Slow{Started: make(chan struct{}, 1)}
	h := startSession(t, slow)
	go func() {
		for range h.lines { // the harness's buffer would fill with the errors
		}
	}()
	h.send("nboard 2", "set depth 40", "go")
	<-slow.Started
	go func() {
		for range slow.Started { // each hint starts a search
		}
	}()
	if err := playtest.Burst(h.in, *burstLines/2, 1_048_000, "bogus "); err != nil {
		t.Fatal(err)
	}
	playtest.BurstThenQuit(t, h.in, h.done, *burstLines/2, "hint 1 ", "quit")
}

// TestPonder: with Ponder, after answering go the engine thinks about the
// position after its answer until the next line, which stops it at once:
// a ping is answered within 50 ms and nothing of the ponder is written.
// Without Ponder the engine waits idle.
func TestPonder(t *testing.T) {
	for _, ponder := range []bool{true, false} {
		slow := &playtest.Slow{Started: make(chan struct{}, 4)}
		h := startSessionConfig(t, slow, Config{Name: "Outflank", Time: 30 * time.Millisecond, Ponder: ponder})
		h.send("nboard 2", "ping 1", "go")
		h.expect("pong 1")
		<-slow.Started // go's search
		h.expect("===")
		select {
		case <-slow.Started:
			if !ponder {
				t.Fatal("a search started after go without Ponder")
			}
		case <-time.After(300 * time.Millisecond):
			if ponder {
				t.Fatal("no ponder search after go")
			}
		}
		time.Sleep(100 * time.Millisecond) // pondering
		t0 := time.Now()
		h.send("ping 2")
		_, before := h.expect("pong 2")
		if took := time.Since(t0); took > 50*time.Millisecond {
			t.Errorf("ponder %v: ping answered in %v", ponder, took)
		}
		if len(before) != 0 {
			t.Errorf("ponder %v: lines before the pong: %q", ponder, before)
		}
	}
}

// TestPonderResumes: the GUI's echo of the engine's own move and its pings
// each stop the ponder, which then resumes; the opponent's move ends it.
func TestPonderResumes(t *testing.T) {
	slow := &playtest.Slow{Started: make(chan struct{}, 16)}
	h := startSessionConfig(t, slow, Config{Name: "Outflank", Time: 30 * time.Millisecond, Ponder: true})
	h.send("nboard 2", "go")
	<-slow.Started
	l, _ := h.expect("===")
	mv := answer(t, l)
	started := func(want bool, after string) {
		t.Helper()
		select {
		case <-slow.Started:
			if !want {
				t.Fatalf("a search started after %s", after)
			}
		case <-time.After(300 * time.Millisecond):
			if want {
				t.Fatalf("no ponder after %s", after)
			}
		}
	}
	started(true, "go")
	h.send("move "+mv.Upper(), "ping 2")
	h.expect("pong 2")
	started(true, "the echo of its own move and a ping")
	time.Sleep(100 * time.Millisecond)
	for len(slow.Started) > 0 { // each line stopped a ponder, which resumed
		<-slow.Started
	}
	reply := bitboard.FirstSquare(bitboard.Start().Play(mv).Moves())
	h.send("move "+reply.Upper(), "ping 3")
	h.expect("pong 3")
	started(false, "the opponent's move")
}

// TestPonderHit: with the real search, the engine ponders the reply its
// answer's PV expects; when the GUI sends that reply, go answers with
// what the ponder found ("status ponder hit: depth 6@73%...", no node
// searched), and when it sends another, go searches it anew ("status
// ponder miss"). Every answer is a legal move.
func TestPonderHit(t *testing.T) {
	for _, hit := range []bool{true, false} {
		h := startSessionConfig(t, search.New(search.Options{HashMB: 16}), Config{Name: "Outflank", Ponder: true})
		h.send("nboard 2", "set depth 6", "go")
		l, before := h.expect("===")
		mv := answer(t, l)
		var pv string
		for _, b := range before {
			if strings.HasPrefix(b, "status ") && strings.Contains(b, ": ") {
				pv = b[strings.LastIndex(b, ": ")+2:]
			}
		}
		moves := strings.Split(pv, "-")
		if len(moves) < 2 {
			t.Fatalf("no reply in the PV %q", pv)
		}
		expected, err := bitboard.ParseSquare(strings.ToLower(moves[1]))
		if err != nil {
			t.Fatalf("PV %q: %v", pv, err)
		}
		after := bitboard.Start().Play(mv)
		reply := expected
		if !hit {
			for mm := after.Moves(); reply == expected; mm &= mm - 1 {
				reply = bitboard.FirstSquare(mm)
			}
		}
		time.Sleep(300 * time.Millisecond) // the ponder reaches depth 6
		h.send("move "+mv.Upper(), "move "+reply.Upper(), "ping 2", "go")
		h.expect("pong 2")
		l, before = h.expect("===")
		if m := answer(t, l); !after.Play(reply).IsLegal(m) {
			t.Fatalf("illegal answer %q", l)
		}
		var status, nodes string
		for _, b := range before {
			if strings.HasPrefix(b, "status ponder") {
				status = b
			}
			if strings.HasPrefix(b, "nodestats ") {
				nodes = b
			}
		}
		if hit && (!strings.HasPrefix(status, "status ponder hit: depth 6@73%,") || !strings.HasPrefix(nodes, "nodestats 0 ")) {
			t.Errorf("hit: %q, %q; want the pondered depth 6 and no node", status, nodes)
		}
		if !hit && (status != "status ponder miss" || strings.HasPrefix(nodes, "nodestats 0 ")) {
			t.Errorf("miss: %q, %q; want a miss and a search", status, nodes)
		}
		h.send("quit")
		<-h.done
	}
}
