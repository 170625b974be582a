package search

import "math/bits"

// Counting the flips of the last move. With one empty square x every other
// square holds a disc, so along each line through x the flips are fixed by
// where the mover's discs lie: an 8-bit index per line into a table gives
// the count, and no board needs to be built.

// lastFlips[i][line] is the number of discs flipped along an 8-square line
// by a move at index i, when line (8 bits) marks the mover's discs and all
// other squares but i hold the opponent's.
var lastFlips = func() (t [8][256]uint8) {
	for i := range 8 {
		for line := range 256 {
			n := 0
			for _, d := range [2]int{-1, 1} {
				k, j := 0, i+d
				for j >= 0 && j < 8 && line&(1<<j) == 0 {
					k++
					j += d
				}
				if j >= 0 && j < 8 && k > 0 {
					n += k
				}
			}
			t[i][line] = uint8(n)
		}
	}
	return t
}()

// diagMask[x] and antiMask[x] are the two diagonals through x (c-r and c+r
// constant); a diagonal has at most one square per column, so multiplying
// by 0x0101010101010101 gathers it, by column, into the top byte.
var diagMask, antiMask = func() (d, a [64]uint64) {
	for x := range 64 {
		c, r := x%8, x/8
		for sq := range 64 {
			c2, r2 := sq%8, sq/8
			if c2-r2 == c-r {
				d[x] |= 1 << uint(sq)
			}
			if c2+r2 == c+r {
				a[x] |= 1 << uint(sq)
			}
		}
	}
	return
}()

// countLastFlips returns how many discs p flips by playing x when x is the
// only empty square.
func countLastFlips(p uint64, x int) int {
	c, r := uint(x&7), uint(x>>3)
	n := lastFlips[c][uint8(p>>(8*r))] +
		lastFlips[r][packColumn(p, c)] +
		lastFlips[c][uint8((p&diagMask[x])*0x0101010101010101>>56)] +
		lastFlips[c][uint8((p&antiMask[x])*0x0101010101010101>>56)]
	return int(n)
}

// last1 scores the position with one empty square x.
func (s *searcher) last1(p, o uint64, x int) int {
	s.nodes++
	n := bits.OnesCount64(p)
	if f := countLastFlips(p, x); f != 0 {
		return 2*(n+f) - 62
	}
	if f := countLastFlips(o, x); f != 0 {
		return 2*(n-f) - 64
	}
	if n > 31 { // nobody can move; 2n-63 is odd, never a draw
		return 2*n - 62
	}
	return 2*n - 64
}
