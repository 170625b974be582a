package eval

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

// newTable's memory starts zeroed (newPattern fills it without clearing),
// is as long as asked, and on Linux starts on a huge-page boundary; a
// Pattern's tables outlive many collections while it is in use.
func TestNewTable(t *testing.T) {
	owner := &Pattern{}
	const n = 3*fullStride + 5
	w := newTable(owner, n)
	if len(w) != n {
		t.Fatalf("len %d, want %d", len(w), n)
	}
	for i, v := range w {
		if v != 0 {
			t.Fatalf("w[%d] = %d, want 0", i, v)
		}
	}
	if runtime.GOOS == "linux" && uintptr(unsafe.Pointer(&w[0]))%(2<<20) != 0 {
		t.Errorf("table at %p, not on a 2 MB boundary", &w[0])
	}
	w[n-1] = 7
	runtime.KeepAlive(owner)
}

// Patterns built and dropped one after another give their tables back
// (40 of them map 2.2 GB of tables at 30 stages; the resident memory stays
// near one's), and a table read after collections still sees its weights.
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
				t.Errorf("resident %d MB after 40 Patterns dropped: their tables are not unmapped", kb>>10)
			}
		}
	}
}
