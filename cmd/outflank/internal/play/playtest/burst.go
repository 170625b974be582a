package playtest

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// HeapPeak samples the Go heap every 20 ms, from a collected start, until
// the returned function is called, which returns the highest samples above
// the start: live, the heap still reachable (each sample collects first, so
// it does not depend on when the collector happens to run), and inUse, the
// heap's spans as the process holds them, garbage included. The front
// ends' burst tests read them to check that input kept during a search is
// bounded in bytes.
func HeapPeak() (stop func() (live, inUse uint64)) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	baseLive, baseInUse := ms.HeapAlloc, ms.HeapInuse
	var peakLive, peakInUse atomic.Uint64
	above := func(v, base uint64, peak *atomic.Uint64) {
		if v > base && v-base > peak.Load() {
			peak.Store(v - base)
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			above(m.HeapInuse, baseInUse, &peakInUse)
			runtime.GC()
			runtime.ReadMemStats(&m)
			above(m.HeapAlloc, baseLive, &peakLive)
			select {
			case <-done:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return func() (uint64, uint64) {
		close(done)
		<-finished
		return peakLive.Load(), peakInUse.Load()
	}
}

// Burst writes n lines of prefix followed by filler up to size bytes: the
// flood a careless script or a hostile peer sends during a search.
func Burst(w io.Writer, n, size int, prefix string) error {
	line := []byte(prefix + strings.Repeat("x", max(0, size-len(prefix))) + "\n")
	for range n {
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return nil
}

// Memory says how much memory the process holds, for the soaks' reports:
// the resident set where the system tells it (Linux's /proc), and the Go
// heap in use.
func Memory() string {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := fmt.Sprintf("heap %d MiB", ms.HeapInuse>>20)
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return heap
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kb int
			fmt.Sscan(rest, &kb)
			return fmt.Sprintf("RSS %d MiB, %s", kb>>10, heap)
		}
	}
	return heap
}

// BurstThenQuit is the front ends' burst test: with a search running that
// would never end by itself, it writes n lines of about 1 MiB (prefix,
// then filler) to w, then quit, and waits for the session to end (done
// closed). It fails t if the live heap grew by more than 128 MiB — what is
// kept is bounded by play.MaxPendingBytes (4 MiB); the lines in flight and
// what is allocated while a sample collects add some tens of MiB, not
// growing with the burst, where before the bound every line was kept — or
// if the quit took more than 250 ms.
func BurstThenQuit(t testing.TB, w io.Writer, done <-chan struct{}, n int, prefix, quit string) {
	t.Helper()
	peak := HeapPeak()
	if err := Burst(w, n, 1_048_000, prefix); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	io.WriteString(w, quit+"\n")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("quit after the burst not honoured within 10 s")
	}
	took := time.Since(t0)
	live, inUse := peak()
	t.Logf("%d lines of 1 MiB: live heap peak +%d MiB (in use +%d MiB), quit answered in %v", n, live>>20, inUse>>20, took)
	if live > 128<<20 {
		t.Errorf("the live heap grew by %d MiB during the burst, want under 128", live>>20)
	}
	if took > 250*time.Millisecond {
		t.Errorf("quit took %v", took)
	}
}
