package main

import (
	"testing"
	"time"
)

// Bursts of commands during a deep search, as a GUI sends them: each front
// end must handle a line that arrives while a search is being stopped as
// soon as the stop completes, answer ping at once and leave on quit,
// whatever is queued. Before this was fixed the NBoard burst never
// answered "pong 1": the queued ping waited for the second hint's search
// to end by itself at depth 40 (the tests ask for 50, which no test machine reaches).

// exitWithin fails unless p ends within d.
func (p *proc) exitWithin(d time.Duration) {
	p.t.Helper()
	select {
	case err := <-p.exit:
		p.exit <- err
	case <-time.After(d):
		p.t.Fatalf("still running %v after quit", d)
	}
}

func TestNBoardBurstDuringStop(t *testing.T) {
	for _, burst := range [][]string{
		{"set depth 50", "hint 1", "hint 1", "ping 1", "quit"},
		{"set depth 50", "hint 1", "go", "hint 2", "ping 1", "quit"},
		{"set depth 50", "go", "go", "go", "ping 1", "quit"},
	} {
		p := start(t, "nboard", "--no-book")
		p.send(append([]string{"nboard 2", "set game (;GM[Othello];)"}, burst...)...)
		t0 := time.Now()
		p.expect("pong 1")
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("%q: pong after %v", burst, d)
		}
		p.exitWithin(5 * time.Second)
	}
}

func TestGTPQuitDuringSearch(t *testing.T) {
	p := start(t, "gtp", "--depth", "50", "--no-book")
	p.send("genmove b", "1 quit")
	p.expect("= ")
	p.expect("=1")
	p.exitWithin(5 * time.Second)
}
