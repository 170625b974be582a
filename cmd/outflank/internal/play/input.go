package play

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

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
	kept      int // bytes of pending, by lineCost
	eof       bool
	// interrupted: a Ctrl-C stopped a ponder (PonderWhileIdle); the next
	// read ends the input, as a Ctrl-C while idle does.
	interrupted bool
	// full tells the reader that no long line can be kept, searching that
	// a search runs: it then reads on holding only the start of lines
	// longer than it can use (textio.ReadLinesLimited), so that a flood
	// makes neither memory nor garbage.
	full, searching atomic.Bool
}

// MaxSearchLine is the longest line kept whole while a search runs: far
// more than any command a GUI sends then (a GGF game is a few KiB); a
// longer one is reported as dropped.
const MaxSearchLine = 64 << 10

// NewInput reads r until stop is closed. interrupt, if not nil, is a
// person's Ctrl-C: it stops a running search, and when idle it ends the
// input.
func NewInput(r io.Reader, stop, interrupt <-chan struct{}) *Input {
	in := &Input{interrupt: interrupt}
	in.lines = textio.ReadLinesLimited(r, stop, in.lineLimit)
	return in
}

// lineLimit is the longest line the reader keeps whole now.
func (in *Input) lineLimit() int {
	switch {
	case in.full.Load():
		return textio.ClipLen
	case in.searching.Load():
		return MaxSearchLine
	}
	return textio.MaxLine
}

// Next returns the next line, those kept during a search first. ok is false
// at the end of input, or on an interrupt while idle.
func (in *Input) Next() (l textio.Line, ok bool) {
	if len(in.pending) > 0 {
		l, in.pending = in.pending[0], in.pending[1:]
		in.kept -= lineCost(l)
		if len(in.pending) == 0 {
			in.pending, in.kept = nil, 0 // let a large burst's array go
		}
		in.full.Store(in.kept >= MaxPendingBytes)
		return l, true
	}
	if in.eof {
		return textio.Line{}, false
	}
	if in.interrupted {
		in.interrupted = false
		return textio.Line{}, false
	}
	select {
	case l, ok = <-in.lines:
		if !ok {
			in.eof = true
		}
		if l.Clipped {
			// Read in part during a search that ended before the line
			// did: a command cut short is not run but reported.
			l = textio.Line{Text: clipLine(l.Text), Dropped: 1}
		}
		return l, ok
	case <-in.interrupt:
		return textio.Line{}, false
	}
}

// MaxPendingBytes bounds the input kept while a search runs, the lines
// that will run after it. Reading never stops, so that a control line
// (ping, quit, an interrupt) is seen at once however much came before it;
// a line that would take the kept input past the bound is dropped, and the
// front end is told by a Line whose Dropped counts the lines dropped in a
// row. A GUI never queues a fraction of this; a script piped faster than
// the engine answers may lose lines past it, and is told so.
const MaxPendingBytes = 4 << 20

// controlReserve is kept beyond MaxPendingBytes for the lines that stop a
// search (the watch says stop): a ping or a quit that arrives after a
// flood of other lines still runs, up to this many bytes of them.
const controlReserve = 256 << 10

// lineCost is what a kept line counts against the bound: its text and
// about what the slice, the string header and its allocation cost, so that
// a flood of empty lines is bounded too.
func lineCost(l textio.Line) int { return len(l.Text) + 64 }

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
	in.searching.Store(true)
	defer in.searching.Store(false)
	done := make(chan struct{})
	go func() {
		defer close(done)
		search(ctx)
	}()
	// Lines that came while an earlier search was stopping are watched
	// first, in order, as if they arrived now: a queued "ping" or "quit"
	// must stop this search too, or it would wait for the search to end
	// by itself (at depth 40, never).
	old := in.pending
	in.pending, in.kept = nil, 0
	for _, l := range old {
		if l.Dropped > 0 {
			in.pending = append(in.pending, l)
			in.kept += lineCost(l)
			continue
		}
		if in.watchLine(l, watch) && !stopped {
			cancel()
			stopped = true
		}
	}
	for {
		lines := in.lines
		if in.eof {
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
			if in.watchLine(l, watch) && !stopped {
				cancel()
				stopped = true
			}
		}
	}
}

// watchLine gives l to watch and keeps it if watch says so and the bound
// allows; a line past the bound joins the drop notice at the end of the
// kept lines, or starts one. It reports whether l stops the search.
func (in *Input) watchLine(l textio.Line, watch Watch) (stop bool) {
	stop, keep := watch(l)
	if !keep {
		return stop
	}
	limit := MaxPendingBytes
	if stop {
		limit += controlReserve
	}
	if !l.Clipped && in.kept+lineCost(l) <= limit {
		in.pending = append(in.pending, l)
		in.kept += lineCost(l)
		in.full.Store(in.kept >= MaxPendingBytes)
		return stop
	}
	// Past the bound, or read only in part: one more line of the drop
	// notice. Only the bound makes the reader clip the lines after it; a
	// line over MaxSearchLine leaves them whole (a shorter line that
	// follows it is kept, whether the reader reached it before or after).
	if !l.Clipped {
		in.full.Store(true)
	}
	if k := len(in.pending) - 1; k >= 0 && in.pending[k].Dropped > 0 {
		in.pending[k].Dropped++
		return stop
	}
	// A notice holds only the start of the line, and notices alternate
	// with kept lines, so they are bounded with them.
	in.pending = append(in.pending, textio.Line{Text: clipLine(l.Text), Dropped: 1})
	in.kept += lineCost(in.pending[len(in.pending)-1])
	return stop
}

// clipLine keeps the start of a dropped line, enough to name it (and a GTP
// command's id).
func clipLine(s string) string {
	if len(s) > 40 {
		s = s[:40]
	}
	return strings.Clone(s) // not a slice of a long line, which would stay in memory
}

// DropMessage says what a drop notice (a Line with Dropped set) stands
// for, in the words every front end prints.
func DropMessage(l textio.Line) string {
	what := "1 line"
	if l.Dropped > 1 {
		what = fmt.Sprintf("%d lines", l.Dropped)
	}
	return fmt.Sprintf("%s dropped: more than %d MiB of input, or a line over %d KiB, arrived during the search (the first starts %q)", what, MaxPendingBytes>>20, MaxSearchLine>>10, l.Text)
}
