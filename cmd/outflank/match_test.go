package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

// asMainEnv makes the test binary behave as outflank itself, so that
// "outflank match" in a test can start "self" engines: they run
// os.Executable() (this test binary) with "nboard" and its flags.
const asMainEnv = "OUTFLANK_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runMatchCmd(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	t.Setenv(asMainEnv, "1")
	var out, errb bytes.Buffer
	err = run(append([]string{"match"}, args...), &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), err
}

func TestMatchCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("f5d6\nf5f5\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"self"}, "want two engines, got 1"},
		{[]string{"self", "edax"}, `engine "edax": want self[:OPTIONS] or nboard[,OPTIONS]:COMMAND`},
		{[]string{"self:depth=99", "self"}, "depth=\"99\": want a number from 1 to 60"},
		{[]string{"self", "self", "--depth", "0", "--time", "soon"}, `--time "soon"`},
		{[]string{"self", "self", "--depth", "77"}, "--depth 77"},
		{[]string{"self", "self", "--concurrency", "0"}, "--concurrency 0"},
		{[]string{"self", "self", "--games", "0"}, "--games 0: want 1 or more"},
		{[]string{"self", "self", "--sprt", "5"}, `--sprt "5": want ELO0,ELO1`},
		{[]string{"self", "self", "--start", "x.obf", "--openings", "start"}, "not both"},
		{[]string{"self", "self", "--openings", filepath.Join(dir, "none.txt")}, "none.txt: no such file"},
		{[]string{"self", "self", "--openings", bad}, "bad.txt line 2: move 2 (f5) illegal"},
		{[]string{"nboard:" + filepath.Join(dir, "no-engine"), "self", "--openings", "start"}, "engine A (nboard:" + filepath.Join(dir, "no-engine") + "): start: "},
	} {
		_, _, err := runMatchCmd(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("match %q: error %v; want %q", c.args, err, c.want)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("match %q: error is not one line: %q", c.args, err)
		}
	}
}

// Two configurations of the engine itself play a few openings, both
// colours, through "outflank nboard" subprocesses.
func TestMatchSelfVsSelf(t *testing.T) {
	if findCommand("nboard") == nil {
		t.Skip("no nboard command in this build")
	}
	dir := t.TempDir()
	ops := filepath.Join(dir, "ops.txt")
	os.WriteFile(ops, []byte("f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\nf5f6d3c5d6c7b5e3\n"), 0o644)
	ggf := filepath.Join(dir, "games.ggf")
	stdout, stderr, err := runMatchCmd(t, "self:depth=1,name=d1", "self:depth=3,name=d3", "--openings", ops,
		"--concurrency", "2", "--json", "--games-out", ggf, "--seed", "3")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// No engine process is left (Linux says so in /proc).
	kids, _ := filepath.Glob("/proc/self/task/*/children")
	for _, k := range kids {
		if b, _ := os.ReadFile(k); len(strings.TrimSpace(string(b))) > 0 {
			t.Errorf("processes left after the match: %s", b)
		}
	}
	var rep struct {
		Engines  [2]struct{ Name string }
		Games    int
		Forfeits [2]int
		Total    struct{ Wins, Draws, Losses int }
		Score    *float64
		Results  []struct{ Black string }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, stdout)
	}
	if strings.Count(strings.TrimSpace(stdout), "\n") != 0 {
		t.Errorf("--json is JSON Lines: the report on one line, got:\n%s", stdout)
	}
	if rep.Engines[0].Name != "Outflank" || rep.Engines[1].Name != "Outflank" {
		t.Errorf("engine names %+v; want Outflank (set myname, one name whatever the depth)", rep.Engines)
	}
	if rep.Games != 6 || rep.Forfeits != [2]int{} || rep.Total.Wins+rep.Total.Draws+rep.Total.Losses != 6 || rep.Score == nil {
		t.Fatalf("report %+v\n%s", rep, stderr)
	}
	f, err := os.Open(ggf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); n++ {
		g, err := bitboard.ParseGGF(sc.Text())
		if err != nil {
			t.Fatalf("record %d: %v", n+1, err)
		}
		if !g.Current().GameOver() {
			t.Errorf("record %d does not end the game", n+1)
		}
		pb, _ := g.Prop("PB")
		if want := []string{"d1", "d3"}[n%2]; pb != want {
			t.Errorf("record %d: PB[%s], want %s", n+1, pb, want)
		}
	}
	if n != 6 {
		t.Errorf("%d GGF records; want 6", n)
	}
	// Not at a terminal, the progress is a line after every game.
	for g := 1; g <= 6; g++ {
		if !strings.Contains(stderr, fmt.Sprintf("%d/6 games", g)) {
			t.Errorf("no progress line after game %d:\n%s", g, stderr)
		}
	}

	// The file is not overwritten by another match; --resume goes on with
	// it: here after a kill that cut the fifth record short, so that game
	// and the sixth are played again, and the file ends with whole records.
	args := []string{"self:depth=1,name=d1", "self:depth=3,name=d3", "--openings", ops, "--concurrency", "1", "--quiet", "--seed", "3", "--games-out", ggf}
	if _, _, err := runMatchCmd(t, args...); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("a second match into the same file: err %v; want a refusal naming --resume", err)
	}
	data, _ := os.ReadFile(ggf)
	lines := strings.SplitAfter(string(data), "\n")
	os.WriteFile(ggf, []byte(strings.Join(lines[:4], "")+lines[4][:len(lines[4])/2]), 0o644)
	stdout, stderr, err = runMatchCmd(t, append(args, "--resume", "--json")...)
	if err != nil {
		t.Fatalf("--resume: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "4 of the 6 games played already") {
		t.Errorf("--resume does not say what it found:\n%s", stderr)
	}
	var again struct{ Games int }
	if err := json.Unmarshal([]byte(stdout), &again); err != nil || again.Games != 6 {
		t.Errorf("resumed report: %v, %s", err, stdout)
	}
	after, _ := os.ReadFile(ggf)
	if got := strings.SplitAfter(string(after), "\n"); len(got) != 7 || got[6] != "" || strings.Join(got[:4], "") != strings.Join(lines[:4], "") {
		t.Errorf("file after --resume: %d lines, want the 4 whole records kept and 2 more:\n%s", len(got)-1, after)
	}
	// A file of another match is refused with the record that differs.
	if _, _, err := runMatchCmd(t, "self:depth=1,name=d1", "self:depth=2,name=d2", "--openings", ops, "--seed", "3", "--games-out", ggf, "--resume"); err == nil ||
		!strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), "d2") {
		t.Errorf("--resume of another match's games: err %v", err)
	}
}
