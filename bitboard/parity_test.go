package bitboard

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestOrder4 checks the parity order against its definition: the squares
// alone in their quadrant, then those in a quadrant of three, then the
// others, each group in ascending order.
func TestOrder4(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 5000 {
		var e uint64
		for bits.OnesCount64(e) < 4 {
			e |= 1 << uint(r.IntN(64))
		}
		var count [4]int
		for m := e; m != 0; m &= m - 1 {
			count[quadrantOf[bits.TrailingZeros64(m)]]++
		}
		var want []Square
		for _, c := range []int{1, 3, 2, 4} {
			for m := e; m != 0; m &= m - 1 {
				x := Square(bits.TrailingZeros64(m))
				if count[quadrantOf[x]] == c {
					want = append(want, x)
				}
			}
		}
		x1, x2, x3, x4 := ParityOrder4(e)
		if got := []Square{x1, x2, x3, x4}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
			t.Fatalf("empties %x: %v, want %v", e, got, want)
		}
	}
}
