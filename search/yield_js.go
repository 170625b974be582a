//go:build js

package search

import (
	"sync"
	"syscall/js"
	"time"
)

// yieldNodes is how many nodes a search in the browser runs between pauses.
const yieldNodes = 1 << 17

// yieldToHost pauses for a moment every yieldNodes nodes. Go compiled to
// WebAssembly runs on one thread without preemption, so without a pause
// neither the timer that ends a timed search nor the page's stop (a
// JavaScript event) would be seen before the search ends by itself; a
// pause hands the thread to the event loop, about every 0.1 s of search.
func (s *searcher) yieldToHost() {
	if s.nodes&(yieldNodes-1) < pollInterval {
		hostPause()()
	}
}

// hostPause returns the function that hands the thread to the event loop
// and takes it back: a message posted to itself through a MessageChannel,
// which the event loop delivers after the events already waiting. A timer
// (time.Sleep) would do too, but browsers hold a timer set from a timer's
// callback for at least 4 ms once five are nested, as a search's pauses
// are: 30 pauses, 0.12 s, in the 1.8 s of bench/midgame.obf's hints at
// level 10. Where there is no MessageChannel, time.Sleep it is. The
// channel and its callback are made once, for the whole process (there is
// one event loop), and never change.
var hostPause = sync.OnceValue(func() func() {
	mc := js.Global().Get("MessageChannel")
	if mc.Type() != js.TypeFunction {
		return func() { time.Sleep(time.Microsecond) }
	}
	ch := mc.New()
	wake := make(chan struct{}, 1)
	// One token a message; a pause waits for one. The callback must not
	// block: the buffer holds the token of a message no one waits for.
	ch.Get("port1").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case wake <- struct{}{}:
		default:
		}
		return nil
	}))
	port := ch.Get("port2")
	return func() {
		port.Call("postMessage", nil)
		<-wake
	}
})
