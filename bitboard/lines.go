package bitboard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxLine is the longest line the text file readers accept: a GGF game is
// about 1 KB, an OBF line under 100 bytes.
const MaxLine = 1 << 20

// LineError is an error on one line of a text file. With the file's name
// in front (InFile) every reader's errors read the same way:
// "FILE line N: what is wrong".
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// InFile puts a file's name in front of an error of its reader: "FILE line
// N: ..." for a LineError, "FILE: ..." for any other.
func InFile(name string, err error) error {
	var le *LineError
	if errors.As(err, &le) && le == err {
		return fmt.Errorf("%s line %d: %w", name, le.Line, le.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// Lines reads a text file line by line for the file readers: it counts the
// lines, drops a UTF-8 byte order mark before the first (editors on
// Windows write one), and reports a line longer than MaxLine with its
// number and the limit.
type Lines struct {
	sc *bufio.Scanner
	n  int
}

// NewLines returns a line reader of r.
func NewLines(r io.Reader) *Lines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &Lines{sc: sc}
}

// Scan advances to the next line, false at the end or on an error.
func (l *Lines) Scan() bool {
	if !l.sc.Scan() {
		return false
	}
	l.n++
	return true
}

// Text is the current line without its line ending.
func (l *Lines) Text() string {
	t := l.sc.Text()
	if l.n == 1 {
		t = strings.TrimPrefix(t, "\uFEFF")
	}
	return t
}

// Line is the current line's number, from 1.
func (l *Lines) Line() int { return l.n }

// Errorf returns a LineError on the current line.
func (l *Lines) Errorf(format string, args ...any) error {
	return &LineError{Line: l.n, Err: fmt.Errorf(format, args...)}
}

// Err is the error that ended Scan, nil at the end of the input.
func (l *Lines) Err() error {
	err := l.sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		return &LineError{Line: l.n + 1, Err: fmt.Errorf("longer than the limit of %d bytes a line", MaxLine)}
	}
	return err
}
