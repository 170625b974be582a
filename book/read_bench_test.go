package book

import "testing"

// BenchmarkRead reads the embedded default book: the engine's start (the
// browser build's first move waits for it).
func BenchmarkRead(b *testing.B) {
	for b.Loop() {
		if _, err := Read(defaultBook); err != nil {
			b.Fatal(err)
		}
	}
}
