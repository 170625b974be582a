package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

func runPuzzleCmd(args ...string) (string, error) {
	var out, errb bytes.Buffer
	err := run(append([]string{"puzzle"}, args...), &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String() + errb.String(), err
}

// TestPuzzleRulebookSuite runs the whole rulebook suite through the
// command with the real exact solver.
func TestPuzzleRulebookSuite(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/rulebook/*.puz")
	if len(files) < 2 {
		t.Fatalf("rulebook files: %v", files)
	}
	out, err := runPuzzleCmd(append([]string{"--json"}, files...)...)
	if err != nil {
		t.Fatalf("puzzle: %v\n%s", err, out)
	}
	var res struct {
		Puzzles, Facts, Missed int
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Errorf("--json is JSON Lines: the results on one line, got:\n%.300s", out)
	}
	if res.Missed != 0 || res.Puzzles < 20 || res.Facts < 80 {
		t.Errorf("suite: %+v", res)
	}
	// -q keeps only the missed puzzles in the JSON too (none here); the
	// counts stay the whole suite's.
	out, err = runPuzzleCmd(append([]string{"-q", "--json"}, files[:1]...)...)
	var quiet struct {
		Files []struct {
			Puzzles []json.RawMessage
		}
		Puzzles int
	}
	if err != nil || json.Unmarshal([]byte(out), &quiet) != nil || len(quiet.Files) != 1 || len(quiet.Files[0].Puzzles) != 0 || quiet.Puzzles == 0 {
		t.Errorf("-q --json: %v, %s", err, out)
	}
	if !strings.Contains(out, `"puzzles":[]`) {
		t.Errorf("-q --json: no puzzle listed must read [], not null: %s", out)
	}
}

// A file with no puzzle is an error, as solve's file with no position is:
// nothing was checked, which is no pass.
func TestPuzzleEmptyFile(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.puz")
	os.WriteFile(empty, []byte("% nothing here\n"), 0o644)
	out, err := runPuzzleCmd(empty)
	if err == nil || !strings.Contains(err.Error(), "empty.puz: no puzzles") {
		t.Errorf("empty file: %v\n%s", err, out)
	}
}

func TestPuzzleCommandMisses(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.puz")
	os.WriteFile(bad, []byte("% 12 empties\nXXXXXO--XXXOO---XXXX----XXXOOO--XXOXOOXXXXOOXOXX-OOOOOXXOOOOOOOO X; id s\n ; moves g1 a7\n ; score +34\n"), 0o644)
	out, err := runPuzzleCmd(bad)
	if q, ok := err.(cli.QuietError); !ok || q.Code != 1 {
		t.Fatalf("misses: error %v, want exit status 1\n%s", err, out)
	}
	for _, want := range []string{"bad.puz:2 s: MISSED", "MISS    3 moves g1 a7", "expected: g1 a7", "got:      g1 f2 e3 f3 g4 a7",
		"ok      4 score +34", "1 puzzles, 3 facts, 1 missed"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	ill := filepath.Join(dir, "ill.puz")
	os.WriteFile(ill, []byte("---------------------------OX------XO--------------------------- X\n ; moves c4 d9\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{ill}, `ill.puz line 2: field "moves c4 d9": bad square "d9": row '9' is not 1-8`},
		{[]string{filepath.Join(dir, "none.puz")}, "no such file"},
		{[]string{"--reconstruct", ill}, "--reconstruct takes no FILE"},
	} {
		_, err := runPuzzleCmd(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("puzzle %q: error %v, want one line containing %q", c.args, err, c.want)
		}
	}
	// No file: the built-in rulebook suite (internal/puzzlerun tests it whole).
	if out, err := runPuzzleCmd("-q"); err != nil || !strings.Contains(out, ", 0 missed") {
		t.Errorf("puzzle with no file: %v\n%s", err, out)
	}
}

// TestPuzzleReconstruct regenerates testdata/rulebook/strategy.puz with the
// seed it was made with and checks that nothing changed. It takes about half
// a minute, so it runs only with OUTFLANK_RECONSTRUCT=1.
func TestPuzzleReconstruct(t *testing.T) {
	if os.Getenv("OUTFLANK_RECONSTRUCT") != "1" {
		t.Skip("set OUTFLANK_RECONSTRUCT=1 to regenerate the Strategy puzzles (about 30 s)")
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"puzzle", "--reconstruct", "--seed", "1"}, &cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	// The half minute shows its progress: a line a puzzle.
	for _, want := range []string{"reconstruct: puzzle 1 of 5 found after ", "reconstruct: puzzle 5 of 5 found after ", "reconstruct: diagrams 1 to 5..."} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("no %q in the progress:\n%s", want, stderr.String())
		}
	}
	want, err := os.ReadFile("../../testdata/rulebook/strategy.puz")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		got, exp := strings.Split(out, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(got), len(exp)) {
			if got[i] != exp[i] {
				t.Fatalf("line %d differs:\ngot:  %s\nwant: %s", i+1, got[i], exp[i])
			}
		}
		t.Fatalf("regenerated file has %d lines, committed %d", len(got), len(exp))
	}
}
