package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// killsPerWriter sets how many times TestKillWriters kills each writer.
// The long run, at least 100 kills across the writers:
//
//	go test -run TestKillWriters ./cmd/outflank -kills 15
var killsPerWriter = flag.Int("kills", 0, "kills per writer in TestKillWriters (default 1, or 4 without -short)")

// A writer is a command that writes one file, and what it must hold after
// a kill: the old file, or all of the new one.
type writer struct {
	name  string
	args  func(dir, out string) []string // the command line, writing out
	stdin string
	old   []byte // out before the run; nil: out does not exist
	// whole reports whether data is a complete output; nil: it must equal
	// the output of an uninterrupted run, byte for byte.
	whole func(data []byte) bool
	// stream marks an output written as the work goes on (a match's games):
	// after a kill it must hold only whole records, checked by whole.
	stream bool
}

// TestKillWriters runs each command that writes a file, kills it at
// random moments (half of them just after the first change in its folder,
// which lands in the middle of the write, half uniformly over the run)
// and checks the file is never partly written and that the next whole run
// leaves no temporary behind.
func TestKillWriters(t *testing.T) {
	kills := *killsPerWriter
	if kills == 0 {
		kills = 4
		if testing.Short() {
			kills = 1
		}
	}
	data := t.TempDir()
	shards := selfplayShards(t, data)
	samples := filepath.Join(data, "all.samples")
	var all []byte
	for _, f := range []string{"wthor-d12", "wthor-end22", "wthor-end24"} {
		b, err := os.ReadFile("internal/mpcfit/testdata/" + f + ".samples")
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	os.WriteFile(samples, all, 0o644)
	wthor, _ := filepath.Abs("../../testdata/wthor")
	old := []byte("old file\n")

	writers := []writer{
		{name: "book export --text", old: old, args: func(_, out string) []string {
			return []string{"book", "export", "--text", "--out", out}
		}},
		{name: "book export", old: old, args: func(_, out string) []string {
			return []string{"book", "export", "--out", out}
		}},
		{name: "train --out", old: old, args: func(_, out string) []string {
			return []string{"train", "--wthor", wthor, "--max-games", "300", "--epochs", "1", "--solve-empties", "8", "--quiet", "--out", out}
		}},
		{name: "shell save", old: old, stdin: "f5\nd6\nsave out\n", args: func(string, string) []string {
			return []string{"shell"}
		}},
		{name: "selfplay merge", args: func(_, out string) []string {
			return append([]string{"selfplay", "merge", out, "--block", "2"}, shards...)
		}},
		{name: "mpcfit fit --table", old: old, args: func(_, out string) []string {
			return []string{"mpcfit", "fit", samples, "--table", out}
		}},
		{name: "match --games-out", stream: true, args: func(_, out string) []string {
			return []string{"match", "self:depth=1", "self:depth=2", "--games", "4", "--concurrency", "1", "--quiet", "--games-out", out}
		}, whole: wholeGames},
	}
	total := 0
	for _, w := range writers {
		t.Run(strings.ReplaceAll(w.name, " ", "_"), func(t *testing.T) {
			total += killWriter(t, w, kills)
		})
	}
	t.Logf("%d runs killed before they ended, across %d writers", total, len(writers))
}

// killWriter kills w's command kills times and returns how many runs it
// killed before they ended.
func killWriter(t *testing.T, w writer, kills int) int {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	reset := func() {
		os.Remove(out)
		if w.old != nil {
			if err := os.WriteFile(out, w.old, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	reset()
	t0 := time.Now()
	if msg, err := runOutflankIn(t, dir, w.stdin, w.args(dir, out)...); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, msg)
	}
	took := time.Since(t0)
	ref, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	whole := w.whole
	if whole == nil {
		whole = func(b []byte) bool { return bytes.Equal(b, ref) }
	}
	if !whole(ref) {
		t.Fatalf("the uninterrupted run's file is not whole:\n%.300s", ref)
	}
	killed := 0
	for k := range kills {
		reset()
		cmd := outflank(t, w.args(dir, out)...)
		cmd.Dir, cmd.Stdin = dir, strings.NewReader(w.stdin)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		if k%2 == 1 {
			waitUntil(done, time.Duration(rand.Int64N(int64(took+took/5))))
		} else {
			waitForChange(done, dir, took*2)
			waitUntil(done, time.Duration(rand.Int64N(int64(5*time.Millisecond))))
		}
		select {
		case <-done:
		default:
			killed++
		}
		cmd.Process.Kill()
		<-done
		got, err := os.ReadFile(out)
		switch {
		case os.IsNotExist(err) && (w.old == nil || w.stream):
		case err != nil:
			t.Errorf("kill %d: %v", k, err)
		case w.old != nil && bytes.Equal(got, w.old):
		case !whole(got):
			t.Errorf("kill %d: %s is partly written (%d bytes of %d)", k, w.name, len(got), len(ref))
		}
	}
	// A whole run after the kills leaves only its file in the folder.
	reset()
	if msg, err := runOutflankIn(t, dir, w.stdin, w.args(dir, out)...); err != nil {
		t.Fatalf("run after the kills: %v\n%s", err, msg)
	}
	es, _ := os.ReadDir(dir)
	for _, e := range es {
		if e.Name() != "out" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	return killed
}

// runOutflankIn runs outflank in dir to the end.
func runOutflankIn(t *testing.T, dir, stdin string, args ...string) (string, error) {
	cmd := outflank(t, args...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	b, err := cmd.CombinedOutput()
	return string(b), err
}

func waitUntil(done <-chan struct{}, d time.Duration) {
	select {
	case <-done:
	case <-time.After(d):
	}
}

// waitForChange returns once an entry of dir appears, goes or changes size
// or time, once done is closed, or after limit.
func waitForChange(done <-chan struct{}, dir string, limit time.Duration) {
	first := listing(dir)
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		select {
		case <-done:
			return
		default:
		}
		if listing(dir) != first {
			return
		}
		time.Sleep(200 * time.Microsecond)
	}
}

func listing(dir string) string {
	es, _ := os.ReadDir(dir)
	var sb strings.Builder
	for _, e := range es {
		if fi, err := e.Info(); err == nil {
			fmt.Fprintf(&sb, "%s %v %d\n", e.Name(), fi.ModTime(), fi.Size())
		}
	}
	return sb.String()
}

// wholeGames reports whether b is whole GGF lines, each a game.
func wholeGames(b []byte) bool {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return false
	}
	for l := range strings.Lines(string(b)) {
		if _, err := bitboard.ParseGGF(strings.TrimSpace(l)); err != nil {
			return false
		}
	}
	return true
}

// selfplayShards writes two shards of a small self-play run into dir.
func selfplayShards(t *testing.T, dir string) []string {
	var shards []string
	for _, k := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "shard"+k[:1]+".sp")
		args := []string{"selfplay", out, "--shard", k, "--workers", "1", "--games", "4", "--seed", "3", "--solve", "12", "--depth", "2", "--hash", "4", "--block", "2", "--quiet"}
		if _, stderr, err := runCmd(t, args...); err != nil {
			t.Fatalf("selfplay --shard %s: %v\n%s", k, err, stderr)
		}
		shards = append(shards, out)
	}
	return slices.Clip(shards)
}
