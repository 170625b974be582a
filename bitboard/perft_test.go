package bitboard

import "testing"

// Known perft counts from the standard start (../shared/testdata/perft.md,
// copied to testdata/perft.md).
var perftStandard = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, 1939886636, 18429641748, 184042084512}
var perftFreeCounts = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005320, 24571420, 212260880, 1939899208, 18429791868, 184043158384}

func TestPerft(t *testing.T) {
	max := 10
	if testing.Short() {
		max = 9
	}
	for d := 1; d <= max; d++ {
		if got := Perft(Start(), d, true); got != perftStandard[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, perftStandard[d])
		}
		if got := Perft(Start(), d, false); got != perftFreeCounts[d] {
			t.Errorf("perft(%d) passes free = %d, want %d", d, got, perftFreeCounts[d])
		}
	}
}

func TestPerftDivideSums(t *testing.T) {
	var sum uint64
	for _, n := range PerftDivide(Start(), 6, true) {
		sum += n
	}
	if sum != perftStandard[6] {
		t.Errorf("divide(6) sums to %d, want %d", sum, perftStandard[6])
	}
}

func BenchmarkPerft(b *testing.B) {
	for _, d := range []int{9, 10} {
		b.Run(string(rune('0'+d/10))+string(rune('0'+d%10)), func(b *testing.B) {
			var leaves uint64
			for b.Loop() {
				leaves += Perft(Start(), d, true)
			}
			b.ReportMetric(float64(leaves)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
		})
	}
}
