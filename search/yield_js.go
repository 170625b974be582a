//go:build js

package search

import "time"

// yieldNodes is how many nodes a search in the browser runs between pauses.
const yieldNodes = 1 << 17

// yieldToHost pauses for a moment every yieldNodes nodes. Go compiled to
// WebAssembly runs on one thread without preemption, so without a pause
// neither the timer that ends a timed search nor the page's stop (a
// JavaScript event) would be seen before the search ends by itself; a
// sleep hands the thread to the event loop (a few milliseconds a pause,
// about every 0.1 s of search).
func (s *searcher) yieldToHost() {
	if s.nodes&(yieldNodes-1) < pollInterval {
		time.Sleep(time.Microsecond)
	}
}
