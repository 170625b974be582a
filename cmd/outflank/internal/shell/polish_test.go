package shell

import (
	"context"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/search"
)

// runEditor runs the shell at a (fake) terminal: keys are what a person
// types, raw, as the terminal sends them. It returns the screen output.
func runEditor(t *testing.T, eng play.Searcher, keys ...string) string {
	t.Helper()
	inR, inW := io.Pipe()
	var out strings.Builder
	w := &lockedWriter{w: &out}
	ed := NewEditor(inR, w, 80)
	done := make(chan error, 1)
	go func() {
		done <- Run(nil, nil, nil, func(search.Options) play.Searcher { return eng },
			Config{Editor: ed, Interactive: true, Level: 1})
	}()
	for _, k := range keys {
		time.Sleep(20 * time.Millisecond) // a person types one key group at a time
		io.WriteString(inW, k)
	}
	time.Sleep(20 * time.Millisecond)
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("shell hung")
	}
	return out.String()
}

// TestEditorHistory: at a terminal the arrow keys edit the line and recall
// earlier ones (issue: "\x1b[A" was an unknown command).
func TestEditorHistory(t *testing.T) {
	out := runEditor(t, &playtest.Greedy{},
		"engine none\r", // play both sides: the engine would answer f5
		"f5\r",
		"\x1b[A\r",         // up arrow: f5 again, now on a taken square
		"4\x1b[D\x1b[Dd\r", // "4", left, left, "d": the line reads d4
	)
	if strings.Contains(out, "unknown command") {
		t.Errorf("escape sequence taken as a command: %q", out)
	}
	if !strings.Contains(out, "move 2 (f5) not played: the square is taken") {
		t.Errorf("up arrow did not recall f5: %q", out)
	}
	if !strings.Contains(out, "move 2 (d4) not played") {
		t.Errorf("left arrow did not move the cursor: %q", out)
	}
	if strings.Contains(strings.ReplaceAll(out, "\r\n", ""), "\n") {
		t.Errorf("a bare newline on a raw terminal: %q", out)
	}
}

// TestEditorCtrlC: Ctrl-C in raw mode stops a search (the terminal sends
// no signal), and the shell goes on.
func TestEditorCtrlC(t *testing.T) {
	out := runEditor(t, &playtest.Slow{}, "go\r", "\x03", "board\r")
	if !strings.Contains(out, "Stopped: playing the best move found so far.") || !strings.Contains(out, "White to move (last move") {
		t.Errorf("Ctrl-C did not stop the search: %q", out)
	}
}

// TestFinalScoreBothCounts: a game ending with empty squares shows the
// booklet's count (discs on the board) and the tournament count (empties
// to the winner), which solve, match and NBoard use.
func TestFinalScoreBothCounts(t *testing.T) {
	out := runScript(t, nil, "board XXXXXXXXXX"+strings.Repeat("-", 54)+" X")
	want := "Game over: black wins 10-0 (margin 10) on the board; 64-0 with the 54 empty squares to the winner, as tournaments count."
	if !strings.Contains(out, want) {
		t.Errorf("want %q in %s", want, out)
	}
	out = runScript(t, nil, "board XXXXX"+strings.Repeat("-", 54)+"OOOOO X")
	if !strings.Contains(out, "draw 5-5 on the board; 32-32 with the 54 empty squares half to each") {
		t.Errorf("draw with empties: %s", out)
	}
	// A full board has one count only.
	full := strings.Repeat("X", 40) + strings.Repeat("O", 24)
	if out := runScript(t, nil, "board "+full+" X"); !strings.Contains(out, "Game over: black wins 40-24 (margin 16).") {
		t.Errorf("full board: %s", out)
	}
}

// TestTimeBothForms: "time 5" and "time 5s" (and the --time flags, which
// share ParseTime) both work.
func TestTimeBothForms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
	}{{"5", 5 * time.Second}, {"5s", 5 * time.Second}, {"2.5", 2500 * time.Millisecond},
		{"500ms", 500 * time.Millisecond}, {"1m30s", 90 * time.Second}, {"0", 0}, {"0s", 0}} {
		if got, err := play.ParseTime(c.in); err != nil || got != c.want {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "x", "-1", "-1s", "NaN", "5 s", "1e7"} {
		if _, err := play.ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
	out := runScript(t, nil, "time 5", "time 7s", "time 250ms", "time five")
	for _, want := range []string{"time per move 5 s", "time per move 7 s", "time per move 0.25 s", `error: time: "five": not a time`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in %s", want, out)
		}
	}
}

