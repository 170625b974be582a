package shell

import (
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/search"
)

type files map[string]string

// runScript runs the shell on a script with the greedy stand-in and returns
// everything it wrote (errors included, as on a terminal).
func runScript(t *testing.T, fs files, lines ...string) string {
	t.Helper()
	out, err := runScriptErr(t, fs, lines...)
	if err != nil && !errors.Is(err, ErrScript) {
		t.Fatal(err)
	}
	return out
}

// runScriptErr is runScript that also returns Run's error.
func runScriptErr(t *testing.T, fs files, lines ...string) (string, error) {
	t.Helper()
	var out strings.Builder
	cfg := Config{Name: "Outflank", Level: 2}
	if fs != nil {
		cfg.ReadFile = func(name string) ([]byte, error) {
			if s, ok := fs[name]; ok {
				return []byte(s), nil
			}
			return nil, errors.New("open " + name + ": no such file")
		}
		cfg.WriteFile = func(name string, data []byte) error { fs[name] = string(data); return nil }
	}
	done := make(chan error, 1)
	w := &lockedWriter{w: &out}
	go func() {
		done <- Run(strings.NewReader(strings.Join(lines, "\n")+"\n"), w, w,
			func(search.Options) play.Searcher { return &playtest.Greedy{} }, cfg)
	}()
	select {
	case err := <-done:
		return out.String(), err
	case <-time.After(20 * time.Second):
		t.Fatal("shell hung")
	}
	return "", nil
}

type lockedWriter struct{ w io.Writer }

func (l *lockedWriter) Write(b []byte) (int, error) { return l.w.Write(b) }

func TestMovesUndoRedo(t *testing.T) {
	out := runScript(t, nil, "f5", "d6 c3", "undo", "undo", "redo", "board")
	if !strings.Contains(out, "White to move (last move f5)") {
		t.Errorf("after f5: %s", out)
	}
	// After "d6 c3", undo twice, redo once: d6 is the last move.
	if !strings.HasSuffix(strings.TrimSpace(out), "Black to move (last move d6); legal moves (*): c3 c4 c5 c6 c7") {
		t.Errorf("end: %s", out[max(0, len(out)-300):])
	}
}

func TestBadInput(t *testing.T) {
	out := runScript(t, files{}, "frobnicate", "a1", "f5 d6 a1", "undo 0", "depth", "depth 99", "time -1",
		"board XXXX", "new handicap 5", "load nothing.ggf", "engine purple", "hint x", "solve now", "pass", "play")
	for _, want := range []string{
		`error: unknown command "frobnicate"`,
		"error: play: move 1 (a1) not played: it flips nothing; black can play d3 c4 f5 e6",
		"error: play: move 3 (a1) not played",
		"error: undo: \"0\" is not a number",
		"error: depth: want one number",
		"error: depth: depth \"99\" is not a number from 1 to 60",
		"error: time: \"-1\": want a time from 0 (no limit) to 1000000 seconds",
		"error: board: only 4 of 64 squares",
		"error: new: handicap \"5\"",
		"error: load: open nothing.ggf: no such file",
		"error: engine: \"purple\"",
		"error: hint: \"x\" is not a number",
		"error: solve: unexpected \"now\"",
		"error: pass: black has a move",
		"error: play: missing the moves",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in output", want)
		}
	}
	// Every error is one line.
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "error:") && strings.Contains(l, "\r") {
			t.Errorf("bad error line %q", l)
		}
	}
}

// TestGameAgainstEngine: the engine plays white after each human move,
// and a game played by the engine for both sides ends with the rulebook
// score.
func TestEngineSides(t *testing.T) {
	out := runScript(t, nil, "engine white", "f5", "status")
	if !strings.Contains(out, "Outflank plays") || !strings.Contains(out, "for white") {
		t.Errorf("engine did not answer as white: %s", out)
	}
	if !strings.Contains(out, "Black to move") {
		t.Errorf("not black's turn after the engine's reply: %s", out)
	}
	out = runScript(t, nil, "engine both", "game")
	if !strings.Contains(out, "Game over: ") {
		t.Fatalf("no game over: %s", out)
	}
	// Replay the moves and check the printed result.
	i := strings.Index(out, "moves: ")
	moves := strings.TrimSpace(strings.SplitN(out[i+len("moves: "):], "\n", 2)[0])
	pos, err := bitboard.PlayTranscript(bitboard.Start(), moves)
	if err != nil {
		t.Fatal(err)
	}
	if !pos.GameOver() || !strings.Contains(out, "Game over: "+pos.Result().String()+".") {
		t.Errorf("result line does not match %q", pos.Result())
	}
}

