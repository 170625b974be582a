// Package atomicfile writes whole files or nothing: the data goes to a
// temporary file in the destination's folder, which is synced and then
// renamed over the destination, so a kill or a crash at any moment leaves
// either the old file or the complete new one, never part of one.
// Temporaries left by a killed writer are removed by the next write to the
// same file.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// tmpMark sits between a destination's name and the writer's process id in
// the names of its temporaries: FILE.outflank-tmp.PID.N. Only names of this
// pattern are ever removed.
const tmpMark = ".outflank-tmp."

// staleAge is how old a temporary must be before it is removed where the
// system cannot tell whether its writer is still running.
const staleAge = time.Hour

// WriteFile writes data to path as a whole.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write calls write with a buffered writer to a temporary file beside path
// and, if write and the flush succeed, commits it (see File.Commit). On any
// error the temporary is removed and path is untouched.
func Write(path string, write func(w io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	bw := bufio.NewWriterSize(f, 256<<10)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// File is a temporary file that becomes path on Commit. It is an *os.File,
// so writers that seek back (to fill in a header) can use it.
type File struct {
	*os.File
	path string
	done bool
}

// Check says why path cannot be written as a whole, before any work that
// would end in writing it: it is a directory or not a regular file (a
// device or a pipe, which the rename would replace), or its folder does
// not exist or does not let this process create files. Nothing is left
// behind. Commands call it on their outputs before they start.
func Check(path string) error {
	if fi, err := os.Stat(path); err == nil {
		switch {
		case fi.IsDir():
			return fmt.Errorf("%s is a directory", path)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file", path)
		}
	}
	dir := filepath.Dir(path)
	// Named as a writer's temporary (FILE.outflank-tmp.PID.N), so that one
	// left by a kill at this moment is removed by the next write.
	f, err := create(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write %s: folder %s: %w", path, dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// Create removes path's stale temporaries and opens a new one. A new file
// gets mode 0666 less the umask, as os.Create gives; a replaced file keeps
// its mode.
func Create(path string) (*File, error) {
	fi, statErr := os.Stat(path)
	if statErr == nil && !fi.Mode().IsRegular() {
		return nil, Check(path) // a directory or a device: say so, by its name
	}
	removeStale(path)
	tmp, err := create(path)
	if err != nil {
		return nil, err
	}
	f := &File{File: tmp, path: path}
	if statErr == nil {
		if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
			f.Discard()
			return nil, err
		}
	}
	return f, nil
}

// Commit syncs the temporary to disk and renames it to the destination, so
// that the destination is either the old file or all of the new one; on
// an error the temporary is removed.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: already committed or discarded", f.path)
	}
	err := f.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = os.Rename(f.Name(), f.path); err != nil {
			// Name the destination, not the temporary the person never saw.
			var le *os.LinkError
			if errors.As(err, &le) {
				err = le.Err
			}
			err = fmt.Errorf("%s: %w", f.path, err)
		}
	}
	if err != nil {
		os.Remove(f.Name())
		f.done = true
		return err
	}
	f.done = true
	syncDir(filepath.Dir(f.path))
	return nil
}

// Discard closes and removes the temporary, leaving the destination as it
// was; after Commit it does nothing, so it can be deferred.
func (f *File) Discard() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.Name())
}

// create makes a new temporary beside path named after this process.
func create(path string) (*os.File, error) {
	prefix := path + tmpMark + strconv.Itoa(os.Getpid()) + "."
	for n := 0; ; n++ {
		f, err := os.OpenFile(prefix+strconv.Itoa(n), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if os.IsExist(err) && n < 10000 {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("writing %s: %w", path, err)
		}
		return f, nil
	}
}

// syncDir makes the rename itself durable where the system allows it;
// where a folder cannot be opened or synced (Windows), the rename stands
// as the system keeps it.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}

// removeStale removes path's temporaries whose writers are gone: a process
// killed while writing leaves its temporary behind, and the next write to
// the same file clears it. A temporary of a running writer is left alone.
func removeStale(path string) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, ok := tmpPID(base, e.Name())
		if !ok || pid == os.Getpid() {
			continue
		}
		if alive, known := running(pid); known && alive {
			continue
		} else if !known {
			if fi, err := e.Info(); err != nil || time.Since(fi.ModTime()) < staleAge {
				continue
			}
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// tmpPID returns the writer's process id if name is a temporary of base.
func tmpPID(base, name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, base+tmpMark)
	if !ok {
		return 0, false
	}
	p, n, ok := strings.Cut(rest, ".")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(p)
	if err != nil || pid <= 0 {
		return 0, false
	}
	if _, err := strconv.Atoi(n); err != nil {
		return 0, false
	}
	return pid, true
}
