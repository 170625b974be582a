//go:build !wasm

package tt

import "sync/atomic"

// load and store are a slot word's atomic read and write: concurrent
// searches share the table (the package's doc says why a torn entry is
// harmless). Both compile to one instruction on amd64 and arm64.
func load(p *uint64) uint64 { return atomic.LoadUint64(p) }

func store(p *uint64, v uint64) { atomic.StoreUint64(p, v) }
