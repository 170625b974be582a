// Package reference is a deliberately naive implementation of the Othello
// rules — an 8x8 array walked square by square and direction by direction,
// written straight from the rulebook — against which the bitboard code is
// tested. It is slow on purpose: it shares no tricks with the fast code.
package reference

// Cell is the content of a square.
type Cell int8

const (
	Empty Cell = iota
	Black
	White
)

// Board is a position: cells indexed [row][col], row 0 = row 1, col 0 = a.
type Board struct {
	Cells  [8][8]Cell
	ToMove Cell // Black or White
}

func opponent(c Cell) Cell { return 3 - c }

var dirs = [8][2]int{{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}}

// Flips returns the set of squares (bit row*8+col) that the side to move
// would flip by playing at (r, c): for each direction, walk over opponent
// discs; they flip only if the walk ends on an own disc.
func (b *Board) Flips(r, c int) (out uint64) {
	if b.Cells[r][c] != Empty {
		return 0
	}
	me, them := b.ToMove, opponent(b.ToMove)
	for _, d := range dirs {
		var line uint64
		rr, cc := r+d[0], c+d[1]
		for rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && b.Cells[rr][cc] == them {
			line |= 1 << uint(rr*8+cc)
			rr, cc = rr+d[0], cc+d[1]
		}
		if line != 0 && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 && b.Cells[rr][cc] == me {
			out |= line
		}
	}
	return out
}

// Legal lists the legal moves of the side to move.
func (b *Board) Legal() []int {
	var out []int
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			if b.Flips(r, c) != 0 {
				out = append(out, r*8+c)
			}
		}
	}
	return out
}

// Play places a disc at square sq (must be legal) and flips.
func (b *Board) Play(sq int) {
	f := b.Flips(sq/8, sq%8)
	for i := 0; i < 64; i++ {
		if f>>uint(i)&1 != 0 {
			b.Cells[i/8][i%8] = b.ToMove
		}
	}
	b.Cells[sq/8][sq%8] = b.ToMove
	b.ToMove = opponent(b.ToMove)
}

// Pass gives the turn to the other side.
func (b *Board) Pass() { b.ToMove = opponent(b.ToMove) }

// Over reports whether neither side can move.
func (b *Board) Over() bool {
	if len(b.Legal()) > 0 {
		return false
	}
	b.Pass()
	n := len(b.Legal())
	b.Pass()
	return n == 0
}

// Count returns the number of discs of a colour.
func (b *Board) Count(c Cell) int {
	n := 0
	for r := 0; r < 8; r++ {
		for cc := 0; cc < 8; cc++ {
			if b.Cells[r][cc] == c {
				n++
			}
		}
	}
	return n
}

// Score is the final score for the side to move with the empties going to
// the winner.
func (b *Board) Score() int {
	me, them := b.Count(b.ToMove), b.Count(opponent(b.ToMove))
	empties := 64 - me - them
	switch {
	case me > them:
		return me - them + empties
	case me < them:
		return me - them - empties
	}
	return 0
}
