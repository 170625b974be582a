package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every reader of a text file names a bad line the same way, "FILE line N:
// what", and accepts a UTF-8 byte order mark before the first line. They
// said "X.obf: line 1", "solve: X.obf line 1", "openings line 2",
// "bufio.Scanner: token too long" without a line, and "bad square
// character 'ï'" for a mark.
func TestTextFileErrors(t *testing.T) {
	dir := t.TempDir()
	start := "---------------------------OX------XO--------------------------- X"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	long := strings.Repeat("f5", 600_000)
	for _, c := range []struct {
		args func(file string) []string
		ext  string
		good string // a first line that reads
	}{
		{func(f string) []string { return []string{"solve", f} }, "obf", start},
		{func(f string) []string { return []string{"match", "self", "self", "--openings", f, "--games", "2"} }, "txt", "f5d6"},
		{func(f string) []string {
			return []string{"book", "import", "--in", f, "--out", filepath.Join(dir, "o.book")}
		}, "txt", "# a book"},
		{func(f string) []string { return []string{"puzzle", f} }, "puz", start},
		{func(f string) []string { return []string{"mpcfit", "fit", f} }, "samples", "20 - 1 2 3"},
	} {
		for _, bad := range []struct{ line2, want string }{
			{"z9 !", "line 2: "},
			{long, "line 2: longer than the limit of 1048576 bytes a line"},
		} {
			name := c.args("")[0] + "." + c.ext
			file := write(name, "\uFEFF"+c.good+"\n"+bad.line2+"\n")
			_, _, err := runCmd(t, c.args(file)...)
			if err == nil || !strings.Contains(err.Error(), file+" "+bad.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%v: %.200v; want %q", c.args(name), err, name+" "+bad.want)
			}
		}
	}
}
