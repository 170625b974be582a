package train

import (
	"math/bits"

	"github.com/outflank-othello/outflank/bitboard"
)

// Solve returns the exact final disc difference for the side to move under
// perfect play (empties to the winner). It is a plain alpha-beta search with
// fastest-first ordering and no hash table: the labeller uses it on small
// endgames only (about 12 empties or fewer), where that is fast enough; the
// engine's own solver lives in the search package, which eval may not import.
func Solve(p, o uint64) int {
	return solve(p, o, -64, 64)
}

func final(p, o uint64) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	d := np - no
	switch e := 64 - np - no; {
	case d > 0:
		d += e
	case d < 0:
		d -= e
	}
	return d
}

func solve(p, o uint64, alpha, beta int) int {
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return final(p, o)
		}
		return -solve(o, p, -beta, -alpha)
	}
	empties := 64 - bits.OnesCount64(p|o)
	if empties == 1 {
		sq := bitboard.FirstSquare(moves)
		f := bitboard.Flips(p, o, sq)
		return final(p|f|sq.Bit(), o&^f)
	}
	if empties <= 6 {
		// Few moves left: ordering costs more than it saves.
		best := -65
		for m := moves; m != 0; m &= m - 1 {
			sq := bitboard.FirstSquare(m)
			f := bitboard.Flips(p, o, sq)
			v := -solve(o&^f, p|f|sq.Bit(), -beta, -alpha)
			if v > best {
				best = v
				if v > alpha {
					alpha = v
					if v >= beta {
						break
					}
				}
			}
		}
		return best
	}
	// Fastest first: try the moves that leave the opponent fewest replies.
	var sqs [34]bitboard.Square // at most 33 legal moves
	var keys [34]int
	n := 0
	for m := moves; m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		f := bitboard.Flips(p, o, sq)
		k := bits.OnesCount64(bitboard.Moves(o&^f, p|f|sq.Bit()))
		i := n
		for ; i > 0 && keys[i-1] > k; i-- {
			keys[i], sqs[i] = keys[i-1], sqs[i-1]
		}
		keys[i], sqs[i] = k, sq
		n++
	}
	best := -65
	for _, sq := range sqs[:n] {
		f := bitboard.Flips(p, o, sq)
		var v int
		if best == -65 {
			v = -solve(o&^f, p|f|sq.Bit(), -beta, -alpha)
		} else {
			// Null window first: a move that cannot beat the best so far is
			// refuted cheaply.
			v = -solve(o&^f, p|f|sq.Bit(), -alpha-1, -alpha)
			if v > alpha && v < beta {
				v = -solve(o&^f, p|f|sq.Bit(), -beta, -alpha)
			}
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}
