package bitboard

import "math/bits"

// Perft counts the leaves of the game tree depth plies below p. A pass
// counts as a ply when passIsPly is true (the standard convention) and uses
// no ply otherwise; a finished game is a leaf whatever depth is left.
func Perft(p Position, depth int, passIsPly bool) uint64 {
	if depth <= 0 {
		return 1
	}
	if passIsPly {
		return perft(p.Player, p.Opponent, depth)
	}
	return perftFree(p.Player, p.Opponent, depth)
}

// perft counts with a pass as one ply. The last two plies are done in
// place: at depth 1 a node with moves has popcount(moves) leaves, so only
// nodes without moves need the pass rule.
func perft(p, o uint64, depth int) uint64 {
	moves := Moves(p, o)
	if moves == 0 {
		if Moves(o, p) == 0 {
			return 1 // game over
		}
		if depth == 1 {
			return 1 // the pass is the leaf
		}
		return perft(o, p, depth-1)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	if depth == 2 {
		return perftLeaves(p, o)
	}
	if depth == 3 {
		return perft3Leaves(p, o)
	}
	var n uint64
	for ; moves != 0; moves &= moves - 1 {
		sq := Square(bits.TrailingZeros64(moves))
		f := Flips(p, o, sq)
		n += perft(o&^f, p|f|1<<uint(sq&63), depth-1)
	}
	return n
}

// perftFree counts with passes using no ply.
func perftFree(p, o uint64, depth int) uint64 {
	moves := Moves(p, o)
	if moves == 0 {
		if Moves(o, p) == 0 {
			return 1
		}
		return perftFree(o, p, depth)
	}
	if depth == 1 {
		return uint64(bits.OnesCount64(moves))
	}
	var n uint64
	for ; moves != 0; moves &= moves - 1 {
		sq := Square(bits.TrailingZeros64(moves))
		f := Flips(p, o, sq)
		n += perftFree(o&^f, p|f|1<<uint(sq&63), depth-1)
	}
	return n
}

// PerftDivide returns the perft count below each legal move of p (a pass
// if p must pass), for finding where two move generators disagree.
func PerftDivide(p Position, depth int, passIsPly bool) map[Square]uint64 {
	out := map[Square]uint64{}
	if depth <= 0 || p.GameOver() {
		return out
	}
	if p.MustPass() {
		d := depth - 1
		if !passIsPly {
			d = depth
		}
		out[PassMove] = Perft(p.Pass(), d, passIsPly)
		return out
	}
	for m := p.Moves(); m != 0; m &= m - 1 {
		sq := FirstSquare(m)
		out[sq] = Perft(p.Play(sq), depth-1, passIsPly)
	}
	return out
}

// perftLeavesGo is the portable form of the last two plies: for each move of
// (p, o), the child's move count, or 1 if the child has none (a pass or the
// end of the game is one leaf either way).
func perftLeavesGo(p, o uint64) uint64 {
	var n uint64
	for moves := Moves(p, o); moves != 0; moves &= moves - 1 {
		sq := Square(bits.TrailingZeros64(moves))
		f := Flips(p, o, sq)
		np, no := o&^f, p|f|1<<uint(sq&63)
		if c := bits.OnesCount64(Moves(np, no)); c != 0 {
			n += uint64(c)
		} else {
			n++
		}
	}
	return n
}

// perft3LeavesGo is the portable form of the last three plies.
func perft3LeavesGo(p, o uint64) uint64 {
	var n uint64
	for moves := Moves(p, o); moves != 0; moves &= moves - 1 {
		sq := Square(bits.TrailingZeros64(moves))
		f := Flips(p, o, sq)
		n += perft(o&^f, p|f|1<<uint(sq&63), 2)
	}
	return n
}
