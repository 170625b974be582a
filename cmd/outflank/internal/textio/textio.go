// Package textio is the line plumbing shared by Outflank's text protocols:
// input read on its own goroutine (so that a new command can stop a running
// search) and output written a whole line at a time under one lock (so that
// search reports, replies and error messages never interleave, even when a
// GUI merges stderr into stdout).
package textio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// MaxLine is the longest input line accepted; longer lines are reported as
// too long and skipped (a GGF game is about 1 KB).
const MaxLine = 1 << 20

// Line is one line of input without its line ending.
type Line struct {
	Text    string
	TooLong bool // the line exceeded MaxLine; Text holds its start
	// Dropped, when not zero, says that this many lines arrived while a
	// search ran and were dropped because the input kept meanwhile had
	// reached its bound; Text holds the start of the first of them.
	Dropped int
	// Clipped: the line was longer than its reader was told to keep
	// whole at the time (ReadLinesLimited); Text holds the first ClipLen
	// bytes.
	Clipped bool
}

// ClipLen is how much of a line a clipping reader keeps: enough for any
// command word and a GTP id, and whole for the short lines that stop a
// search (ping, quit, an interrupt).
const ClipLen = 64

// ReadLines reads r line by line on a new goroutine and sends the lines on
// the returned channel, which is closed at end of input (or on a read
// error). Sending stops, and the goroutine ends after its current read,
// once stop is closed.
func ReadLines(r io.Reader, stop <-chan struct{}) <-chan Line {
	return ReadLinesLimited(r, stop, nil)
}

// ReadLinesLimited is ReadLines whose lines longer than limit() bytes (asked
// once a line is longer than ClipLen; nil: MaxLine) keep only their first
// ClipLen bytes and say so (Clipped): a consumer with no room for long lines (a
// search running, its kept input full) then reads on without holding them,
// so that a flood costs neither memory nor garbage.
func ReadLinesLimited(r io.Reader, stop <-chan struct{}, limit func() int) <-chan Line {
	ch := make(chan Line)
	go func() {
		defer close(ch)
		br := bufio.NewReaderSize(r, 64*1024)
		var buf []byte // reused: a line costs one allocation, its string
		for {
			l, err := readLine(br, limit, &buf)
			if err != nil && l.Text == "" && !l.TooLong {
				return
			}
			select {
			case ch <- l:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ch
}

// readLine reads one line, trimming "\n" or "\r\n", gathering it in *buf
// (kept for the next line, so that a long line costs its string alone). A
// last line without a newline is returned with io.EOF. A line longer than
// MaxLine keeps its first 40 bytes (TooLong); one longer than limit()
// (asked once the line is longer than ClipLen, so when it has arrived, not
// when the reader began to wait for it) its first ClipLen (Clipped).
func readLine(br *bufio.Reader, limitFunc func() int, buf *[]byte) (Line, error) {
	b := (*buf)[:0]
	over := false
	limit := ClipLen // until a line grows past it, then limitFunc's
	asked := limitFunc == nil
	if asked {
		limit = MaxLine
	}
	for {
		chunk, isPrefix, err := br.ReadLine()
		if !asked && len(b)+len(chunk) > limit {
			limit, asked = min(limitFunc(), MaxLine), true
		}
		if !over {
			if len(b)+len(chunk) > limit {
				over = true
				keep := ClipLen
				if limit == MaxLine {
					keep = 40 // only to name the line in an error
				}
				b = append(b, chunk[:min(len(chunk), max(0, keep-len(b)))]...)
				b = b[:min(len(b), keep)]
			} else {
				b = append(b, chunk...)
			}
		}
		if cap(b) <= MaxLine+64<<10 {
			*buf = b
		}
		line := func(text []byte) Line {
			l := Line{Text: string(text)}
			if over {
				l.TooLong, l.Clipped = limit == MaxLine, limit != MaxLine
			}
			return l
		}
		if err != nil {
			if errors.Is(err, io.EOF) && (len(b) > 0 || over) {
				return line(b), io.EOF
			}
			return Line{}, err
		}
		if !isPrefix {
			return line(bytes.TrimRight(b, "\r")), nil
		}
	}
}

// Out writes whole lines to a protocol's output and error streams, one
// line per Write call, under a lock shared by both so that lines from a
// search goroutine and from the command loop never mix.
type Out struct {
	mu          sync.Mutex
	out, errOut io.Writer
}

// NewOut returns an Out writing replies to out and errors to errOut (which
// may be the same writer).
func NewOut(out, errOut io.Writer) *Out { return &Out{out: out, errOut: errOut} }

// Println writes s and a newline to the output.
func (o *Out) Println(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.write(o.out, s)
}

// Printf writes a formatted line to the output.
func (o *Out) Printf(format string, args ...any) { o.Println(fmt.Sprintf(format, args...)) }

// Prompt writes s without a newline (an interactive prompt).
func (o *Out) Prompt(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	io.WriteString(o.out, s)
	if f, ok := o.out.(interface{ Flush() error }); ok {
		f.Flush()
	}
}

// Errorf writes a formatted line to the error stream.
func (o *Out) Errorf(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.write(o.errOut, s)
}

func (o *Out) write(w io.Writer, s string) {
	b := make([]byte, 0, len(s)+1)
	b = append(b, s...)
	b = append(b, '\n')
	w.Write(b) // a failed write means the peer has gone; nothing to do
	if f, ok := w.(interface{ Flush() error }); ok {
		f.Flush()
	}
}

// Reporter writes the lines of one search: Println and Printf work until
// Close, after which they are dropped, so that a search that reports late
// can never write after the front end has moved on (e.g. after a pong).
type Reporter struct {
	o      *Out
	closed bool
	status bool // a status line is on screen, without its newline
}

// Reporter returns a new Reporter writing to o's output.
func (o *Out) Reporter() *Reporter { return &Reporter{o: o} }

// Println writes a line unless r is closed.
func (r *Reporter) Println(s string) {
	r.o.mu.Lock()
	defer r.o.mu.Unlock()
	if !r.closed {
		r.clearStatus()
		r.o.write(r.o.out, s)
	}
}

// Status shows s on a terminal's status line: it replaces the status line
// shown before (carriage return, then erase to the end of the line), so
// that a search's progress takes one line of the screen, not one a depth.
// The caller keeps s within the terminal's width. Only for terminals.
func (r *Reporter) Status(s string) {
	r.o.mu.Lock()
	defer r.o.mu.Unlock()
	if r.closed {
		return
	}
	io.WriteString(r.o.out, "\r"+s+"\x1b[K")
	if f, ok := r.o.out.(interface{ Flush() error }); ok {
		f.Flush()
	}
	r.status = true
}

// clearStatus erases the status line, if one is shown.
func (r *Reporter) clearStatus() {
	if r.status {
		io.WriteString(r.o.out, "\r\x1b[K")
		if f, ok := r.o.out.(interface{ Flush() error }); ok {
			f.Flush()
		}
		r.status = false
	}
}

// Printf writes a formatted line unless r is closed.
func (r *Reporter) Printf(format string, args ...any) { r.Println(fmt.Sprintf(format, args...)) }

// Close stops r writing and erases its status line.
func (r *Reporter) Close() {
	r.o.mu.Lock()
	r.clearStatus()
	r.closed = true
	r.o.mu.Unlock()
}

// Wrap breaks text into lines of at most width bytes at spaces (a longer
// word gets a line of its own).
func Wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	return append(lines, line)
}