func TestUndoAgainstEngine(t *testing.T) {
	out := runScript(t, nil, "engine white", "f5", "undo")
	if !strings.HasSuffix(strings.TrimSpace(out), "Black to move; legal moves (*): d3 c4 f5 e6") {
		t.Errorf("undo did not take back both moves: %s", out[max(0, len(out)-200):])
	}
}

func TestHandicap(t *testing.T) {
	out := runScript(t, nil, "new handicap 1", "game")
	if !strings.Contains(out, "BO[8 X") && !strings.Contains(out, "BO[8 *") {
		t.Errorf("handicap game record: %s", out)
	}
}

func TestHintAndSolve(t *testing.T) {
	out := runScript(t, nil, "hint 2", "board XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X", "solve")
	if !strings.Contains(out, " 1. ") || !strings.Contains(out, " 2. ") || strings.Contains(out, " 3. ") {
		t.Errorf("hint 2: %s", out)
	}
	if !strings.Contains(out, "Solved: black wins by 64") {
		t.Errorf("solve: %s", out)
	}
}

func TestPassAndGameOver(t *testing.T) {
	// White must pass after black's... a position where black plays a1 and
	// the game ends: black has all 64 discs.
	out := runScript(t, nil, "board -OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O", "a1", "go", "a2")
	if !strings.Contains(out, "White has no legal move and passes.") {
		t.Errorf("no forced pass: %s", out)
	}
	if !strings.Contains(out, "Game over: black wins 64-0 (margin 64).") {
		t.Errorf("no final score: %s", out)
	}
	if !strings.Contains(out, "error: go: the game is over") || !strings.Contains(out, "error: play: move 3 (a2) not played: the game is over") {
		t.Errorf("moves after the end accepted: %s", out)
	}
}

func TestLoadSave(t *testing.T) {
	fs := files{"t.txt": "f5d6c3d3c4\n", "bad.txt": "f5 f5\n", "g.ggf": "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[f6];)"}
	out := runScript(t, fs, "load t.txt", "save out.ggf", "save out.txt", "load g.ggf", "undo", "load bad.txt", "new handicap 2", "save h.txt")
	if fs["out.txt"] != "f5d6c3d3c4\n" {
		t.Errorf("transcript saved as %q", fs["out.txt"])
	}
	g, err := bitboard.ParseGGF(fs["out.ggf"])
	if err != nil || len(g.Moves) != 5 {
		t.Errorf("GGF saved as %q: %v", fs["out.ggf"], err)
	}
	if !strings.Contains(out, "Loaded 2 moves from g.ggf.") || !strings.Contains(out, "White to move (last move f5)") {
		t.Errorf("load GGF + undo: %s", out)
	}
	if !strings.Contains(out, "error: load: bad.txt: transcript: move 2 (f5) illegal") {
		t.Errorf("bad transcript: %s", out)
	}
	if !strings.Contains(out, "error: save: the game does not start from the standard position") {
		t.Errorf("handicap saved as a transcript: %s", out)
	}
}

func TestInterruptStopsSearch(t *testing.T) {
	intr := make(chan struct{})
	inR, inW := io.Pipe()
	var out strings.Builder
	slow := &playtest.Slow{Started: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		Run(inR, &lockedWriter{&out}, io.Discard, func(search.Options) play.Searcher { return slow }, Config{Interrupt: intr})
		close(done)
	}()
	io.WriteString(inW, "go\n")
	<-slow.Started
	intr <- struct{}{}
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("interrupt did not stop the search")
	}
	if !strings.Contains(out.String(), "Stopped: playing the best move found so far.") || !strings.Contains(out.String(), "White to move (last move") {
		t.Errorf("got %s", out.String())
	}
}

