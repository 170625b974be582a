//go:build wasm

package tt

// load and store are plain here: Go compiled to WebAssembly runs on one
// thread, and its sync/atomic does exactly this, but behind two calls per
// access that V8 does not inline (7% of a search's time in the browser
// build, node --cpu-prof).
func load(p *uint64) uint64 { return *p }

func store(p *uint64, v uint64) { *p = v }
