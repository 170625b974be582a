//go:build js

package eval

import "time"

// yieldToHost pauses for a moment between the stages of a Pattern's
// expansion (newPattern). The browser build reads its weights while it
// already serves the page (the book's moves need none), and Go compiled to
// WebAssembly runs on one thread without preemption, returning to the
// page's events only when every goroutine waits: without a pause the
// page's requests would wait for the whole expansion (0.5-1.4 s). A sleep
// hands the thread to the event loop, a few milliseconds for the 30 stages.
func yieldToHost() { time.Sleep(time.Microsecond) }
