package play_test

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
)

// untilStopped is a search that runs until it is stopped (or a minute).
func untilStopped(stopped *bool) func(ctx context.Context) {
	return func(ctx context.Context) {
		select {
		case <-ctx.Done():
			*stopped = true
		case <-time.After(time.Minute):
		}
	}
}

func TestInputWhile(t *testing.T) {
	r, w := io.Pipe()
	stop := make(chan struct{})
	defer close(stop)
	in := play.NewInput(r, stop, nil)
	go io.WriteString(w, "a\nb\nstop\nc\n")
	var searchStopped bool
	watch := func(l textio.Line) (stop, keep bool) {
		if l.Text == "stop" {
			return true, true
		}
		return false, l.Text != "b" // b is dealt with by the watch
	}
	if !in.While(untilStopped(&searchStopped), watch) || !searchStopped {
		t.Fatal("the stop line did not stop the search")
	}
	for _, want := range []string{"a", "stop", "c"} {
		if l, ok := in.Next(); !ok || l.Text != want {
			t.Fatalf("next: %q %v, want %q", l.Text, ok, want)
		}
	}
	// At the end of input a search runs to its end.
	w.Close()
	done := false
	if in.While(func(context.Context) { time.Sleep(10 * time.Millisecond); done = true }, nil) || !done {
		t.Error("the end of input stopped the search")
	}
	if _, ok := in.Next(); ok {
		t.Error("a line after the end of input")
	}
}

func TestInputInterrupt(t *testing.T) {
	intr := make(chan struct{}, 1)
	stop := make(chan struct{})
	defer close(stop)
	r, w := io.Pipe()
	defer w.Close()
	in := play.NewInput(r, stop, intr)
	intr <- struct{}{}
	var searchStopped bool
	if !in.While(untilStopped(&searchStopped), nil) || !searchStopped {
		t.Fatal("the interrupt did not stop the search")
	}
	intr <- struct{}{}
	if _, ok := in.Next(); ok {
		t.Error("an interrupt while idle did not end the input")
	}
}