// TestScriptExitStatus: a script with a failed command reports it, so that
// "outflank shell < script" exits non-zero; a clean one does not.
func TestScriptExitStatus(t *testing.T) {
	if _, err := runScriptErr(t, files{}, "a1", "load /nonexistent"); !errors.Is(err, ErrScript) {
		t.Errorf("failed script returned %v", err)
	}
	if _, err := runScriptErr(t, nil, "f5", "undo", "quit", "a1"); err != nil {
		t.Errorf("clean script (ended by quit) returned %v", err)
	}
}

// TestHelpFits: "help" fits terminals 80 and 100 columns wide, and every
// description starts in the same column, whatever the synopsis' length.
func TestHelpFits(t *testing.T) {
	for _, width := range []int{80, 100} {
		var out strings.Builder
		Run(strings.NewReader("help\nhelp new\n"), &out, &out,
			func(search.Options) play.Searcher { return &playtest.Greedy{} }, Config{Width: width})
		for _, l := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
			if len(l) > width {
				t.Errorf("width %d: line of %d: %q", width, len(l), l)
			}
			if strings.HasPrefix(l, "  ") && l[2] != ' ' {
				// A synopsis line: either alone, or its description at helpIndent.
				if i := strings.Index(l[2:], "  "); i >= 0 {
					j := 2 + i
					for j < len(l) && l[j] == ' ' {
						j++
					}
					if j != helpIndent {
						t.Errorf("width %d: description at column %d: %q", width, j, l)
					}
				}
			}
		}
		if !strings.Contains(out.String(), "  new [handicap N [black|white]]\n"+strings.Repeat(" ", helpIndent)+"start a new game") {
			t.Errorf("long synopsis not on a line of its own:\n%s", out.String())
		}
	}
}

// TestSaveFullRecord: "save x.ggf" writes what NBoard and GGS write:
// place, date, players, result, clock, type.
func TestSaveFullRecord(t *testing.T) {
	fs := files{}
	runScript(t, fs, "time 10", "engine white", "f5", "save game.ggf", "engine none",
		"board XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X", "h8", "save end.ggf")
	g, err := bitboard.ParseGGF(fs["game.ggf"])
	if err != nil {
		t.Fatalf("%v: %q", err, fs["game.ggf"])
	}
	for key, want := range map[string]string{"PB": "human", "PW": "Outflank", "RE": "?", "TI": "0:00/0:10", "TY": "8", "PC": "Outflank shell"} {
		if v, _ := g.Prop(key); v != want {
			t.Errorf("%s[%s], want %s[%s] in %s", key, v, key, want, fs["game.ggf"])
		}
	}
	if dt, _ := g.Prop("DT"); !strings.HasSuffix(dt, " GMT") || len(dt) != len("2014-02-21 20:52:27 GMT") {
		t.Errorf("DT[%s]", dt)
	}
	if len(g.Moves) != 2 {
		t.Errorf("moves: %s", fs["game.ggf"])
	}
	end, err := bitboard.ParseGGF(fs["end.ggf"])
	if err != nil {
		t.Fatal(err)
	}
	if re, _ := end.Prop("RE"); re != "+64.000" {
		t.Errorf("finished game RE[%s], want +64.000", re)
	}
}

// TestSolveStartPosition: "solve" at the start says what it will do, shows
// each depth, and stops at the shell's time setting instead of running on
// for ever (a piped script used to hang).
func TestSolveStartPosition(t *testing.T) {
	var out strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- Run(strings.NewReader("time 0.2\nsolve\n"), &lockedWriter{&out}, &lockedWriter{&out},
			func(search.Options) play.Searcher { return &playtest.Slow{Tick: 20 * time.Millisecond} }, Config{})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("solve at the start position did not end")
	}
	o := out.String()
	for _, want := range []string{
		`60 empties: an exact solve would take about `, ` years on one thread; searching for 200ms instead (the "time" setting; "time 0" solves anyway).`,
		"depth 1,", "depth 2,", `Not solved within 200ms ("time 0" removes the limit): best so far`} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in %s", want, o)
		}
	}
	// Within reach, the same time rule and announcement.
	o = runScript(t, nil, "board XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO- X", "time 3", "solve")
	if !strings.Contains(o, `Solving 1 empties exactly, at most 3s (the "time" setting).`) || !strings.Contains(o, "Solved: black wins by 64") {
		t.Errorf("solve within reach: %s", o)
	}
}

