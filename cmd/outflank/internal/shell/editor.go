package shell

import (
	"bytes"
	"io"
	"sync"

	"golang.org/x/term"
)

// Editor reads the lines of a person at a terminal with line editing and
// history (arrow keys, Ctrl-A/E/K/U/W, Home/End), through the Go team's
// golang.org/x/term line editor. The terminal must be in raw mode (the
// caller sets it, term.MakeRaw). Ctrl-C does not raise a signal in raw
// mode, so Editor watches the keyboard itself and reports Ctrl-C on the
// interrupt channel, also while a search runs and no line is being read.
//
// Output written through the Editor keeps the prompt and the line being
// typed below it, and turns "\n" into the "\r\n" a raw terminal needs.
//
// Read hands out the lines as plain input ("line\n"), so the shell reads
// the editor as it reads a script; each line is read only after Prompt
// has asked for it, so the prompt shown is the one for the shell's state
// at that moment, and keys typed during a search wait for the next prompt.
type Editor struct {
	t     *term.Terminal
	keys  *keyBuffer
	intr  chan struct{}
	width int

	mu     sync.Mutex
	prompt string
	asked  chan struct{} // holds a value while a line is asked for
	rest   []byte        // of the line being read by Read
}

// NewEditor returns an editor reading keys from in and drawing on out, a
// terminal width columns wide (0: unknown). in is read from at once and
// until it ends, on a goroutine of its own.
func NewEditor(in io.Reader, out io.Writer, width int) *Editor {
	kb := &keyBuffer{}
	kb.cond = sync.NewCond(&kb.mu)
	e := &Editor{keys: kb, intr: make(chan struct{}, 1), width: width, asked: make(chan struct{}, 1)}
	e.t = term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{kb, out}, "")
	if width > 0 {
		e.t.SetSize(width, 24)
	}
	go e.pump(in)
	return e
}

// Interrupt receives a value for each Ctrl-C (one is kept while unread).
func (e *Editor) Interrupt() <-chan struct{} { return e.intr }

// Width is the terminal's width in columns, 0 if unknown.
func (e *Editor) Width() int { return e.width }

// Prompt asks for the next line, to be read with this prompt.
func (e *Editor) Prompt(prompt string) {
	e.mu.Lock()
	e.prompt = prompt
	e.mu.Unlock()
	select {
	case e.asked <- struct{}{}:
	default: // already asked; the newer prompt is the one shown
	}
}

// Read returns the lines typed, each after a Prompt, as "line\n"; io.EOF
// on Ctrl-D at an empty line or at the end of input.
func (e *Editor) Read(p []byte) (int, error) {
	if len(e.rest) == 0 {
		<-e.asked
		e.mu.Lock()
		prompt := e.prompt
		e.mu.Unlock()
		l, err := e.ReadLine(prompt)
		if err != nil {
			return 0, err
		}
		e.rest = append([]byte(l), '\n')
	}
	n := copy(p, e.rest)
	e.rest = e.rest[n:]
	return n, nil
}

// ReadLine shows prompt and returns the next line typed; io.EOF on Ctrl-D
// at an empty line or at the end of input.
func (e *Editor) ReadLine(prompt string) (string, error) {
	e.t.SetPrompt(prompt)
	l, err := e.t.ReadLine()
	if err == term.ErrPasteIndicator {
		err = nil // a pasted line is a line like any other
	}
	return l, err
}

// Write writes output above the prompt.
func (e *Editor) Write(p []byte) (int, error) { return e.t.Write(p) }

// pump moves keys from in to the buffer the line editor reads, taking out
// Ctrl-C, which becomes an interrupt.
func (e *Editor) pump(in io.Reader) {
	buf := make([]byte, 256)
	for {
		n, err := in.Read(buf)
		chunk := buf[:n]
		if bytes.IndexByte(chunk, 3) >= 0 {
			chunk = bytes.ReplaceAll(chunk, []byte{3}, nil)
			select {
			case e.intr <- struct{}{}:
			default: // one pending interrupt is enough
			}
		}
		e.keys.put(chunk, err)
		if err != nil {
			return
		}
	}
}

// keyBuffer holds keys typed while no line is being read (during a search),
// so that the pump never blocks and always sees the next Ctrl-C.
type keyBuffer struct {
	mu   sync.Mutex
	cond *sync.Cond
	data []byte
	err  error
}

func (k *keyBuffer) put(p []byte, err error) {
	k.mu.Lock()
	k.data = append(k.data, p...)
	if err != nil {
		k.err = err
	}
	k.mu.Unlock()
	k.cond.Broadcast()
}

func (k *keyBuffer) Read(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for len(k.data) == 0 && k.err == nil {
		k.cond.Wait()
	}
	if len(k.data) == 0 {
		return 0, k.err
	}
	n := copy(p, k.data)
	k.data = k.data[n:]
	return n, nil
}
