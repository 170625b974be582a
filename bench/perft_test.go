package bench

import (
	"fmt"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// BenchmarkPerft times perft from the start, one thread, no hash, at the
// depths the speed target names (12 and 13 take seconds to a minute each:
// run with -bench Perft -benchtime 1x). Counts are checked against the known
// values, so a fast wrong generator cannot pass as a fast one.
func BenchmarkPerft(b *testing.B) {
	want := map[int]uint64{10: 24571284, 11: 212258800, 12: 1939886636, 13: 18429641748}
	b.Logf("%s; path: %s", CPULine(), bitboard.AsmPath())
	for _, d := range []int{10, 11, 12, 13} {
		b.Run(fmt.Sprint(d), func(b *testing.B) {
			var leaves uint64
			for b.Loop() {
				n := bitboard.Perft(bitboard.Start(), d, true)
				if n != want[d] {
					b.Fatalf("perft(%d) = %d, want %d", d, n, want[d])
				}
				leaves += n
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}

func TestCPULine(t *testing.T) {
	if l := CPULine(); len(l) < 10 {
		t.Errorf("CPULine() = %q", l)
	}
}
