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
			lines[i] = mangle(r, words[r.IntN(len(words))])
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

// mangle sometimes spoils a line the way a careless peer or a bad pipe
// does: a CRLF ending, a NUL or bytes that are not UTF-8 inside it, a
// long tail (up to 64 KiB), or, rarely, a line past textio.MaxLine. Lines
// that quit are left alone, so that the sessions' own checks of whether a
// script quits still hold.
func mangle(r *rand.Rand, line string) string {
	if strings.Contains(line, "quit") {
		return line
	}
	cut := r.IntN(len(line) + 1)
	switch k := r.IntN(1000); {
	case k < 40:
		return line + "\r"
	case k < 60:
		return line[:cut] + "\x00" + line[cut:]
	case k < 80:
		return line[:cut] + "\xff\xfe" + line[cut:]
	case k < 90:
		return line + " " + strings.Repeat("x", 1+r.IntN(64<<10))
	case k < 91:
		return line + " " + strings.Repeat("y", 1<<20)
	}
	return line
}
