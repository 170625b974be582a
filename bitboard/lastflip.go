package bitboard

import "math/bits"

// The last empty squares of an exact solve, where most of a solver's nodes
// are. With one empty square x every other square holds a disc, so along
// each line through x the flips are fixed by where the mover's discs lie:
// an 8-bit index per line into a table gives the count, and no board needs
// to be built (count-last-flip). Last2, Last3 and Last4 solve two to four
// empties in one call, Last5 the children of a five-empties node: in assembly (last_amd64.s, generated) they save the
// calls into Flips that Go cannot inline, a large part of the solver's
// profile, and use the AVX-512 flips where the CPU has them.
//
//go:generate go run gen_last.go

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
// neighbourMask[x] holds the squares next to x: a move at x can flip only
// if one of them holds an opponent disc.
var diagMask, antiMask, neighbourMask = func() (d, a, n [64]uint64) {
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
			if sq != x && c2-c <= 1 && c-c2 <= 1 && r2-r <= 1 && r-r2 <= 1 {
				n[x] |= 1 << uint(sq)
			}
		}
	}
	return
}()

// packColumn gathers column c of b into 8 bits, row r at bit r.
func packColumn(b uint64, c uint) uint8 {
	return uint8(((b >> c) & 0x0101010101010101) * 0x0102040810204080 >> 56)
}

// CountLastFlips returns how many discs p flips by playing x when x is the
// only empty square.
func CountLastFlips(p uint64, x Square) int {
	c, r := uint(x&7), uint(x>>3)
	n := lastFlips[c][uint8(p>>(8*r))] +
		lastFlips[r][packColumn(p, c)] +
		lastFlips[c][uint8((p&diagMask[x&63])*0x0101010101010101>>56)] +
		lastFlips[c][uint8((p&antiMask[x&63])*0x0101010101010101>>56)]
	return int(n)
}

// Last1 returns the final disc difference for p (empties to the winner) of
// the position whose only empty square is x, p to move.
func Last1(p, o uint64, x Square) int {
	n := bits.OnesCount64(p)
	if f := CountLastFlips(p, x); f != 0 {
		return 2*(n+f) - 62
	}
	if f := CountLastFlips(o, x); f != 0 {
		return 2*(n-f) - 64
	}
	if n > 31 { // nobody can move; 2n-63 is odd, never a draw
		return 2*n - 62
	}
	return 2*n - 64
}

// Last2 scores, for p to move, the position whose only empty squares are
// x1 and x2 (tried in that order), under a null window: a score above
// alpha is a lower bound, one at or below alpha an upper bound (fail soft).
// nodes counts the positions visited, this one and those with one empty,
// as the solver counts them.
func Last2(p, o uint64, alpha int, x1, x2 Square) (score, nodes int) {
	return last2Kernel(p, o, alpha, int(x1), int(x2))
}

// last2Portable is last2Go with the kernels' argument types, for the
// dispatch to fall back on.
func last2Portable(p, o uint64, alpha int, x1, x2 int) (score, nodes int) {
	return last2Go(p, o, alpha, Square(x1), Square(x2))
}

// last2Go is the portable form of Last2, and the assembly's reference.
func last2Go(p, o uint64, alpha int, x1, x2 Square) (score, nodes int) {
	const inf = 100 // beyond any score
	nodes = 1
	b1, b2 := uint64(1)<<uint(x1&63), uint64(1)<<uint(x2&63)
	best := -inf
	if neighbourMask[x1&63]&o != 0 {
		if f := flipsGo(p, o, x1); f != 0 {
			nodes++
			best = -Last1(o&^f, p|f|b1, x2)
			if best > alpha {
				return best, nodes
			}
		}
	}
	if neighbourMask[x2&63]&o != 0 {
		if f := flipsGo(p, o, x2); f != 0 {
			nodes++
			return max(best, -Last1(o&^f, p|f|b2, x1)), nodes
		}
	}
	if best != -inf {
		return best, nodes
	}
	// Pass: the opponent moves, p to move after.
	best = inf
	if neighbourMask[x1&63]&p != 0 {
		if f := flipsGo(o, p, x1); f != 0 {
			nodes++
			best = Last1(p&^f, o|f|b1, x2)
			if best <= alpha {
				return best, nodes
			}
		}
	}
	if neighbourMask[x2&63]&p != 0 {
		if f := flipsGo(o, p, x2); f != 0 {
			nodes++
			return min(best, Last1(p&^f, o|f|b2, x1)), nodes
		}
	}
	if best != inf {
		return best, nodes
	}
	return finalScore(p, o), nodes
}

// Last3 is Last2 with three empty squares x1, x2, x3 (tried in that
// order; each child tries the other two in order).
func Last3(p, o uint64, alpha int, x1, x2, x3 Square) (score, nodes int) {
	return last3Kernel(p, o, alpha, int(x1), int(x2), int(x3))
}

