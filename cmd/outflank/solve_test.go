package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/solve"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(args, &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), err
}

func TestSolveFile(t *testing.T) {
	// The first three FFO positions, the second with a wrong listed score.
	src, err := os.ReadFile("../../testdata/ffo/fforum-1-19.obf")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(src), "\n", 4)[:3]
	dir := t.TempDir()
	good := filepath.Join(dir, "good.obf")
	os.WriteFile(good, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out, _, err := runCmd(t, "solve", good)
	if err != nil {
		t.Fatalf("solve: %v\n%s", err, out)
	}
	if !strings.Contains(out, "g8   +18") || !strings.Contains(out, "total: 3 positions, 0 wrong") {
		t.Fatalf("unexpected output:\n%s", out)
	}

	bad := filepath.Join(dir, "bad.obf")
	lines[1] = strings.Replace(lines[1], "A4:+10", "A4:+12", 1)
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out, _, err = runCmd(t, "solve", bad)
	var q cli.QuietError
	if !errors.As(err, &q) || !strings.Contains(out, "WRONG, want +12 by a4") || !strings.Contains(out, "1 wrong") {
		t.Fatalf("wrong answer not flagged (err %v):\n%s", err, out)
	}

	// JSON and WLD.
	out, _, err = runCmd(t, "solve", "--json", "--wld", good)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 4 {
		t.Fatalf("want 3 objects and a total, got:\n%s", out)
	}
	var r solve.Result
	if err := json.Unmarshal([]byte(rows[0]), &r); err != nil || r.Score != 1 || !r.OK || !r.WLD {
		t.Fatalf("first JSON row %+v (%v)", r, err)
	}
}

func TestSolveBoardArgument(t *testing.T) {
	// FFO #1 given on the command line (board and side as two arguments;
	// "--" ends the flags, since the board starts with "-").
	out, _, err := runCmd(t, "solve", "--hash", "4", "--",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--", "X")
	if err != nil || !strings.Contains(out, "g8   +18") {
		t.Fatalf("err %v, output:\n%s", err, out)
	}
}

func TestSolveBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"solve"},
		{"solve", "no-such-file.obf"},
		{"solve", "--hash", "0", "x"},
		{"solve", strings.Repeat("X", 64) + " Q"},
		{"bench", "--positions", "30-41"},
		{"bench", "--positions", "x"},
	} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%q: no error", args)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: multi-line error %q", args, err)
		}
	}
	// A short board typed on the command line is blamed as a board, not
	// looked for as a file.
	if _, _, err := runCmd(t, "solve", "XXXX"); err == nil || err.Error() != `solve: "XXXX" is neither a file nor a board: only 4 of 64 squares` {
		t.Errorf("solve XXXX: %v", err)
	}
}

func TestBenchJSON(t *testing.T) {
	out, _, err := runCmd(t, "bench", "--json", "--wld", "--hash", "8", "--positions", "40")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 3 || !strings.Contains(rows[0], `"machine":"cpu: `) || !strings.Contains(rows[1], `"n":40`) {
		t.Fatalf("bench --json output:\n%s", out)
	}
	// Times to the microsecond, rates whole: no float noise.
	if noise := regexp.MustCompile(`[0-9]\.[0-9]{7,}`).FindString(out); noise != "" {
		t.Errorf("bench --json: float noise %s in\n%s", noise, out)
	}
}

func TestSolveFlagsAfterBoard(t *testing.T) {
	// Issue: `solve -- "<board>" X --wld` took --wld for part of the board.
	board := "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"
	for _, args := range [][]string{
		{"solve", "--", board, "X", "--wld", "--hash", "4"},
		{"solve", board, "X", "--wld"},
		{"solve", board + " X", "--wld"},
	} {
		out, _, err := runCmd(t, args...)
		if err != nil || !strings.Contains(out, "+1") || !strings.Contains(out, "total: 1 positions, 0 wrong") {
			t.Errorf("%q: err %v, output:\n%s", args, err, out)
		}
	}
}

func TestSolveNumbersFromFileName(t *testing.T) {
	src, err := os.ReadFile("../../testdata/ffo/fforum-1-19.obf")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(string(src), "\n", 3)[:2]
	dir := t.TempDir()
	for name, want := range map[string]string{"ffo-7-8.obf": "\n  7 ", "other.obf": "\n  1 ", "ffo-7-9.obf": "\n  1 "} {
		f := filepath.Join(dir, name)
		os.WriteFile(f, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
		out, _, err := runCmd(t, "solve", f)
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("%s: want a row starting %q; err %v, output:\n%s", name, want, err, out)
		}
	}
}

func TestSolveRejectsUnreachableBoards(t *testing.T) {
	empty := strings.Repeat("-", 64)
	holed := []byte(strings.Repeat("X", 64))
	holed[27] = '-' // d4
	for _, b := range []string{empty, "X" + empty[1:], string(holed)} {
		_, _, err := runCmd(t, "solve", "--", b, "O")
		if err == nil || !strings.Contains(err.Error(), "board has") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: want a one-line 'board has' error, got %v", b, err)
		}
	}
}

func TestSolveBeyondReachSaysWhatItDoes(t *testing.T) {
	start := bitboard.Start().String()
	out, errOut, err := runCmd(t, "solve", start, "--time", "0.3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(errOut, "#1: 60 empties: an exact solve would take about") || !strings.Contains(errOut, "#1  depth 1@") {
		t.Errorf("stderr:\n%s", errOut)
	}
	if !strings.Contains(out, "not exact: depth") || !strings.Contains(out, "0 wrong") {
		t.Errorf("stdout:\n%s", out)
	}
}