// TestErrorWording: no repeated prefixes, moves numbered as moves of the
// game, lines of play in lower case with "pass".
func TestErrorWording(t *testing.T) {
	out := runScript(t, nil, "f5 d6", "a1", "board XX")
	if !strings.Contains(out, "error: play: move 3 (a1) not played") {
		t.Errorf("move number not the game's: %s", out)
	}
	if strings.Contains(out, "board: board:") || !strings.Contains(out, "error: board: ") {
		t.Errorf("repeated prefix: %s", out)
	}
	if got := line([]bitboard.Square{37, bitboard.PassMove, 0}); got != "f5 pass a1" {
		t.Errorf("line = %q", got)
	}
}

// FuzzShellScript feeds the shell whole scripts (lines joined by newlines,
// a few engine commands included) in one burst, to an engine whose every
// search takes a few milliseconds, so that the script's later lines arrive
// while a search runs and wait their turn; it fails on a panic or a hang.
// The seed corpus runs in every "go test" (short included); longer runs:
//
//	go test -run NONE -fuzz FuzzShellScript -fuzztime 10m ./cmd/outflank/internal/shell
func FuzzShellScript(f *testing.F) {
	for _, s := range []string{
		"f5\nd6\nundo 2\nredo\nhint 2\ngo\nsolve wld",
		"board " + bitboard.Start().String() + "\nsave a.ggf\nload a.ggf\ngame",
		"new handicap 4 white\nengine black\nlevel 1\nsave x.txt",
		"time 0.01\nsolve\ntime 5s\nstatus\nhelp\nhelp new",
		"\x1b[A\x1b[B\nplay f5 PA d6\npass\n# comment\n\n\tquit\nf5",
		"load a.ggf\nboard XXXXXXXXXX" + strings.Repeat("-", 54) + " X\ngo\nundo 99",
	} {
		f.Add(s)
	}
	f.Fuzz(stormScript)
}

// stormScript runs one script of FuzzShellScript and TestStorm.
func stormScript(t *testing.T, script string) {
	fs := files{"a.ggf": "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)"}
	cfg := Config{Level: 1, Time: 50 * time.Millisecond,
		ReadFile: func(name string) ([]byte, error) {
			if s, ok := fs[name]; ok {
				return []byte(s), nil
			}
			return nil, errors.New("no such file")
		},
		WriteFile: func(name string, data []byte) error { fs[name] = string(data); return nil },
	}
	done := make(chan error, 1)
	go func() {
		done <- Run(strings.NewReader(script), io.Discard, io.Discard,
			func(search.Options) play.Searcher { return briefSearch{} }, cfg)
	}()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, ErrScript) {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("shell hung on %q", script)
	}
}

// stormLines is how many lines TestStorm sends. The long run:
//
//	go test -run TestStorm ./cmd/outflank/internal/shell -storm-lines 3500000
var stormLines = flag.Int("storm-lines", 3000, "lines TestStorm sends")

// TestStorm sends sessions of random shell script lines, good and bad, in bursts
// during searches (see FuzzShellScript), until stormLines lines have gone.
func TestStorm(t *testing.T) {
	words := []string{"f5", "d6", "c3", "undo", "undo 2", "redo", "hint 2", "go", "solve wld", "solve", "pass", "play f5d6c3",
		"board " + bitboard.Start().String(), "save a.ggf", "load a.ggf", "load none.ggf", "game", "new", "new handicap 4 white",
		"level 1", "level 60", "time 0", "time 0.01", "time 5s", "status", "help", "help new", "# comment", "", "\tquit", "bogus", "undo 99"}
	before := playtest.Memory()
	sent, sessions := playtest.Storm(*stormLines, words, func(script string) int {
		stormScript(t, script)
		return 0
	})
	t.Logf("%d lines in %d sessions: no panic, no hang; %s before, %s after", sent, sessions, before, playtest.Memory())
}

// briefSearch searches for at most 3 ms whatever its limits say (a script
// may set "time 0", no limit), reporting a depth each millisecond.
type briefSearch struct{}

func (briefSearch) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Millisecond)
	defer cancel()
	return (&playtest.Slow{Tick: time.Millisecond}).Search(ctx, pos, lim, report)
}

func (briefSearch) Clear() {}

// TestWelcomeThreads: the welcome line says how many threads the search
// uses, so a user sees whether the engine has every core.
func TestWelcomeThreads(t *testing.T) {
	for _, c := range []struct {
		threads int
		want    string
	}{{1, "(1 thread)"}, {6, "(6 threads)"}} {
		var out strings.Builder
		err := Run(strings.NewReader("quit\n"), &out, &out, func(search.Options) play.Searcher { return &playtest.Greedy{} },
			Config{Interactive: true, Level: 1, Options: search.Options{Threads: c.threads}})
		if err != nil || !strings.Contains(strings.SplitN(out.String(), "\n", 2)[0], c.want) {
			t.Errorf("threads %d: welcome without %q: %v %q", c.threads, c.want, err, out.String())
		}
	}
}

