package tt

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkProbeStore mixes probes and stores over random keys in a 64 MiB
// table, the access pattern of a search (mostly cache misses).
func BenchmarkProbeStore(b *testing.B) {
	t := New(64)
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, 1<<16)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	i := 0
	hits := 0
	for b.Loop() {
		k := keys[i&(len(keys)-1)]
		if _, ok := t.Probe(k); ok {
			hits++
		} else {
			t.Store(k, Entry{Lower: -2, Upper: 4, Depth: uint8(i & 31), Move: uint8(i & 63)})
		}
		i++
	}
	_ = hits
}
