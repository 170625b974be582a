package play

import (
	"context"
	"io"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
)

// Input is a text front end's input: lines read on their own goroutine, so
// that the front end can watch them while a search runs (While), with the
// lines that arrive during a search kept for afterwards. NBoard, GTP and the
// shell all read through it; they differ only in what a line does to a
// running search.
type Input struct {
	lines     <-chan textio.Line
	interrupt <-chan struct{}
	pending   []textio.Line
	eof       bool
}

// NewInput reads r until stop is closed. interrupt, if not nil, is a
// person's Ctrl-C: it stops a running search, and when idle it ends the
// input.
func NewInput(r io.Reader, stop, interrupt <-chan struct{}) *Input {
	return &Input{lines: textio.ReadLines(r, stop), interrupt: interrupt}
}

// Next returns the next line, those kept during a search first. ok is false
// at the end of input, or on an interrupt while idle.
func (in *Input) Next() (l textio.Line, ok bool) {
	if len(in.pending) > 0 {
		l, in.pending = in.pending[0], in.pending[1:]
		return l, true
	}
	if in.eof {
		return textio.Line{}, false
	}
	select {
	case l, ok = <-in.lines:
		if !ok {
			in.eof = true
		}
		return l, ok
	case <-in.interrupt:
		return textio.Line{}, false
	}
}

// MaxPending bounds the lines kept during a search. Past it the input is
// not read until the search ends, so that a script piped faster than the
// engine answers waits in the pipe instead of in memory (a session of
// 300,000 NBoard lines held them all). A GUI never queues that many; a line
// past the bound is watched when the search ends.
const MaxPending = 4096

// A Watch says what a line that arrives during a search does: stop the
// search or let it go on, and keep the line for Next or drop it (the watch
// has dealt with it).
type Watch func(l textio.Line) (stop, keep bool)

// Keep lets the search go on and keeps every line for afterwards.
func Keep(textio.Line) (stop, keep bool) { return false, true }

// While runs search on its own goroutine and watches the input until it
// returns: each line that arrives goes to watch (nil: Keep), an interrupt
// stops the search. At the end of input the search is allowed to finish,
// so that a piped script gets its answer. stopped reports that the search
// was stopped by a line or an interrupt.
func (in *Input) While(search func(ctx context.Context), watch Watch) (stopped bool) {
	if watch == nil {
		watch = Keep
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		search(ctx)
	}()
	// Lines that came while an earlier search was stopping are watched
	// first, in order, as if they arrived now: a queued "ping" or "quit"
	// must stop this search too, or it would wait for the search to end
	// by itself (at depth 40, never).
	kept := in.pending[:0:0]
	for _, l := range in.pending {
		stop, keep := watch(l)
		if keep {
			kept = append(kept, l)
		}
		if stop && !stopped {
			cancel()
			stopped = true
		}
	}
	in.pending = kept
	for {
		lines := in.lines
		if in.eof || len(in.pending) >= MaxPending {
			lines = nil
		}
		select {
		case <-done:
			return stopped
		case <-in.interrupt:
			cancel()
			stopped = true
		case l, ok := <-lines:
			if !ok {
				in.eof = true
				continue
			}
			stop, keep := watch(l)
			if keep {
				in.pending = append(in.pending, l)
			}
			if stop {
				cancel()
				stopped = true
			}
		}
	}
}
