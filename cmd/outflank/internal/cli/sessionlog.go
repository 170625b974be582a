package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
)

// sessionLog records a protocol session (--log FILE): every line read and
// written, with the time, for users reporting a problem. Lines read are
// marked "<", lines written ">", error lines "!". The file is appended
// to, so that a GUI that restarts the engine keeps the earlier sessions.
type sessionLog struct {
	mu sync.Mutex
	f  *os.File
}

// OpenSessionLog opens (or creates) the log and writes a line saying which
// session starts.
func OpenSessionLog(path, what string) (*sessionLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	l := &sessionLog{f: f}
	l.line('#', fmt.Sprintf("outflank %s %s, started %s", what, Version(), time.Now().Format(time.RFC3339)))
	return l, nil
}

func (l *sessionLog) Close() error { return l.f.Close() }

// terminalCodes are what a terminal's line editor writes besides text:
// carriage returns and escape sequences, left out of the log.
var terminalCodes = regexp.MustCompile("\r|\x1b\\[[0-9;?]*[A-Za-z]")

// line writes one line of the log: the time, the direction mark, the text.
func (l *sessionLog) line(mark byte, text string) {
	text = terminalCodes.ReplaceAllString(text, "")
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.f, "%s %c %s\n", time.Now().Format("15:04:05.000"), mark, text)
}

// maxLogLine is the most of one line the log keeps: a peer that sends
// megabytes without a newline must not fill the memory or the log.
const maxLogLine = 4096

// lines cuts a stream into the log's lines, keeping a partial last line
// until its end comes (at most maxLogLine bytes of it).
type lines struct {
	l       *sessionLog
	mark    byte
	mu      sync.Mutex
	partial []byte
	cut     bool // the partial line was cut at maxLogLine
}

func (s *lines) add(p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := maxLogLine - len(s.partial); len(chunk) > room {
			s.partial, s.cut = append(s.partial, chunk[:max(room, 0)]...), true
		} else {
			s.partial = append(s.partial, chunk...)
		}
		if i < 0 {
			return
		}
		text := strings.TrimRight(string(s.partial), "\r")
		if s.cut {
			text += " [line cut]"
		}
		s.l.line(s.mark, text)
		s.partial, s.cut = s.partial[:0], false
		p = p[i+1:]
	}
}

// logReader copies what it reads into the log.
type logReader struct {
	r io.Reader
	lines
}

func (r *logReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.add(p[:n])
	return n, err
}

// logWriter copies what is written into the log.
type logWriter struct {
	w io.Writer
	lines
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.add(p)
	return w.w.Write(p)
}

// Flush passes a flush on (bufio writers under the protocol's output).
func (w *logWriter) Flush() error {
	if f, ok := w.w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// logged returns e with its streams recorded in l.
func (l *sessionLog) logged(e *Env) *Env {
	return &Env{
		Stdin:  &logReader{r: e.Stdin, lines: lines{l: l, mark: '<'}},
		Stdout: &logWriter{w: e.Stdout, lines: lines{l: l, mark: '>'}},
		Stderr: &logWriter{w: e.Stderr, lines: lines{l: l, mark: '!'}},
	}
}

// WithSessionLog returns e with its streams recorded in the log at path
// (e itself when path is ""), and the function that closes the log.
func WithSessionLog(e *Env, path, what string) (*Env, func(), error) {
	if path == "" {
		return e, func() {}, nil
	}
	l, err := OpenSessionLog(path, what)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: --log: %w", what, err)
	}
	return l.logged(e), func() { l.Close() }, nil
}

// LogFlagHelp is the help of the --log flag of nboard, gtp and shell.
const LogFlagHelp = "record the session in FILE (appended): every line read (<) and written (> and ! for errors) with its time, for reporting a problem"
