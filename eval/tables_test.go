package eval

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// newTable's memory starts zeroed (newPattern fills it without clearing),
// is as long as asked and starts on a huge-page boundary; on Linux the
// test logs how much of the embedded weights' tables the kernel backed
// with huge pages (a property of the host's THP settings, not asserted).
func TestNewTable(t *testing.T) {
	const n = 3*fullStride + 5
	w := newTable(n)
	if len(w) != n || cap(w) != n {
		t.Fatalf("len %d cap %d, want %d", len(w), cap(w), n)
	}
	for i, v := range w {
		if v != 0 {
			t.Fatalf("w[%d] = %d, want 0", i, v)
		}
	}
	if uintptr(unsafe.Pointer(&w[0]))%hugePage != 0 {
		t.Errorf("table at %p, not on a 2 MB boundary", &w[0])
	}
	e := Default()
	if b, err := os.ReadFile("/proc/self/smaps"); err == nil {
		start := uintptr(unsafe.Pointer(&e.full[0]))
		in := false
		for _, l := range strings.Split(string(b), "\n") {
			var lo, hi uintptr
			if _, err := fmt.Sscanf(l, "%x-%x", &lo, &hi); err == nil && strings.Contains(l, " rw") {
				in = lo <= start && start < hi
			}
			if f := strings.Fields(l); in && len(f) == 3 && f[0] == "AnonHugePages:" {
				t.Logf("the embedded weights' tables (%d MB) lie in a mapping with %s kB on huge pages", 2*len(e.full)>>20, f[1])
			}
		}
	}
}

// Patterns built and dropped one after another give their tables back
// (40 of them take 2.4 GB of tables at 30 stages; the resident memory stays
// near a few), and a table read after collections still sees its weights.
func TestTablesFreed(t *testing.T) {
	e := Default()
	want := e.Evaluate(0x0000001008000000, 0x0000000810000000)
	packed := e.Packed()
	for range 40 {
		f, err := FromPacked(packed, e.Stages())
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		if got := f.Evaluate(0x0000001008000000, 0x0000000810000000); got != want {
			t.Fatalf("rebuilt evaluation %d, want %d", got, want)
		}
	}
	runtime.GC()
	time.Sleep(100 * time.Millisecond) // cleanups run on their own goroutine
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmRSS:" {
			kb, _ := strconv.Atoi(f[1])
			t.Logf("resident %d MB", kb>>10)
			if kb > 800<<10 {
				t.Errorf("resident %d MB after 40 Patterns dropped: their tables are not freed", kb>>10)
			}
		}
	}
}
