//go:build !js

package search

// yieldToHost is needed only in the browser (yield_js.go); here the
// runtime preempts and other threads run the timers.
func (s *searcher) yieldToHost() {}