func FuzzShell(f *testing.F) {
	for _, s := range []string{"f5", "new handicap 3 white", "undo 3", "redo", "board " + bitboard.Start().String(),
		"hint 5", "level 1", "engine both", "pass", "play f5d6c3", "save x.ggf", "load x.ggf", "help", "play f5 PA d6"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "engine") {
			return // a full game per input is too slow for fuzzing
		}
		var out strings.Builder
		fs := files{}
		cfg := Config{Level: 1,
			ReadFile:  func(name string) ([]byte, error) { return []byte(fs[name]), nil },
			WriteFile: func(name string, data []byte) error { fs[name] = string(data); return nil },
		}
		if err := Run(strings.NewReader(line), &out, &out, func(search.Options) play.Searcher { return &playtest.Greedy{} }, cfg); err != nil && !errors.Is(err, ErrScript) {
			t.Fatal(err)
		}
	})
}

// TestBook: a hint gives each move one value, the book's where the book's
// search went deeper than the hint's (c4), the search's otherwise; the
// engine plays the book move until "book off".
func TestBook(t *testing.T) {
	c4, _ := bitboard.ParseSquare("c4")
	book := playtest.Book{bitboard.Start(): {{Move: c4, Score: 5.25, Games: 500, Depth: 14, Selectivity: 95}}}
	var out strings.Builder
	Run(strings.NewReader("hint 2\ngo\nundo\nbook off\ngo\n"), &out, &out,
		func(search.Options) play.Searcher { return &playtest.Greedy{} }, Config{Book: book, Level: 1})
	o := out.String()
	for _, want := range []string{" 1. c4   +5.25  (book 14@95%)\n 2. ", "Outflank plays c4 for black: book move, +5.25 (depth 14@95%)", "book off"} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in %s", want, o)
		}
	}
	if n := len(regexp.MustCompile(`(?m)^ *\d+\. c4 `).FindAllString(o, -1)); n != 1 || strings.Contains(o, "book c4") {
		t.Errorf("c4 shown with two values: %s", o)
	}
	if strings.Count(o, "Outflank plays c4") != 1 {
		t.Errorf("book off still played the book move: %s", o)
	}
}

