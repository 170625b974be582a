package nboard

import (
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
)

// These tests replay what the NBoard GUI does with the engine's lines
// (read from its source, weltyc/nboard): one name in the title, the status
// bar, the hint table (one entry per square), the analysis graph.

// TestOneName: NBoard titles the engine with its "set myname"; one process
// that is both opponent (depth 12) and analyst (depth 20) gets depth
// changes from both, and must keep one name.
func TestOneName(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 12")
	first, _ := h.expect("set myname ")
	h.send("set depth 20")
	second, _ := h.expect("set myname ")
	h.send("set depth 1")
	third, _ := h.expect("set myname ")
	if first != second || second != third || strings.ContainsAny(strings.TrimPrefix(first, "set myname "), " \t") {
		t.Errorf("names %q, %q, %q: want one one-word name", first, second, third)
	}
}

// TestErrorsInStatus: NBoard shows no stderr (it merges it into the
// engine's output and drops what it does not parse) but shows "status"
// text; an error the user must know arrives there, and a learn failure
// comes after "learned", which clears the status.
func TestErrorsInStatus(t *testing.T) {
	h := startSessionConfig(t, &playtest.Greedy{}, Config{Name: "Outflank"}) // no book: learn fails
	h.send("nboard 2", "move A1", "ping 1")
	_, before := h.expect("pong 1")
	if !hasPrefix(before, "status move: A1 not played") {
		t.Errorf("illegal move: no status line in %q", before)
	}
	h.send("learn", "ping 2")
	_, before = h.expect("pong 2")
	i, j := index(before, "learned"), index(before, "status learn: ")
	if i < 0 || j < i {
		t.Errorf("learn failure: want \"learned\" then a status line, got %q", before)
	}
}

func index(lines []string, prefix string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	return -1
}
