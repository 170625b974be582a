package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
)

// runCmd runs outflank in process with stdin text and returns stdout,
// stderr and the error run returned.
func runWithInput(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut strings.Builder
	err = run(args, &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut})
	return out.String(), errOut.String(), err
}

// TestHelpIsCommandHelp: "outflank help X" prints exactly what
// "outflank X --help" prints, on stdout, for every command.
func TestHelpIsCommandHelp(t *testing.T) {
	for _, c := range commands {
		a, aErr, err1 := runWithInput(t, "", "help", c.Name)
		b, bErr, err2 := runWithInput(t, "", c.Name, "--help")
		if err1 != nil || err2 != nil || aErr != "" || bErr != "" {
			t.Errorf("%s: errors %v %v, stderr %q %q", c.Name, err1, err2, aErr, bErr)
		}
		if a != b || !strings.HasPrefix(a, "Usage: outflank "+c.Name) {
			t.Errorf("help %s:\n%s\n%s --help:\n%s", c.Name, a, c.Name, b)
		}
	}
	list, _, _ := runWithInput(t, "", "help")
	col := -1 // every summary starts in one column
	for _, l := range strings.Split(list, "\n") {
		if len(l) > cli.HelpWidth {
			t.Errorf("help: line of %d columns: %q", len(l), l)
		}
		if !strings.HasPrefix(l, "  ") {
			continue
		}
		c := len(l) - len(strings.TrimLeft(l[2:], " ")) // summary of a wrapped line
		if i := strings.Index(l[2:], " "); i > 0 {
			c = 2 + i + len(l[2+i:]) - len(strings.TrimLeft(l[2+i:], " "))
		}
		if col < 0 {
			col = c
		} else if c != col {
			t.Errorf("help: summary at column %d, not %d: %q", c, col, l)
		}
	}
	if out, _, err := runWithInput(t, "", "help", "--help"); err != nil || !strings.HasPrefix(out, "Usage: outflank help") {
		t.Errorf("help --help: %v %q", err, out)
	}
	if _, _, err := runWithInput(t, "", "help", "nosuch"); err == nil || !strings.Contains(err.Error(), `unknown command "nosuch"`) {
		t.Errorf("help nosuch: %v", err)
	}
}

// TestVersion: "outflank version" and "--version" print the build's
// version, the one GTP's version command answers; the version names the
// release, the commit and its date once each, whatever the build.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, _, err := runWithInput(t, "", args...)
		if err != nil || !strings.HasPrefix(out, "outflank "+cli.Version()) || !strings.Contains(out, ", go") {
			t.Errorf("%v: %v %q", args, err, out)
		}
	}
	out, _, err := runWithInput(t, "1 version\nquit\n", "gtp", "--no-book", "--threads", "1")
	if err != nil || !strings.Contains(out, "=1 "+cli.Version()+", 1 thread\n") {
		t.Errorf("gtp version: %v %q", err, out)
	}

}

// TestEvalCheckNeedsWork: evalcheck with nothing to measure says what it
// needs instead of printing headers and succeeding.
func TestEvalCheckNeedsWork(t *testing.T) {
	out, _, err := runWithInput(t, "", "evalcheck")
	if err == nil || !strings.Contains(err.Error(), "--ffo") || !strings.Contains(err.Error(), "--games") || out != "" {
		t.Errorf("evalcheck: %v, output %q", err, out)
	}
}

// TestPerftArguments: bad depths and ranges are named, not mistaken for
// flags or silently empty.
func TestPerftArguments(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"perft", "-3"}, `perft: depth "-3" is not a number from 1 to 60`},
		{[]string{"perft", "30", "--from", "31"}, "perft: --from 31: want a depth from 1 to DEPTH (30)"},
		{[]string{"perft", "3", "--board", "XX"}, "perft: --board: only 2 of 64 squares"},
		// The boards solve refuses, which perft counted.
		{[]string{"perft", "3", "--board", strings.Repeat("-", 64) + " X"},
			"perft: --board: board has 0 discs: a game position has at least the 4 of the start"},
		{[]string{"perft", "3", "--board", "XXXX" + strings.Repeat("-", 60) + " X"},
			"perft: --board: board has an empty centre square (d4, e4, d5, e5): no game can reach it"},
	} {
		_, _, err := runWithInput(t, "", c.args...)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
	out, _, err := runWithInput(t, "", "perft", "3", "--from", "3")
	if err != nil || !strings.Contains(out, "    3                 56") || strings.Contains(out, "    2                 12") {
		t.Errorf("perft 3 --from 3: %v\n%s", err, out)
	}
}

// TestShellCommandLine: --time takes seconds with or without a unit, and a
// failed script command sets the exit status.
func TestShellCommandLine(t *testing.T) {
	for _, v := range []string{"5", "5s"} {
		out, _, err := runWithInput(t, "status\n", "shell", "--no-book", "--time", v)
		if err != nil || !strings.Contains(out, "time per move 5 s") {
			t.Errorf("--time %s: %v %q", v, err, out)
		}
	}
	_, errOut, err := runWithInput(t, "a1\nload /nonexistent\n", "shell", "--no-book")
	if cli.ExitCode(err) != 1 || !strings.Contains(errOut, "error: load:") {
		t.Errorf("failed script: %v (exit %d), %q", err, cli.ExitCode(err), errOut)
	}
	if _, _, err := runWithInput(t, "f5\n", "shell", "--no-book"); err != nil {
		t.Errorf("clean script: %v", err)
	}
}

