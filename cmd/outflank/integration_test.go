package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// These tests drive outflank as GUIs and people do, through pipes: the
// test binary itself runs as outflank (TestMain in match_test.go does so
// when asMainEnv is set), so what runs is exactly the compiled command.
// Every read has a deadline, so a hang fails the test instead of stalling
// the run; the depths are low to keep them fast.

// bookDepth is the depth column of an NBoard book line: 0 for a statistics
// book, else the valuing search's depth, with @percent when it was
// selective, or 100% when the value is proven.
var bookDepth = regexp.MustCompile(`^(0|[1-9][0-9]*(@[0-9]{2}%)?|100%)$`)

// outflank returns a command running outflank with args.
func outflank(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), asMainEnv+"=1")
	return cmd
}

const deadline = 20 * time.Second

// proc is a running outflank with its stdin and merged stdout+stderr.
type proc struct {
	t     testing.TB
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	exit  chan error
}

func start(t testing.TB, args ...string) *proc {
	t.Helper()
	cmd := outflank(t, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, w := io.Pipe()
	cmd.Stdout, cmd.Stderr = w, w // as NBoard does: stderr merged
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{t: t, cmd: cmd, in: in, lines: make(chan string, 10000), exit: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	go func() {
		err := cmd.Wait()
		w.Close()
		p.exit <- err
	}()
	t.Cleanup(func() {
		in.Close()
		select {
		case <-p.exit:
		case <-time.After(deadline):
			cmd.Process.Kill()
			t.Errorf("outflank %v did not exit after its input closed", args)
		}
	})
	return p
}

func (p *proc) send(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.in, l+"\n"); err != nil {
			p.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// expect returns the first line starting with prefix, and the lines before.
func (p *proc) expect(prefix string) (string, []string) {
	p.t.Helper()
	var before []string
	timeout := time.After(deadline)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.t.Fatalf("output ended waiting for %q after %q", prefix, before)
			}
			if strings.HasPrefix(l, prefix) {
				return l, before
			}
			before = append(before, l)
		case <-timeout:
			p.t.Fatalf("no %q within %v; got %q", prefix, deadline, before)
		}
	}
}

// waitExit waits for the process to end and returns its exit code.
func (p *proc) waitExit() int {
	p.t.Helper()
	select {
	case err := <-p.exit:
		p.exit <- err // for the cleanup
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		if err != nil {
			p.t.Fatal(err)
		}
		return 0
	case <-time.After(deadline):
		p.t.Fatal("outflank did not exit")
		return -1
	}
}

func parseAnswer(t *testing.T, line string) bitboard.Square {
	t.Helper()
	m, err := bitboard.ParseGameMove(strings.TrimPrefix(line, "=== "))
	if err != nil || !strings.HasPrefix(line, "=== ") || strings.Count(line, "/") != 2 {
		t.Fatalf("bad answer %q", line)
	}
	return m.Square
}

