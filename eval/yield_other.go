//go:build !js

package eval

// yieldToHost is needed only in the browser (yield_js.go); here the
// runtime preempts and other threads serve.
func yieldToHost() {}
