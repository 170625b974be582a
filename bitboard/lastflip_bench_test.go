package bitboard

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// last2Positions are random two-empties positions for the benchmarks.
func last2Positions() (ps [][2]uint64, xs [][2]Square) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 1024 {
		p, o := randomLast(r, 2)
		e := ^(p | o)
		ps = append(ps, [2]uint64{p, o})
		xs = append(xs, [2]Square{Square(bits.TrailingZeros64(e)), Square(63 - bits.LeadingZeros64(e))})
	}
	return
}

func BenchmarkLast2(b *testing.B) {
	ps, xs := last2Positions()
	for _, c := range []struct {
		name string
		f    func(p, o uint64, alpha int, x1, x2 Square) (int, int)
	}{{"dispatch", Last2}, {"go", last2Go}} {
		b.Run(c.name, func(b *testing.B) {
			i, sum := 0, 0
			for b.Loop() {
				v, _ := c.f(ps[i&1023][0], ps[i&1023][1], 0, xs[i&1023][0], xs[i&1023][1])
				sum += v
				i++
			}
			_ = sum
		})
	}
}