// TestEOFDuringSearch: the script ends while the engine thinks; the move
// is still made and shown, and the shell ends.
func TestEOFDuringSearch(t *testing.T) {
	var out strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- Run(strings.NewReader("go"), &out, &out,
			func(search.Options) play.Searcher { return &playtest.Slow{} }, Config{Time: 50 * time.Millisecond})
	}()
	select {
	case err := <-done:
		if err != nil || !strings.Contains(out.String(), "Outflank plays") {
			t.Errorf("%v: %s", err, out.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("shell did not end")
	}
}

// TestTranscriptWithPasses plays a whole game given as one transcript,
// once with its passes written out and once without: the shell makes the
// forced passes itself, and both end in the same position.
func TestTranscriptWithPasses(t *testing.T) {
	// A whole game with a pass, from a fixed pseudo-random move choice.
	var withPA, without []string
	var p bitboard.Position
	for seed := 0; seed < 1000; seed++ {
		withPA, without, p = nil, nil, bitboard.Start()
		passes := 0
		for i := 0; !p.GameOver(); i++ {
			if p.MustPass() {
				withPA = append(withPA, "PA")
				p = p.Pass()
				passes++
				continue
			}
			ms := p.Moves()
			for k := (seed*7 + i*13) % bitboard.Count(ms); k > 0; k-- {
				ms &= ms - 1
			}
			sq := bitboard.FirstSquare(ms)
			withPA = append(withPA, sq.String())
			without = append(without, sq.String())
			p = p.Play(sq)
		}
		if passes > 0 {
			break
		}
	}
	if len(withPA) == len(without) {
		t.Fatal("no game with a pass found")
	}
	for _, tr := range []string{strings.Join(withPA, " "), strings.Join(without, "")} {
		out := runScript(t, nil, "play "+tr)
		if strings.Contains(out, "error:") || !strings.Contains(out, "Game over: "+p.Result().String()) {
			t.Errorf("%s: %s", tr, out[max(0, len(out)-300):])
		}
	}
}

// TestRandomRefusals plays random games in the shell with a refused move
// (an occupied square, one that flips nothing, a pass while a move
// exists) before every legal one: each refusal prints one error and the
// game record at the end is exactly the legal moves, forced passes
// included.
func TestRandomRefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(78, 5))
	for game := 0; game < 6; game++ {
		var lines []string
		pos := bitboard.Start()
		want := &bitboard.Game{Start: pos}
		refused := 0
		for !pos.GameOver() {
			if pos.MustPass() { // the shell passes for the side that must
				want.Moves = append(want.Moves, bitboard.GameMove{Square: bitboard.PassMove})
				pos = pos.Pass()
				continue
			}
			legal := pos.Moves()
			bad := []string{"pass"}
			for sq := bitboard.Square(0); sq < 64; sq++ {
				if legal&sq.Bit() == 0 {
					bad = append(bad, sq.String())
				}
			}
			lines = append(lines, bad[rng.IntN(len(bad))])
			refused++
			for k := rng.IntN(bitboard.Count(legal)); k > 0; k-- {
				legal &= legal - 1
			}
			sq := bitboard.FirstSquare(legal)
			lines = append(lines, sq.String())
			want.Moves = append(want.Moves, bitboard.GameMove{Square: sq})
			pos = pos.Play(sq)
		}
		out := runScript(t, nil, append(lines, "game")...)
		if n := strings.Count(out, "error: "); n != refused {
			t.Fatalf("game %d: %d errors for %d refused moves", game, n, refused)
		}
		i := strings.LastIndex(out, "ggf: ")
		if i < 0 {
			t.Fatalf("game %d: no record in %s", game, out[max(0, len(out)-300):])
		}
		g, err := bitboard.ParseGGF(out[i+5:])
		if err != nil {
			t.Fatalf("game %d: %v", game, err)
		}
		if len(g.Moves) != len(want.Moves) || g.Current() != pos {
			t.Fatalf("game %d: record %s, want the moves of %s", game, g.GGF(), want.GGF())
		}
	}
}

// burstLines is how many lines of 1 MiB TestBurstBounded sends during a
// search; the 4,096: -burst-lines 4096.
var burstLines = flag.Int("burst-lines", 256, "lines of 1 MiB TestBurstBounded sends")

// TestBurstBounded: lines of about 1 MiB each sent to a shell at a
// terminal during a go that would think for ever are kept only up to
// play.MaxPendingBytes, the rest reported as dropped, and the quit after
// them stops the search and ends the shell at once.
func TestBurstBounded(t *testing.T) {
	inR, inW := io.Pipe()
	var errs playtest.SyncBuffer
	slow := &playtest.Slow{Started: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		Run(inR, io.Discard, &errs, func(search.Options) play.Searcher { return slow }, Config{Level: 40, Interactive: true})
		close(done)
	}()
	io.WriteString(inW, "go\n")
	<-slow.Started
	playtest.BurstThenQuit(t, inW, done, *burstLines, "# ", "quit")
	if e := errs.String(); !strings.Contains(e, "lines dropped: more than 4 MiB") {
		t.Errorf("errors %q", e[:min(len(e), 300)])
	}
}

// TestHintMergesBeforeCut: hint N merges every book move with the search
// before it keeps the N best, so a move the search puts in its top N but
// the book values deeper and lower shows the book's value (and falls out
// of the list), never the shallow one (hint 2 once showed c6 -2 at depth
// 4 where the book said -5, the book cut to its top 2 first).
func TestHintMergesBeforeCut(t *testing.T) {
	sq := func(s string) bitboard.Square { q, _ := bitboard.ParseSquare(s); return q }
	book := playtest.Book{bitboard.Start(): {
		{Move: sq("f5"), Score: 0, Depth: 20, Selectivity: 73},
		{Move: sq("e6"), Score: -1, Depth: 20, Selectivity: 73},
		{Move: sq("c4"), Score: -8, Depth: 20, Selectivity: 73},
		{Move: sq("d3"), Score: -9, Depth: 20, Selectivity: 73},
	}}
	var out strings.Builder
	Run(strings.NewReader("hint 2\n"), &out, &out,
		func(search.Options) play.Searcher { return &playtest.Greedy{} }, Config{Book: book, Level: 1})
	o := out.String()
	for _, want := range []string{" 1. f5   +0.00  (book 20@73%)", " 2. e6   -1.00  (book 20@73%)"} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in %s", want, o)
		}
	}
	if strings.Contains(o, "d3") || strings.Contains(o, "c4") {
		t.Errorf("a move the book values -8 or -9 is among the best two: %s", o)
	}
}

