//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A --book or --eval that names a device, a pipe or a huge file is refused
// in one line at once: the header is read before the body and the body is
// bounded by it. /dev/zero was read until the process ran out of memory,
// and a named pipe without a writer blocked for ever.
func TestBoundedBinaryReads(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	huge := filepath.Join(dir, "huge")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: 3 GB announced, nothing stored. Its first bytes are zeros.
	if err := f.Truncate(3 << 30); err != nil {
		t.Skip(err)
	}
	f.Close()
	// A book header announcing one position, followed by far more bytes.
	long := filepath.Join(dir, "long.book")
	head := "OFBOOK\x1a\n\x02\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00"
	os.WriteFile(long, []byte(head+strings.Repeat("\x00", 4096)), 0o644)
	for _, c := range []struct {
		flag, path, want string
	}{
		{"--book", "/dev/zero", "not a regular file but a device"},
		{"--eval", "/dev/zero", "not a regular file but a device"},
		{"--book", fifo, "not a regular file but a named pipe"},
		{"--eval", fifo, "not a regular file but a named pipe"},
		{"--book", dir, "not a regular file but a directory"},
		{"--book", huge, "bad magic"},
		{"--eval", huge, "bad magic"},
		{"--book", long, "more than the 211 that 1 positions can take"},
	} {
		cmd := outflank(t, "gtp", c.flag, c.path)
		cmd.Stdin = strings.NewReader("quit\n")
		out, err := runWithDeadline(t, cmd)
		if err == nil || !strings.Contains(out, c.want) || strings.Count(strings.TrimSpace(out), "\n") != 0 {
			t.Errorf("%s %s: %v\n%s", c.flag, c.path, err, out)
		}
	}
}

// The shell's load refuses a device, a pipe or a huge file at once (it read
// /dev/zero until out of memory).
func TestShellLoadBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	huge := filepath.Join(dir, "huge.ggf")
	f, _ := os.Create(huge)
	f.Truncate(3 << 30)
	f.Close()
	for path, want := range map[string]string{"/dev/zero": "not a regular file", fifo: "not a regular file", huge: "more than a game record's 1048576"} {
		cmd := outflank(t, "shell", "--no-book")
		cmd.Stdin = strings.NewReader("load " + path + "\n")
		out, err := runWithDeadline(t, cmd)
		if err == nil || !strings.Contains(out, want) {
			t.Errorf("load %s: %v\n%s", path, err, out)
		}
	}
}

// Every reader of a file a person names refuses a device, a named pipe or
// a directory at once, in one line that names it: review read /dev/zero
// until it held 2.3 GB, train's checkpoint 2.5 GB, and a pipe without a
// writer blocked every text reader for ever.
func TestEveryReaderRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	sp := filepath.Join(dir, "sp.sp")
	if out, err := runWithDeadline(t, outflank(t, "selfplay", sp, "--games", "4", "--depth", "1", "--solve", "8", "--workers", "1")); err != nil {
		t.Fatalf("selfplay: %v\n%s", err, out)
	}
	readers := [][]string{
		{"review", "F"},
		{"solve", "F"},
		{"puzzle", "F"},
		{"evalcheck", "--testset", "F"},
		{"book", "learn", "--book", filepath.Join(dir, "l.book"), "F"},
		{"book", "import", "--in", "F", "--out", filepath.Join(dir, "i.book")},
		{"match", "self:depth=1", "self:depth=1", "--games", "2", "--openings", "F"},
		{"selfplay", "merge", filepath.Join(dir, "m.sp"), "F"},
		{"selfplay", "check", "F"},
		{"train", "--selfplay", sp, "--epochs", "1", "--checkpoint", "F", "--resume", "--out", filepath.Join(dir, "w.weights")},
		{"mpcfit", "fit", "F"},
	}
	for _, r := range readers {
		for path, want := range map[string]string{"/dev/zero": "a device", fifo: "a named pipe", dir: "a directory"} {
			args := make([]string, len(r))
			for i, a := range r {
				if a == "F" {
					a = path
				}
				args[i] = a
			}
			out, err := runWithDeadline(t, outflank(t, args...))
			// A file that is written as well as read (train's checkpoint)
			// is refused as an output first, before the work.
			refused := strings.Contains(out, "not a regular file but "+want) ||
				strings.Contains(out, path+" is a directory") || strings.Contains(out, path+" is not a regular file")
			if err == nil || !refused || !strings.Contains(out, path) {
				t.Errorf("%s: %v\n%.300s", strings.Join(args, " "), err, out)
			}
		}
	}
}

// Outputs are checked before the work: a directory or a folder that does
// not exist is said at once, by its name (train ran a whole epoch first,
// and the shell's save named its temporary file).
func TestOutputsCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "sp.sp")
	if out, err := runWithDeadline(t, outflank(t, "selfplay", sp, "--games", "4", "--depth", "1", "--solve", "8", "--workers", "1")); err != nil {
		t.Fatalf("selfplay: %v\n%s", err, out)
	}
	missing := filepath.Join(dir, "no-such-folder", "x.out")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--selfplay", sp, "--epochs", "1", "--out", dir}, dir + " is a directory"},
		{[]string{"train", "--selfplay", sp, "--epochs", "1", "--out", missing}, "cannot write " + missing},
		{[]string{"train", "--selfplay", sp, "--epochs", "1", "--checkpoint", dir}, dir + " is a directory"},
		{[]string{"book", "export", "--out", dir}, dir + " is a directory"},
		{[]string{"book", "grow", "--book", dir, "--positions", "1"}, dir + " is a directory"},
		{[]string{"book", "merge", "--out", missing, "x.book"}, "cannot write " + missing},
	} {
		out, err := runWithDeadline(t, outflank(t, c.args...))
		if err == nil || !strings.Contains(out, c.want) || strings.Contains(out, "epoch") || strings.Count(strings.TrimSpace(out), "\n") != 0 {
			t.Errorf("%s: %v\n%s", strings.Join(c.args, " "), err, out)
		}
	}
	cmd := outflank(t, "shell")
	cmd.Stdin = strings.NewReader("f5\nsave " + dir + "\n")
	out, _ := runWithDeadline(t, cmd)
	if !strings.Contains(out, dir+" is a directory") || strings.Contains(out, "outflank-tmp") {
		t.Errorf("shell save to a directory: %s", out)
	}
}
