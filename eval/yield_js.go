//go:build js

package eval

import "time"

// yieldToHost pauses for a moment between the steps of reading weights
// (decode: the payload, its checksum; newPattern: each stage's
// expansion). The browser build reads its weights while it already serves
// the page (the book's moves need none), and Go compiled to
// WebAssembly runs on one thread without preemption, returning to the
// page's events only when every goroutine waits: without a pause the
// page's requests would wait for the whole expansion (0.5-1.4 s). A sleep
// hands the thread to the event loop: 32 pauses of a few milliseconds.
func yieldToHost() { time.Sleep(time.Microsecond) }
