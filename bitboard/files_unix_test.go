//go:build unix

package bitboard

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRegularRefuses: a device, a symbolic link to one, a named pipe
// with no writer and a directory are refused at once, by name, instead of
// being read without end or waited on for ever.
func TestReadRegularRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	link := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.txt")
	os.WriteFile(ok, []byte("f5d6\n"), 0o600)
	for path, want := range map[string]string{
		"/dev/zero": "a device",
		link:        "a device",
		fifo:        "a named pipe",
		dir:         "a directory",
	} {
		done := make(chan error, 1)
		go func() { _, err := ReadRegular(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
				t.Errorf("%s: %v, want an error naming it and %q", path, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: still reading after 5 s", path)
		}
	}
	if b, err := ReadRegular(ok); err != nil || string(b) != "f5d6\n" {
		t.Errorf("a regular file: %q %v", b, err)
	}
}