// TestInputQueuedStop: lines that arrived while one search was stopping
// must stop the next search at once, not wait for it to end by itself (an
// NBoard GUI that sends "hint", "hint", "ping" froze on this).
func TestInputQueuedStop(t *testing.T) {
	r, w := io.Pipe()
	stop := make(chan struct{})
	defer close(stop)
	in := play.NewInput(r, stop, nil)
	arrived := make(chan struct{})
	go func() {
		io.WriteString(w, "go\n")
		io.WriteString(w, "go\nping\n")
		close(arrived)
	}()
	watch := func(textio.Line) (stop, keep bool) { return true, true }
	if l, ok := in.Next(); !ok || l.Text != "go" {
		t.Fatalf("first line %q %v", l.Text, ok)
	}
	// The first search sees the second "go" and stops; "ping" may come
	// while it is stopping, so it waits until both are in.
	first := false
	in.While(func(ctx context.Context) {
		<-ctx.Done()
		<-arrived
		time.Sleep(10 * time.Millisecond)
		first = true
	}, watch)
	if !first {
		t.Fatal("first search not run")
	}
	if l, ok := in.Next(); !ok || l.Text != "go" {
		t.Fatalf("second line %q %v", l.Text, ok)
	}
	var second bool
	done := make(chan bool, 1)
	go func() { done <- in.While(untilStopped(&second), watch) }()
	select {
	case stopped := <-done:
		if !stopped || !second {
			t.Fatal("the queued ping did not stop the second search")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second search ignored the queued ping (hang)")
	}
	if l, ok := in.Next(); !ok || l.Text != "ping" {
		t.Fatalf("third line %q %v", l.Text, ok)
	}
}

// A search during which far more input arrives than MaxPendingBytes keeps
// reading (a ping after the flood still stops the search), keeps the lines
// that fit in order, and stands one drop notice, with the count, for the
// lines past the bound.
func TestInputPendingBounded(t *testing.T) {
	r, w := io.Pipe()
	stop := make(chan struct{})
	defer close(stop)
	in := play.NewInput(r, stop, nil)
	const n = 20_000
	line := strings.Repeat("x", 1000)
	go func() {
		for i := range n {
			fmt.Fprintf(w, "%d %s\n", i, line)
		}
		io.WriteString(w, "ping\nafter\n")
		w.Close()
	}()
	watch := func(l textio.Line) (stop, keep bool) { return l.Text == "ping", true }
	var stopped bool
	if !in.While(untilStopped(&stopped), watch) || !stopped {
		t.Fatal("the ping after the flood did not stop the search")
	}
	kept, bytes := 0, 0
	for {
		l, ok := in.Next()
		if !ok {
			t.Fatal("the input ended before the ping")
		}
		if l.Dropped > 0 {
			if kept+l.Dropped != n || !strings.HasPrefix(l.Text, strconv.Itoa(kept)+" x") {
				t.Fatalf("after %d kept lines, a notice of %d dropped starting %q; want %d", kept, l.Dropped, l.Text, n-kept)
			}
			if !strings.Contains(play.DropMessage(l), strconv.Itoa(l.Dropped)+" lines dropped") {
				t.Errorf("message %q", play.DropMessage(l))
			}
			break
		}
		if !strings.HasPrefix(l.Text, strconv.Itoa(kept)+" ") {
			t.Fatalf("line %d is %q", kept, l.Text[:min(len(l.Text), 20)])
		}
		kept++
		bytes += len(l.Text)
	}
	if bytes > play.MaxPendingBytes || bytes < play.MaxPendingBytes*9/10 {
		t.Errorf("%d bytes kept, want just under %d", bytes, play.MaxPendingBytes)
	}
	if l, ok := in.Next(); !ok || l.Text != "ping" {
		t.Fatalf("got %q %v, want the ping", l.Text, ok)
	}
	// The line after the ping came during the search (kept past the bound
	// only as a notice) or after it.
	if l, ok := in.Next(); !ok || l.Text != "after" {
		t.Fatalf("got %q %v, want the line after the ping", l.Text, ok)
	}
}

// A line longer than MaxSearchLine that arrives during a search is read
// only in part and reported as dropped, even with room to keep it; a
// shorter one is kept whole, and after the search long lines are read
// whole again.
func TestInputLongLineDuringSearch(t *testing.T) {
	r, w := io.Pipe()
	stop := make(chan struct{})
	defer close(stop)
	in := play.NewInput(r, stop, nil)
	long := "set game " + strings.Repeat("x", play.MaxSearchLine)
	short := "set game " + strings.Repeat("y", 1000)
	started, after := make(chan struct{}), make(chan struct{})
	go func() {
		<-started // the reader reads a line ahead: the first one is sent during the search
		io.WriteString(w, "first\n"+long+"\n"+short+"\nping\n")
		<-after
		io.WriteString(w, long+"\n")
		w.Close()
	}()
	watch := func(l textio.Line) (stop, keep bool) { return l.Text == "ping", true }
	var stopped bool
	in.While(func(ctx context.Context) { close(started); untilStopped(&stopped)(ctx) }, watch)
	close(after)
	if l, _ := in.Next(); l.Text != "first" {
		t.Fatalf("got %.20q first", l.Text)
	}
	l, _ := in.Next()
	if l.Dropped != 1 || !strings.HasPrefix(l.Text, "set game xxx") || len(l.Text) > 64 {
		t.Fatalf("the long line: %d dropped, %d bytes kept", l.Dropped, len(l.Text))
	}
	if l, _ := in.Next(); l.Text != short {
		t.Fatalf("the short line: %.20q", l.Text)
	}
	if l, _ := in.Next(); l.Text != "ping" {
		t.Fatalf("got %.20q, want the ping", l.Text)
	}
	if l, _ := in.Next(); l.Text != long {
		t.Fatalf("after the search a long line is read whole; got %d bytes, dropped %d", len(l.Text), l.Dropped)
	}
}
