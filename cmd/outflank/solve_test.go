package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
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
	if !strings.Contains(out, "G8   +18") || !strings.Contains(out, "total: 3 positions, 0 wrong") {
		t.Fatalf("unexpected output:\n%s", out)
	}

	bad := filepath.Join(dir, "bad.obf")
	lines[1] = strings.Replace(lines[1], "A4:+10", "A4:+12", 1)
	os.WriteFile(bad, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out, _, err = runCmd(t, "solve", bad)
	var q quietError
	if !errors.As(err, &q) || !strings.Contains(out, "WRONG, want +12 by A4") || !strings.Contains(out, "1 wrong") {
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
	var r solveResult
	if err := json.Unmarshal([]byte(rows[0]), &r); err != nil || r.Score != 1 || !r.OK || !r.WLD {
		t.Fatalf("first JSON row %+v (%v)", r, err)
	}
}

func TestSolveBoardArgument(t *testing.T) {
	// FFO #1 given on the command line (board and side as two arguments;
	// "--" ends the flags, since the board starts with "-").
	out, _, err := runCmd(t, "solve", "--hash", "4", "--",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--", "X")
	if err != nil || !strings.Contains(out, "G8   +18") {
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
}
