package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionOf: the version line from the module version and the build's
// settings, each fact once.
func TestVersionOf(t *testing.T) {
	rev := map[string]string{"vcs.revision": "1a2b3c4d5e6f7a8b9c0d", "vcs.time": "2026-11-27T09:30:00Z"}
	for _, c := range []struct {
		module string
		vcs    map[string]string
		want   string
	}{
		{"", nil, "dev"},
		{"(devel)", nil, "dev"},
		{"(devel)", rev, "dev (commit 1a2b3c4, 2026-11-27)"},
		{"v0.0.0-20261127093000-1a2b3c4d5e6f", rev, "dev (commit 1a2b3c4, 2026-11-27)"},
		{"v0.0.0-20261127093000-1a2b3c4d5e6f+dirty", map[string]string{"vcs.revision": "1a2b3c4d5e6f", "vcs.time": "2026-11-27T09:30:00Z", "vcs.modified": "true"}, "dev (commit 1a2b3c4, 2026-11-27, modified)"},
		{"v1.2.4-0.20261127093000-1a2b3c4d5e6f", nil, "dev (commit 1a2b3c4, 2026-11-27)"}, // go install @commit
		{"v1.2.0", nil, "v1.2.0"},
		{"v1.2.0", rev, "v1.2.0 (commit 1a2b3c4, 2026-11-27)"},
	} {
		if got := VersionOf(c.module, c.vcs); got != c.want {
			t.Errorf("VersionOf(%q, %v) = %q, want %q", c.module, c.vcs, got, c.want)
		}
	}
}

// TestVersionStamped: a release stamped by the release builder (-X
// ...cli.release=v1.2.0) is the version, whatever the module version says.
func TestVersionStamped(t *testing.T) {
	defer func(r, c, ct, m string) { release, commit, commitTime, modified = r, c, ct, m }(release, commit, commitTime, modified)
	release = "v9.8.7"
	if v := Version(); v != "v9.8.7" && !strings.HasPrefix(v, "v9.8.7 (") {
		t.Errorf("Version() = %q with the release stamped v9.8.7", v)
	}
	// The test binary records no commit: the stamped one is shown.
	commit, commitTime, modified = "9f8e7d6c5b4a", "2026-12-03T09:30:00Z", "true"
	if v := Version(); v != "v9.8.7 (commit 9f8e7d6, 2026-12-03, modified)" {
		t.Errorf("Version() = %q with the release and commit stamped", v)
	}
}

// TestSessionLogLongLine: a line longer than the log keeps is cut, not
// held whole in memory, and the lines after it are logged as usual.
func TestSessionLogLongLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.log")
	l, err := OpenSessionLog(path, "test")
	if err != nil {
		t.Fatal(err)
	}
	w := &logWriter{w: io.Discard, lines: lines{l: l, mark: '>'}}
	for range 100 {
		w.Write([]byte(strings.Repeat("x", 1000))) // 100,000 bytes, one line
	}
	w.Write([]byte("\nnext\n"))
	if n := len(w.partial); cap(w.partial) > 2*maxLogLine || n != 0 {
		t.Errorf("partial line holds %d bytes (capacity %d)", n, cap(w.partial))
	}
	l.Close()
	b, _ := os.ReadFile(path)
	got := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(got) != 3 || !strings.HasSuffix(got[1], strings.Repeat("x", maxLogLine)+" [line cut]") || !strings.HasSuffix(got[2], "> next") {
		t.Errorf("log of a long line: %d lines, %.80q ... %.80q", len(got), got[1], got[len(got)-1])
	}
}

// TestClipPV: a long line of play is cut between moves, within the width.
func TestClipPV(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"a2 b1 c1", "a2 b1 c1"},
		{"a2 b1 c1 pass b6 c7 a7 b7 b8 a8 g2", "a2 b1 c1 pass b6 c7 a7 b7 ..."},
	} {
		if got := ClipPV(c.in, 30); got != c.want || len(got) > 30 {
			t.Errorf("ClipPV(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestProgressBarPlain: into a pipe or a log the progress is plain lines
// (a phase's start and end, and one every plainEvery), never the bar's
// carriage returns and erase codes.
func TestProgressBarPlain(t *testing.T) {
	var buf strings.Builder
	bar := NewProgressBar(&buf, false)
	bar.Show("labelling", 0, 100)
	bar.Show("labelling", 50, 100) // within plainEvery of the last line: not shown
	bar.Show("labelling", 100, 100)
	bar.Clear()
	if got, want := buf.String(), "labelling: 0% 0/100\nlabelling: 100% 100/100\n"; got != want {
		t.Errorf("progress into a pipe: %q, want %q", got, want)
	}
}