// TestFirstMoveAnswered: at a terminal the engine answers the user's first
// move with the other colour, and says how to change that; "engine" before
// it keeps the user's choice, and a script keeps the engine out of play.
func TestFirstMoveAnswered(t *testing.T) {
	run := func(interactive bool, script string) string {
		var out strings.Builder
		Run(strings.NewReader(script), &out, &out, func(search.Options) play.Searcher { return &playtest.Greedy{} },
			Config{Interactive: interactive, Level: 1})
		return out.String()
	}
	o := run(true, "f5\nquit\n")
	for _, want := range []string{"\"engine none\": you play both sides", "You play black, Outflank plays white", "Outflank plays f4 for white"} {
		if !strings.Contains(o, want) {
			t.Errorf("at a terminal, no %q in:\n%s", want, o)
		}
	}
	if o := run(true, "engine none\nf5\nquit\n"); strings.Contains(o, "Outflank plays f4") {
		t.Errorf("after \"engine none\" the engine still answered:\n%s", o)
	}
	f5, _ := bitboard.ParseSquare("f5")
	if o := run(true, "board "+bitboard.Start().Play(f5).String()+"\nf4\nquit\n"); !strings.Contains(o, "You play white, Outflank plays black") {
		t.Errorf("white's first move on a set-up board:\n%s", o)
	}
	if o := run(false, "f5\n"); strings.Contains(o, "Outflank plays") {
		t.Errorf("a script's move was answered:\n%s", o)
	}
}

// TestSolveStatusLine: at a terminal a long solve shows its progress on
// one line that each depth replaces, within the screen's width, and
// erases it before the result; a script gets a line a depth.
func TestSolveStatusLine(t *testing.T) {
	out := runEditor(t, &playtest.Slow{Tick: 20 * time.Millisecond}, "time 0.3\r", "solve\r")
	i := strings.Index(out, "searching for 300ms instead")
	j := strings.Index(out, "Not solved within 300ms")
	if i < 0 || j < i {
		t.Fatalf("no warning or no result: %q", out)
	}
	during := out[i:j]
	if strings.Count(during, "\r\n") != 1 || strings.Count(during, "\x1b[K") < 3 || !strings.Contains(during, "depth 2,") {
		t.Errorf("progress not on one updating line: %q", during)
	}
	for _, l := range strings.Split(during, "\r") {
		if strings.HasSuffix(l, "\x1b[K") && len(l) > 80+len("\x1b[K") {
			t.Errorf("status line wider than the screen: %q", l)
		}
	}
}

// TestAnalyze: analyze lists each move's loss against the best move, exact
// in the endgame, and the worst mistakes: in FFO #1 (best g8 +18), a2 is
// worth +6 (the file's move scores), a loss of 12.
func TestAnalyze(t *testing.T) {
	const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--X"
	var out strings.Builder
	err := Run(strings.NewReader("board "+ffo1+"\na2\ngo\nanalyze\n"), &out, &out,
		func(o search.Options) play.Searcher { return search.New(search.Options{HashMB: 4}) }, Config{Level: 8})
	o := out.String()
	for _, want := range []string{
		"Each move's value for its player against the best move's (depth 8, exact from 16 empties):",
		"  1. black a2    +6  exact          loses 12 (best g8 +18)",
		"Worst mistakes:\n  move 1, black a2: loses 12 (best g8)\n",
	} {
		if !strings.Contains(o, want) {
			t.Errorf("no %q in:\n%s", want, o)
		}
	}
	if !strings.Contains(o, "  2. white ") || strings.Contains(o, "move 2, white") {
		t.Errorf("the engine's exact reply is not listed, or listed as a mistake:\n%s", o)
	}
	if err != nil {
		t.Error(err)
	}
}

// TestSteadyScore: where a midgame score has the iteration before it, the
// shell shows the odd-even steady value beside it; an exact score stands
// alone.
func TestSteadyScore(t *testing.T) {
	mid := search.Info{Depth: 8, Selectivity: 73, Score: -2, Before: -1, BeforeDepth: 7}
	if got := score(mid); got != "-2 (steady -1.5 with depth 7)" {
		t.Errorf("midgame: %q", got)
	}
	if got := score(search.Info{Depth: 20, Selectivity: 100, Exact: true, Score: 4, Before: 2, BeforeDepth: 19}); got != "+4" {
		t.Errorf("exact: %q", got)
	}
	if got := score(search.Info{Depth: 1, Score: 3}); got != "+3" {
		t.Errorf("first iteration: %q", got)
	}
}
