package main

import (
	"strings"
	"testing"
)

// TestBadValueMessages: a value a flag or argument cannot take is named
// with what is wanted, in the words the other flags use, not the parser's.
func TestBadValueMessages(t *testing.T) {
	board := "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gtp", "--depth", "NaN"}, "gtp: --depth NaN: want 1 to 60"},
		{[]string{"nboard", "--depth", "1.5"}, "nboard: --depth 1.5: want 1 to 60"},
		{[]string{"shell", "--hash", "lots"}, "shell: --hash lots: want 1 to 65536"},
		{[]string{"solve", "--time", "-1", "--", board, "X"}, "solve: --time \"-1\": want seconds or a duration (30, 1m30s), or 0 for no limit"},
		{[]string{"solve", "garbage"}, "solve: \"garbage\" is neither a file nor a board"},
	} {
		_, _, err := runWithInput(t, "", c.args...)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "strconv") {
			t.Errorf("%q: error %v, want %q", c.args, err, c.want)
		}
	}
	// 0 is no limit, in either form.
	for _, v := range []string{"0", "0s"} {
		if _, _, err := runWithInput(t, "", "solve", "--time", v, "--", board, "X"); err != nil {
			t.Errorf("solve --time %s: %v", v, err)
		}
	}
}

// TestThreadsDefaultHelp: a flag that defaults to every core says so once,
// the same on every machine, not "(default: every core) (default 2)".
func TestThreadsDefaultHelp(t *testing.T) {
	for _, c := range [][2]string{{"shell", "threads"}, {"nboard", "threads"}, {"solve", "threads"}, {"match", "concurrency"}, {"selfplay", "workers"}} {
		out, _, err := runWithInput(t, "", c[0], "--help")
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(out, "--"+c[1]+" int")
		if i < 0 {
			t.Fatalf("%s --help has no --%s:\n%s", c[0], c[1], out)
		}
		usage := out[i:]
		if j := strings.Index(usage[2:], "\n      -"); j >= 0 {
			usage = usage[:j+2] // up to the next flag
		}
		if strings.Count(usage, "default") != 1 || !strings.Contains(usage, "(default every core)") {
			t.Errorf("%s --%s help: %q", c[0], c[1], usage)
		}
	}
}
