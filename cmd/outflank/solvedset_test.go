package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolvedSetErrors: bad command lines and files get one line naming
// what is wrong, and no output.
func TestSolvedSetErrors(t *testing.T) {
	dir := t.TempDir()
	notSet := filepath.Join(dir, "x.obf")
	if err := os.WriteFile(notSet, []byte("% not a set\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"solvedset"}, "solvedset: want build, merge or score"},
		{[]string{"solvedset", "nope"}, "solvedset: want build, merge or score"},
		{[]string{"solvedset", "build", "out.obf"}, "solvedset build: --games FILE"},
		{[]string{"solvedset", "build"}, "solvedset build: want one output file"},
		{[]string{"solvedset", "build", "o.obf", "--games", "g.sp.gz", "--counts", "50:1"}, "solvedset build: --counts \"50:1\""},
		{[]string{"solvedset", "build", "o.obf", "--games", "g.sp.gz", "--shard", "3/2"}, "solvedset build: --shard \"3/2\""},
		{[]string{"solvedset", "build", filepath.Join(dir, "o.obf"), "--games", filepath.Join(dir, "none.sp.gz")}, "none.sp.gz: no such file"},
		{[]string{"solvedset", "merge", "o.obf"}, "solvedset merge: want OUT and at least one shard file"},
		{[]string{"solvedset", "merge", filepath.Join(dir, "o.obf"), notSet}, "x.obf line 1: not a solved set file"},
		{[]string{"solvedset", "score", notSet}, "solvedset score: want a set file and at least one engine"},
		{[]string{"solvedset", "score", notSet, "self", "--time", "-1"}, "solvedset score: --time \"-1\""},
		{[]string{"solvedset", "score", notSet, "self", "--bands", "9-3"}, "solvedset score: --bands \"9-3\""},
		{[]string{"solvedset", "score", notSet, "bogus"}, "solvedset score: engine \"bogus\""},
		{[]string{"solvedset", "score", notSet, "self"}, "x.obf line 1: not a solved set file"},
	} {
		out, _, err := runWithInput(t, "", c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || out != "" {
			t.Errorf("%v: %v (output %q), want one line with %q", c.args, err, out, c.want)
		}
	}
}
