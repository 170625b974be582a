package playtest

import (
	"math/rand/v2"
	"strings"
	"sync"
)

// Storm sends sessions of 1 to 40 lines, each drawn from words (good and
// bad commands of a protocol), through session, one burst a session,
// until n lines have gone; the draws depend on n alone, so a failing run
// repeats. session returns how many lines it sent around the script (a
// handshake, a closing ping), which count too. The front ends' TestStorm
// and their long documented runs call it.
func Storm(n int, words []string, session func(script string) (extra int)) (sent, sessions int) {
	r := rand.New(rand.NewPCG(uint64(n), 40))
	for sent < n {
		k := 1 + r.IntN(40)
		lines := make([]string, k)
		for i := range lines {
			lines[i] = words[r.IntN(len(words))]
		}
		sent += k + session(strings.Join(lines, "\n"))
		sessions++
	}
	return sent, sessions
}

// SyncBuffer is a strings.Builder that a session's writers (its replies,
// its search reports) share.
type SyncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *SyncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *SyncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
