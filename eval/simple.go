package eval

import "github.com/outflank-othello/outflank/bitboard"

// Simple is a placeholder evaluation built from mobility, potential
// mobility, corners and the squares next to empty corners. It knows nothing
// learned; it exists so that the search works before a trained evaluation
// is available, and as a baseline to measure one against.
type Simple struct{}

const (
	corners = 0x8100000000000081
	// xSquares are the diagonal neighbours of the corners, dangerous while
	// their corner is empty.
	xSquares = 0x0042000000004200
)

// xCorner pairs each X-square (first) with the corner next to it (second).
var xCorner = [4][2]uint64{
	{1 << 9, 1 << 0}, {1 << 14, 1 << 7}, {1 << 49, 1 << 56}, {1 << 54, 1 << 63},
}

// Evaluate returns an estimate of the final disc difference for the side to
// move (discs p) against the other side (discs o), within -64..64.
func (Simple) Evaluate(p, o uint64) int {
	mp := bitboard.Count(bitboard.Moves(p, o))
	mo := bitboard.Count(bitboard.Moves(o, p))
	pp := bitboard.Count(bitboard.PotentialMoves(p, o))
	po := bitboard.Count(bitboard.PotentialMoves(o, p))
	s := 3*(mp-mo) + (pp - po) + 10*(bitboard.Count(p&corners)-bitboard.Count(o&corners))
	empty := ^(p | o)
	for _, xc := range xCorner {
		if empty&xc[1] != 0 {
			if p&xc[0] != 0 {
				s -= 5
			} else if o&xc[0] != 0 {
				s += 5
			}
		}
	}
	s /= 2
	return max(-64, min(64, s))
}