// TestNBoardExampleSession replays the example session of the protocol
// notes (shared/protocols.md), pacing the input as the GUI does, with
// outflank started without arguments (it must detect NBoard by itself).
func TestNBoardExampleSession(t *testing.T) {
	p := start(t)
	game := "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[engine]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4];)"
	p.send("nboard 2", "set game "+game, "set depth 6")
	if l, _ := p.expect("set myname "); l != "set myname Outflank" {
		t.Errorf("got %q", l)
	}
	p.send("ping 1", "hint 3")
	p.expect("pong 1")
	p.expect("status thinking")
	_, lines := p.expect("status")
	g, _ := bitboard.ParseGGF(game)
	pos := g.Current()
	perDepth := map[string]map[bitboard.Square]bool{} // moves reported at each depth
	inBook := map[bitboard.Square]bool{}
	last := ""
	for _, l := range lines {
		f := strings.Fields(l)
		switch {
		case len(f) == 5 && f[0] == "search" && f[3] == "0":
			sq, err := bitboard.ParseSquare(strings.Split(f[1], "-")[0])
			if err != nil || !pos.IsLegal(sq) {
				t.Errorf("search line with an illegal move: %q", l)
			}
			if _, err := strconv.ParseFloat(f[2], 64); err != nil {
				t.Errorf("search line with a bad eval: %q", l)
			}
			if perDepth[f[4]] == nil {
				perDepth[f[4]] = map[bitboard.Square]bool{}
			}
			perDepth[f[4]][sq] = true
			last = f[4]
		case len(f) == 5 && f[0] == "book" && bookDepth.MatchString(f[4]):
			sq, err := bitboard.ParseSquare(f[1])
			if err != nil || !pos.IsLegal(sq) {
				t.Errorf("book line with an illegal move: %q", l)
			}
			// A book valued by search has no game count (0) and gives
			// the depth of that search; a statistics book, games and 0.
			if n, err := strconv.Atoi(f[3]); err != nil || n < 0 {
				t.Errorf("book line with a bad game count: %q", l)
			}
			inBook[sq] = true
		case len(f) == 3 && f[0] == "nodestats":
		default:
			t.Errorf("unexpected line during hint: %q", l)
		}
	}
	// NBoard keeps one hint per square: book moves get no search line, and
	// the search values the other 3-k moves (none if the book has 3).
	for d, ms := range perDepth {
		for sq := range ms {
			if inBook[sq] {
				t.Errorf("depth %s: a search line for book move %s", d, sq)
			}
		}
	}
	if want := 3 - len(inBook); want > 0 && (last != "6" || len(perDepth[last]) < want) {
		t.Errorf("the hint ended at depth %q with %d moves, want depth 6 and %d moves", last, len(perDepth[last]), want)
	} else if want <= 0 && last != "" {
		t.Errorf("3 book moves, and a search too: %q", lines)
	}
	p.send("move E3//4.2", "ping 2", "go")
	p.expect("pong 2")
	l, _ := p.expect("===")
	after := pos.Play(bitboard.SquareAt(4, 2))
	mv := parseAnswer(t, l)
	if !after.IsLegal(mv) {
		t.Errorf("answer %q is illegal", l)
	}
	p.send("move "+strings.TrimPrefix(l, "=== "), "ping 3", "quit")
	p.expect("pong 3")
	if code := p.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestNBoardPingStopsLongSearch: a hint at depth 60 from the start would run
// for hours; a ping must stop it and be answered promptly.
func TestNBoardPingStopsLongSearch(t *testing.T) {
	p := start(t, "nboard", "--no-book")
	p.send("nboard 2", "set depth 60", "set game (;GM[Othello];)", "ping 1", "hint 1")
	p.expect("pong 1")
	p.expect("search ")
	time.Sleep(200 * time.Millisecond) // let it get deep
	t0 := time.Now()
	p.send("ping 2")
	p.expect("pong 2")
	t.Logf("pong after %v", time.Since(t0))
	p.send("ping 3")
	if _, between := p.expect("pong 3"); len(between) != 0 {
		t.Errorf("search output after the pong: %q", between)
	}
	// Same for go with no clock.
	p.send("go")
	p.expect("status thinking")
	time.Sleep(100 * time.Millisecond)
	p.send("ping 4")
	l, _ := p.expect("===")
	if !bitboard.Start().IsLegal(parseAnswer(t, l)) {
		t.Errorf("stopped go answered %q", l)
	}
	p.expect("pong 4")
}

// passGame returns a game, from the start, that reaches a position where
// the side to move must pass (found by a fixed pseudo-random move choice).
func passGame(t *testing.T) *bitboard.Game {
	t.Helper()
	for seed := 0; seed < 1000; seed++ {
		g := &bitboard.Game{Start: bitboard.Start()}
		p := g.Start
		for i := 0; !p.GameOver(); i++ {
			if p.MustPass() {
				return g
			}
			ms := p.Moves()
			for k := (seed*7 + i*13) % bitboard.Count(ms); k > 0; k-- {
				ms &= ms - 1
			}
			sq := bitboard.FirstSquare(ms)
			g.Moves = append(g.Moves, bitboard.GameMove{Square: sq})
			p = p.Play(sq)
		}
	}
	t.Fatal("no game with a pass found")
	return nil
}

// TestNBoardBook: in the opening, go answers a book move at once, and
// hint lists book moves.
func TestNBoardBook(t *testing.T) {
	p := start(t, "nboard")
	p.send("nboard 2", "set depth 60", "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)", "ping 1", "go")
	p.expect("pong 1")
	l, _ := p.expect("===")
	after := bitboard.Start().Play(bitboard.SquareAt(5, 4))
	if mv := parseAnswer(t, l); !after.IsLegal(mv) {
		t.Errorf("book answer %q", l)
	}
	p.send("hint 2")
	if l, _ := p.expect("book "); len(strings.Fields(l)) != 5 {
		t.Errorf("book line %q", l)
	}
	p.send("ping 2")
	p.expect("pong 2")
}

// TestNBoardGameWithPasses plays the rest of a game engine against itself
// through go and move, at depth 1, from a position where the side to move
// must pass, checking that every answer is legal and that PA comes exactly
// when the side to move has no move.
func TestNBoardGameWithPasses(t *testing.T) {
	g := passGame(t)
	pos := g.Current()
	p := start(t, "nboard")
	p.send("nboard 2", "set depth 1", "set game "+g.GGF())
	sawPass := false
	var err error
	for n := 1; !pos.GameOver(); n++ {
		p.send("ping "+strconv.Itoa(n), "go")
		p.expect("pong " + strconv.Itoa(n))
		l, _ := p.expect("===")
		mv := parseAnswer(t, l)
		if (mv == bitboard.PassMove) != pos.MustPass() {
			t.Fatalf("move %d: %q but must pass = %v", n, l, pos.MustPass())
		}
		sawPass = sawPass || mv == bitboard.PassMove
		if pos, err = pos.PlayMove(mv); err != nil {
			t.Fatalf("move %d: %q: %v", n, l, err)
		}
		p.send("move " + strings.TrimPrefix(l, "=== "))
	}
	if !sawPass {
		t.Error("no pass answered")
	}
	p.send("go", "ping 999")
	if l, _ := p.expect("outflank: go: "); !strings.Contains(l, "over") {
		t.Errorf("go after the end: %q", l)
	}
	p.expect("pong 999")
}

// TestNBoardSetGameEndingWithPass: a record whose last move is a pass
// leaves the other side to move.
func TestNBoardSetGameEndingWithPass(t *testing.T) {
	g := passGame(t)
	after := g.Current().Pass()
	g.Moves = append(g.Moves, bitboard.GameMove{Square: bitboard.PassMove})
	p := start(t, "nboard")
	p.send("nboard 2", "set depth 2", "set game "+g.GGF(), "ping 1", "go")
	p.expect("pong 1")
	l, _ := p.expect("===")
	if mv := parseAnswer(t, l); mv == bitboard.PassMove || !after.IsLegal(mv) {
		t.Errorf("answer %q is not a legal move of %s", l, after.ToMove)
	}
}

// TestNBoardEOFDuringSearch: input ends while the engine thinks (a clock
// bounds the move); it answers and exits cleanly.
func TestNBoardEOFDuringSearch(t *testing.T) {
	p := start(t, "nboard")
	p.send("nboard 2", "set depth 60", "set game (;GM[Othello]TI[0:02];)", "go")
	p.in.Close()
	l, _ := p.expect("===")
	if !bitboard.Start().IsLegal(parseAnswer(t, l)) {
		t.Errorf("answer %q", l)
	}
	if code := p.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestNBoardBadInput: bad lines get one error line each, never starting
// with a protocol keyword, and the engine keeps answering.
func TestNBoardBadInput(t *testing.T) {
	p := start(t, "nboard")
	keywords := []string{"===", "search", "book", "pong", "status", "set", "nodestats", "learned", "analysis"}
	for i, bad := range []string{"hello", "set game (;GM[Othello]B[Z9];)", "move A1", "move", "set depth x", "hint 0", "set game"} {
		p.send(bad, "ping "+strconv.Itoa(i))
		_, before := p.expect("pong " + strconv.Itoa(i))
		// The error on stderr, then (for a known command) the same text as
		// a status line: NBoard shows no stderr, but shows the status.
		want := 2
		if bad == "hello" {
			want = 1
		}
		if len(before) != want {
			t.Errorf("%q: want %d error lines, got %q", bad, want, before)
			continue
		}
		for _, k := range keywords {
			if strings.HasPrefix(before[0], k) {
				t.Errorf("%q: error line %q starts with protocol keyword %q", bad, before[0], k)
			}
		}
		if want == 2 && !strings.HasPrefix(before[1], "status ") {
			t.Errorf("%q: no status line: %q", bad, before)
		}
	}
}

// TestGTPSession plays a game to the end by genmove at low depth, with
// the GTP framing checked on every reply.
func TestGTPSession(t *testing.T) {
	p := start(t, "gtp", "--depth", "1")
	reply := func(cmd string) string {
		t.Helper()
		p.send(cmd)
		l, _ := p.expect("")
		if !strings.HasPrefix(l, "=") && !strings.HasPrefix(l, "?") {
			t.Fatalf("%q: reply %q", cmd, l)
		}
		if blank, _ := p.expect(""); blank != "" {
			t.Fatalf("%q: reply not ended by a blank line: %q", cmd, blank)
		}
		return l
	}
	if r := reply("1 protocol_version"); r != "=1 2" {
		t.Errorf("protocol_version: %q", r)
	}
	if r := reply("name"); r != "= Outflank" {
		t.Errorf("name: %q", r)
	}
	if r := reply("boardsize 8"); r != "=" {
		t.Errorf("boardsize: %q", r)
	}
	if r := reply("play black a1"); !strings.HasPrefix(r, "? illegal move") {
		t.Errorf("illegal play: %q", r)
	}
	pos := bitboard.Start()
	for i := 0; i < 80 && !pos.GameOver(); i++ {
		col := pos.ToMove.String()
		r := reply("genmove " + col)
		sq, err := bitboard.ParseSquare(strings.TrimPrefix(r, "= "))
		if err != nil {
			t.Fatalf("genmove %s: %q", col, r)
		}
		if pos, err = pos.PlayMove(sq); err != nil {
			t.Fatalf("genmove %s: %q: %v", col, r, err)
		}
	}
	if !pos.GameOver() {
		t.Fatal("game not over")
	}
	res := pos.Result()
	want := "= 0"
	if !res.Draw {
		want = "= " + strings.ToUpper(res.Winner.String()[:1]) + "+" + strconv.Itoa(res.Margin)
	}
	if r := reply("final_score"); r != want {
		t.Errorf("final_score %q, want %q", r, want)
	}
	reply("quit")
	if code := p.waitExit(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

// TestShellScript drives the shell with a script: moves, a bad move, undo,
// the engine playing both sides to the end, and the final score.
func TestShellScript(t *testing.T) {
	cmd := outflank(t, "shell", "--level", "1", "--time", "0")
	cmd.Stdin = strings.NewReader("f5 d6\nz9\nundo\nengine both\ngame\nquit\n")
	out, err := runWithDeadline(t, cmd)
	// The script's bad line ("z9") sets the exit status, as a shell's would.
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("want exit status 1 after a failed command, got %v\n%s", err, out)
	}
	for _, want := range []string{
		"Black to move (last move d6)",
		`error: unknown command "z9"`,
		"White to move (last move f5)",
		"Game over: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in the output", want)
		}
	}
	i := strings.Index(out, "moves: ")
	if i < 0 {
		t.Fatalf("no moves line: %s", out)
	}
	moves := strings.SplitN(out[i+7:], "\n", 2)[0]
	pos, err := bitboard.PlayTranscript(bitboard.Start(), moves)
	if err != nil || !pos.GameOver() {
		t.Fatalf("game %q: %v", moves, err)
	}
	if !strings.Contains(out, "Game over: "+pos.Result().String()) {
		t.Errorf("final score does not match the board %s", pos.Result())
	}
}

// TestDefaultCommandScript: without arguments and with a script on stdin,
// outflank runs the shell.
func TestDefaultCommandScript(t *testing.T) {
	cmd := outflank(t)
	cmd.Stdin = strings.NewReader("f5\n")
	out, err := runWithDeadline(t, cmd)
	if err != nil || !strings.Contains(out, "White to move (last move f5)") {
		t.Errorf("%v: %s", err, out)
	}
}

// TestDefaultCommandGTP: without arguments, a GTP handshake selects GTP.
func TestDefaultCommandGTP(t *testing.T) {
	cmd := outflank(t)
	cmd.Stdin = strings.NewReader("1 protocol_version\nname\n")
	out, err := runWithDeadline(t, cmd)
	if err != nil || out != "=1 2\n\n= Outflank\n\n" {
		t.Errorf("%v: %q", err, out)
	}
}

func TestBadCommandLine(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"nboard", "--depth", "0"}, {"gtp", "--hash", "0"}, {"shell", "--level", "x"}, {"nboard", "extra"},
		{"nboard", "--book", "/nonexistent.book"}, {"gtp", "--eval", "/nonexistent.weights"}, {"shell", "--book", "x", "--no-book"}} {
		out, err := runWithDeadline(t, outflank(t, args...))
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 {
			t.Errorf("%v: exit %v, want 1", args, err)
		}
		if !strings.Contains(out, "outflank:") && !strings.Contains(out, "Usage") {
			t.Errorf("%v: no error message: %q", args, out)
		}
	}
}

func runWithDeadline(t *testing.T, cmd *exec.Cmd) (string, error) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(deadline):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v did not finish within %v", cmd.Args, deadline)
		return "", nil
	}
}

// BenchmarkPingDuringSearch measures what a GUI waits between sending
// "ping N" while the engine analyses (a hint at depth 60 from the start,
// which would run for hours) and receiving "pong N".
func BenchmarkPingDuringSearch(b *testing.B) {
	p := start(b, "nboard", "--no-book")
	p.send("nboard 2", "set depth 60", "set game (;GM[Othello];)")
	n := 0
	for b.Loop() {
		b.StopTimer()
		p.send("hint 1")
		p.expect("search ")
		time.Sleep(20 * time.Millisecond) // let the search get going
		n++
		b.StartTimer()
		p.send("ping " + strconv.Itoa(n))
		p.expect("pong " + strconv.Itoa(n))
	}
}
