package atomicfile

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

func TestWriteReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("read %q", b)
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's 0600", fi.Mode().Perm())
	}
	onlyFile(t, path)
}

func TestFailedWriteKeepsOld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(path, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		w.Write(make([]byte, 1<<20)) // past the buffer, so the temporary has data
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("read %q, want the old file", b)
	}
	onlyFile(t, path)
}

// A writer killed mid-write leaves a temporary; the next write removes it,
// but not one of a writer that is still running.
func TestStaleTemporaries(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no process probe")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	cmd := exec.Command(os.Args[0], "-test.run=NONE")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := path + tmpMark + strconv.Itoa(cmd.Process.Pid) + ".0"
	live := path + tmpMark + strconv.Itoa(os.Getppid()) + ".0"
	other := path + ".7.tmp" // not ours: left alone
	for _, p := range []string{dead, live, other} {
		if err := os.WriteFile(p, []byte("part"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead writer's temporary is still there (%v)", err)
	}
	for _, p := range []string{live, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
}

func TestTmpPID(t *testing.T) {
	for _, c := range []struct {
		name string
		pid  int
	}{
		{"f" + tmpMark + "12.0", 12},
		{"f" + tmpMark + "12.x", 0},
		{"f" + tmpMark + "12", 0},
		{"g" + tmpMark + "12.0", 0},
		{"f.12.tmp", 0},
	} {
		pid, ok := tmpPID("f", c.name)
		if pid != c.pid || ok != (c.pid != 0) {
			t.Errorf("%s: %d %v", c.name, pid, ok)
		}
	}
}

// onlyFile fails if path's folder holds anything but path.
func onlyFile(t *testing.T, path string) {
	t.Helper()
	es, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range es {
		if e.Name() != filepath.Base(path) {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
