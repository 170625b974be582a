package cli

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// ProgressBar shows a long phase's progress: on a terminal a one-line bar
// redrawn a few times a second; elsewhere (a pipe, a log) plain lines, one
// every plainEvery and one at the end of each phase, with no control codes.
type ProgressBar struct {
	w     io.Writer
	off   bool
	tty   bool
	last  time.Time
	shown bool
	start time.Time
	phase string
}

// plainEvery is how often a progress line goes to a pipe or log.
const plainEvery = 10 * time.Second

// NewProgressBar returns a bar writing to w; off shows nothing.
func NewProgressBar(w io.Writer, off bool) *ProgressBar {
	return &ProgressBar{w: w, off: off, tty: IsTerminal(w)}
}

// Show shows done of total in phase.
func (b *ProgressBar) Show(phase string, done, total int) {
	if b.off || total <= 0 {
		return
	}
	now := time.Now()
	every := 200 * time.Millisecond
	if !b.tty {
		every = plainEvery
	}
	if phase != b.phase {
		b.phase, b.start = phase, now
	} else if now.Sub(b.last) < every && done < total {
		return
	}
	b.last = now
	eta := ""
	if el := now.Sub(b.start); done > 0 && done < total && el > time.Second {
		eta = " ETA " + (time.Duration(float64(el) * float64(total-done) / float64(done))).Round(time.Second).String()
	}
	if !b.tty {
		fmt.Fprintf(b.w, "%s: %d%% %d/%d%s\n", phase, done*100/total, done, total, eta)
		return
	}
	const width = 30
	k := done * width / total
	fmt.Fprintf(b.w, "\r%-14s [%s%s] %3d%% %d/%d%s\x1b[K", phase, strings.Repeat("=", k), strings.Repeat(" ", width-k),
		done*100/total, done, total, eta)
	b.shown = true
}

// Clear takes the bar off the terminal, so that a line can be printed.
func (b *ProgressBar) Clear() {
	if b.shown {
		fmt.Fprint(b.w, "\r\x1b[K")
		b.shown = false
	}
}

// StatusLine shows a running status after every step: one line rewritten
// in place on a terminal, else a line a step.
type StatusLine struct {
	w     io.Writer
	tty   bool
	quiet bool
	shown bool // a line is on the terminal without its newline
}

// NewStatusLine returns a status line on w; quiet shows no status (events
// are still printed).
func NewStatusLine(w io.Writer, quiet bool) *StatusLine {
	return &StatusLine{w: w, quiet: quiet, tty: IsTerminal(w)}
}

// Update shows line as the status.
func (p *StatusLine) Update(line string) {
	if p.quiet {
		return
	}
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\033[K", line)
		p.shown = true
		return
	}
	// Not a terminal (a log file): a line a step.
	fmt.Fprintln(p.w, line)
}

// Println prints a whole line (an event) without breaking the status line.
func (p *StatusLine) Println(s string) {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintln(p.w, s)
	p.shown = false
}

// Done ends the status line.
func (p *StatusLine) Done() {
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}