// last3Portable is last3Go with the kernels' argument types, for the
// dispatch to fall back on.
func last3Portable(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int) {
	return last3Go(p, o, alpha, Square(x1), Square(x2), Square(x3))
}

// last3Go is the portable form of Last3, and the assembly's reference.
func last3Go(p, o uint64, alpha int, x1, x2, x3 Square) (score, nodes int) {
	const inf = 100 // beyond any score
	nodes = 1
	best := -inf
	for _, m := range [3][3]Square{{x1, x2, x3}, {x2, x1, x3}, {x3, x1, x2}} {
		x := m[0]
		if neighbourMask[x&63]&o == 0 {
			continue
		}
		f := flipsGo(p, o, x)
		if f == 0 {
			continue
		}
		v, n := last2Go(o&^f, p|f|1<<uint(x&63), -alpha-1, m[1], m[2])
		nodes += n
		if v = -v; v > alpha {
			return v, nodes
		}
		best = max(best, v)
	}
	if best != -inf {
		return best, nodes
	}
	if flipsGo(o, p, x1)|flipsGo(o, p, x2)|flipsGo(o, p, x3) != 0 {
		v, n := last3Go(o, p, -alpha-1, x1, x2, x3)
		return -v, nodes + n
	}
	return finalScore(p, o), nodes
}

// Last4 is Last3 with four empty squares x1 to x4 (tried in that order;
// each child tries the other three in order).
func Last4(p, o uint64, alpha int, x1, x2, x3, x4 Square) (score, nodes int) {
	return last4Kernel(p, o, alpha, int(x1), int(x2), int(x3), int(x4))
}

// last4Portable is last4Go with the kernels' argument types, for the
// dispatch to fall back on.
func last4Portable(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int) {
	return last4Go(p, o, alpha, Square(x1), Square(x2), Square(x3), Square(x4))
}

// last4Go is the portable form of Last4, and the assembly's reference.
func last4Go(p, o uint64, alpha int, x1, x2, x3, x4 Square) (score, nodes int) {
	const inf = 100 // beyond any score
	nodes = 1
	best := -inf
	for _, m := range [4][4]Square{{x1, x2, x3, x4}, {x2, x1, x3, x4}, {x3, x1, x2, x4}, {x4, x1, x2, x3}} {
		x := m[0]
		if neighbourMask[x&63]&o == 0 {
			continue
		}
		f := flipsGo(p, o, x)
		if f == 0 {
			continue
		}
		v, n := last3Go(o&^f, p|f|1<<uint(x&63), -alpha-1, m[1], m[2], m[3])
		nodes += n
		if v = -v; v > alpha {
			return v, nodes
		}
		best = max(best, v)
	}
	if best != -inf {
		return best, nodes
	}
	if flipsGo(o, p, x1)|flipsGo(o, p, x2)|flipsGo(o, p, x3)|flipsGo(o, p, x4) != 0 {
		v, n := last4Go(o, p, -alpha-1, x1, x2, x3, x4)
		return -v, nodes + n
	}
	return finalScore(p, o), nodes
}

// finalScore is the score for p of a finished game: the disc difference,
// the empty squares going to the winner.
func finalScore(p, o uint64) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	switch {
	case np > no:
		return 64 - 2*no
	case np < no:
		return 2*np - 64
	}
	return 0
}

// Last5Pass is Last5's score when p has no move. The caller then decides
// between a pass and the game's end: it owns the five-empties position
// itself (its node, its stability cutoff), Last5 only its children.
const Last5Pass = -100

// Last5 searches, for p to move, the position whose five empty squares are
// g1 | g2 | g3: the moves in g1 first, then in g2, then in g3, each group
// in ascending order (the caller's parity order), each child solved by
// Last4 with its four empties in ParityOrder4's order. The window and the
// score are Last2's (null window at alpha, fail soft), but nodes counts
// the children's nodes only, and a p with no move gets Last5Pass. In
// assembly it saves, per child, the calls that Go makes into Flips,
// ParityOrder4 and Last4.
func Last5(p, o uint64, alpha int, g1, g2, g3 uint64) (score, nodes int) {
	return last5Kernel(p, o, alpha, g1, g2, g3)
}

// last5Go is the portable form of Last5, and the assembly's reference.
func last5Go(p, o uint64, alpha int, g1, g2, g3 uint64) (score, nodes int) {
	best := Last5Pass
	for _, g := range [3]uint64{g1, g2, g3} {
		for ; g != 0; g &= g - 1 {
			x := Square(bits.TrailingZeros64(g))
			if neighbourMask[x&63]&o == 0 {
				continue
			}
			f := flipsGo(p, o, x)
			if f == 0 {
				continue
			}
			np, no := o&^f, p|f|1<<uint(x&63)
			x1, x2, x3, x4 := ParityOrder4(^(np | no))
			v, n := last4Go(np, no, -alpha-1, x1, x2, x3, x4)
			nodes += n
			if v = -v; v > alpha {
				return v, nodes
			}
			best = max(best, v)
		}
	}
	return best, nodes
}