// TestThreadsDefault: where a person plays (shell, web, NBoard, GTP) the
// search uses every core unless --threads says otherwise, and the front
// ends say how many threads they have.
func TestThreadsDefault(t *testing.T) {
	for _, cmd := range []string{"shell", "web", "nboard", "gtp"} {
		st, err := engine.DefaultSetup(cmd)
		if err != nil || st.Opts.Threads != runtime.NumCPU() {
			t.Errorf("%s: default threads %d (%v), want %d (every core)", cmd, st.Opts.Threads, err, runtime.NumCPU())
		}
	}
	all := fmt.Sprintf("%d thread", runtime.NumCPU())
	out, _, err := runWithInput(t, "1 version\nquit\n", "gtp", "--no-book")
	if err != nil || !strings.Contains(out, ", "+all) {
		t.Errorf("gtp version does not say %q: %v %q", all, err, out)
	}
	out, _, err = runWithInput(t, "nboard 2\nquit\n", "nboard", "--no-book")
	if err != nil || !strings.Contains(out, "status Outflank ready, "+all) {
		t.Errorf("nboard does not say %q: %v %q", all, err, out)
	}
	out, _, err = runWithInput(t, "nboard 2\nquit\n", "nboard", "--no-book", "--threads", "3")
	if err != nil || !strings.Contains(out, "status Outflank ready, 3 threads\n") {
		t.Errorf("nboard --threads 3: %v %q", err, out)
	}
}

// TestEvalCheckGames: evalcheck's games are played through the play layer
// to the end, colours swapped; the trained evaluation beats the
// placeholder at equal depth: at least 10 of 12 games (a single game at
// depth 2 can go either way, so one or two losses say nothing).
func TestEvalCheckGames(t *testing.T) {
	stdout, stderr, err := runCmd(t, "evalcheck", "--games", "12", "--depth", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	var wins, draws, losses int
	if i := strings.Index(stdout, "A wins "); i < 0 {
		t.Fatalf("no score line:\n%s", stdout)
	} else if _, err := fmt.Sscanf(stdout[i:], "A wins %d, draws %d, losses %d of 12", &wins, &draws, &losses); err != nil || wins+draws+losses != 12 || wins < 10 {
		t.Errorf("want 12 games, at least 10 won by the trained evaluation (%v):\n%s", err, stdout)
	}
}

// TestBenchMidgameDepthOrTime: --depth and --time together are refused,
// not one of them silently ignored.
func TestBenchMidgameDepthOrTime(t *testing.T) {
	_, _, err := runWithInput(t, "", "bench-midgame", "--depth", "8", "--time", "1s")
	if err == nil || !strings.Contains(err.Error(), "--depth and --time together") {
		t.Errorf("bench-midgame --depth 8 --time 1s: %v", err)
	}
}

// TestNBoardLearnError: a failed learn names the command once.
func TestNBoardLearnError(t *testing.T) {
	out, errOut, err := runWithInput(t, "nboard 2\nset game (;GM[Othello]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)\nlearn\nquit\n", "nboard", "--threads", "1")
	if err != nil || !strings.Contains(out, "status learn: the game is not over") || strings.Contains(out+errOut, "learn: learn:") {
		t.Errorf("learn of an unfinished game: %v\n%s%s", err, out, errOut)
	}
}

// TestSessionLog: --log records both directions of an nboard, gtp or shell
// session with the time of each line, appending session after session.
func TestSessionLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.log")
	for _, c := range []struct {
		args  []string
		input string
	}{
		{[]string{"gtp", "--no-book", "--threads", "1"}, "1 name\nplay b zz\nquit\n"},
		{[]string{"nboard", "--no-book", "--threads", "1"}, "nboard 2\nping 7\nquit\n"},
		{[]string{"shell", "--no-book", "--threads", "1"}, "f5\na1\n"},
	} {
		if _, _, err := runWithInput(t, c.input, append(c.args, "--log", path)...); err != nil && c.args[0] != "shell" {
			t.Fatalf("%s: %v", c.args[0], err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, want := range []string{
		"# outflank gtp ", "< 1 name", "> =1 Outflank", "> ? syntax error: bad square",
		"# outflank nboard ", "< ping 7", "> pong 7",
		"# outflank shell ", "< f5", "> White to move (last move f5)", "! error: play: move 2 (a1) not played",
	} {
		if !regexp.MustCompile(`(?m)^\d\d:\d\d:\d\d\.\d\d\d ` + regexp.QuoteMeta(want)).MatchString(log) {
			t.Errorf("no timed line %q in the log:\n%s", want, log)
		}
	}
	if _, _, err := runWithInput(t, "", "gtp", "--log", filepath.Join(path, "x")); err == nil || !strings.HasPrefix(err.Error(), "gtp: --log: ") {
		t.Errorf("a log that cannot be written: %v", err)
	}
}