// TestAnalyzeBestIsNoMistake: the move the search calls best loses
// nothing, though the searches before and after it value it differently
// (the greedy stand-in values d3 +3 before it and -3 after), where
// analyze once printed "loses 1 (best h6 +61)" for h6.
func TestAnalyzeBestIsNoMistake(t *testing.T) {
	out := runScript(t, nil, "d3", "analyze")
	if !strings.Contains(out, "1. black d3") {
		t.Fatalf("no analysis line for d3: %s", out)
	}
	if strings.Contains(out, "best d3") || !strings.Contains(out, "No mistakes found") {
		t.Errorf("the best move called a mistake: %s", out)
	}
}

// TestRedoAgainstEngine: against the engine, undo 2 takes back two of the
// person's moves with the engine's replies (4 plies) and redo 2 replays
// all four, the person to move again (redo once replayed one ply and left
// the engine to move, which it did not).
func TestRedoAgainstEngine(t *testing.T) {
	before := runScript(t, nil, "engine white", "f5", "d3", "game")
	after := runScript(t, nil, "engine white", "f5", "d3", "undo 2", "redo 2", "game")
	moves := regexp.MustCompile(`(?m)^moves: (.*)$`)
	b, a := moves.FindStringSubmatch(before), moves.FindStringSubmatch(after)
	if b == nil || a == nil || a[1] != b[1] || len(b[1]) != 8 {
		t.Fatalf("moves %q before undo 2, %q after redo 2", b, a)
	}
	turns := regexp.MustCompile(`(?m)^(Black|White) to move.*$`).FindAllString(after, -1)
	if len(turns) == 0 || !strings.HasPrefix(turns[len(turns)-1], "Black to move (last move c4)") {
		t.Errorf("not the person's turn after redo 2: %q", turns)
	}
}

// TestPonder: at a terminal with pondering on, after the engine's answer
// it thinks on the person's time until they type (a line is answered at
// once) or press Ctrl-C (which ends the shell as when idle); with
// pondering off it waits idle.
func TestPonder(t *testing.T) {
	for _, on := range []bool{true, false} {
		intr := make(chan struct{}, 1)
		inR, inW := io.Pipe()
		var out playtest.SyncBuffer
		slow := &playtest.Slow{Started: make(chan struct{}, 8)}
		done := make(chan struct{})
		go func() {
			Run(inR, &out, &out, func(search.Options) play.Searcher { return slow },
				Config{Interactive: true, Interrupt: intr, Time: 30 * time.Millisecond, Ponder: on, Book: nil})
			close(done)
		}()
		io.WriteString(inW, "f5\n")
		<-slow.Started // the engine's answer
		select {
		case <-slow.Started:
			if !on {
				t.Fatal("pondered with pondering off")
			}
		case <-time.After(500 * time.Millisecond):
			if on {
				t.Fatalf("no ponder after the engine's answer:\n%s", out.String())
			}
		}
		t0 := time.Now()
		io.WriteString(inW, "status\n")
		for !strings.Contains(out.String(), "pondering") {
			if time.Since(t0) > 5*time.Second {
				t.Fatalf("status not answered while pondering:\n%s", out.String())
			}
			time.Sleep(time.Millisecond)
		}
		if took := time.Since(t0); took > 100*time.Millisecond {
			t.Errorf("ponder %v: status answered in %v", on, took)
		}
		time.Sleep(50 * time.Millisecond) // pondering again
		intr <- struct{}{}
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("ponder %v: Ctrl-C did not end the shell", on)
		}
		inW.Close()
	}
}
