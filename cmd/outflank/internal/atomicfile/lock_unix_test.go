//go:build unix

package atomicfile

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLock: a second writer of the same file fails at once, naming the
// file, or waits (after saying so) until the first lets go.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my.book")
	unlock, err := Lock(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(path, nil); err == nil || !strings.Contains(err.Error(), "my.book is being updated by another process") {
		t.Fatalf("second writer: %v", err)
	}
	said := make(chan struct{}, 1)
	got := make(chan error, 1)
	go func() {
		u, err := Lock(path, func() { said <- struct{}{} })
		if err == nil {
			u()
		}
		got <- err
	}()
	select {
	case <-said:
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting writer was not told")
	}
	select {
	case err := <-got:
		t.Fatalf("the second writer got the lock while the first held it: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	unlock()
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting writer did not get the lock after it was let go")
	}
}
