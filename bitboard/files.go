package bitboard

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// OpenRegular opens path for reading if it is a regular file: a device
// (/dev/zero), a named pipe or a directory is refused before it is opened,
// so that the readers of the engine's data files (books, weights), which
// then bound what they read by their header, never block or read without
// end. Errors leave the path out: the caller names the file.
func OpenRegular(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if m := fi.Mode(); !m.IsRegular() {
		what := "something else"
		switch {
		case m.IsDir():
			what = "a directory"
		case m&os.ModeNamedPipe != 0:
			what = "a named pipe"
		case m&os.ModeDevice != 0:
			what = "a device"
		case m&os.ModeSocket != 0:
			what = "a socket"
		}
		return nil, fmt.Errorf("not a regular file but %s", what)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, unwrapPath(err)
	}
	return f, nil
}

// Open opens path for reading as os.Open does (its errors name the file
// the same way) if it is a regular file; see ReadRegular. Every reader of
// a file named by a person uses it or ReadRegular.
func Open(path string) (*os.File, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// ReadRegular reads the whole of path, as os.ReadFile does (its errors
// name the file the same way), if it is a regular file: /dev/zero, a named
// pipe with no writer or a directory is refused at once instead of read
// without end or waited on for ever. Every reader of a whole file uses it.
func ReadRegular(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// unwrapPath drops the path and operation from a file error.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
