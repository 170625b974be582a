package search

import (
	"math/bits"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/tt"
)

// mid is the depth-limited midgame principal-variation search (fail soft).
// Nodes with no more empties than the remaining depth are solved exactly.
func (s *searcher) mid(p, o uint64, alpha, beta, depth int) int {
	empties := 64 - bits.OnesCount64(p|o)
	if depth >= empties {
		return s.pvsEnd(p, o, max(alpha, -65), min(beta, 65), empties)
	}
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	if depth <= 0 {
		return s.ev.Evaluate(p, o)
	}
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -s.mid(o, p, -beta, -alpha, depth)
	}
	key := tt.Key(p, o)
	ttMove := -1
	if e, ok := s.tt.Probe(key); ok {
		if e.Proven || int(e.Depth) >= depth {
			if v, ok := ttCut(e, alpha, beta); ok {
				return v
			}
		}
		if e.Move != tt.NoMove {
			ttMove = int(e.Move)
		}
	}
	var l moveList
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		f := flips(p, o, x)
		np, no := o&^f, p|f|sqBit(x)
		val := fastestFirst(np, no)
		if depth >= midSearchOrderMinDepth {
			val += int32(-s.mid(np, no, -inf, inf, depth/midSearchOrderDivisor)) << 4
		} else if depth >= midEvalOrderMinDepth {
			val += int32(-s.ev.Evaluate(np, no)) << 4
		}
		if x == ttMove {
			val += ttMoveBonus
		}
		l.ms[l.n] = move{flips: f, val: val, sq: int8(x)}
		l.n++
	}
	a := alpha
	best, bestMove := -inf, tt.NoMove
	for i := 0; i < l.n; i++ {
		m := l.next(i)
		np, no := o&^m.flips, p|m.flips|sqBit(int(m.sq))
		var v int
		if i == 0 {
			v = -s.mid(np, no, -beta, -a, depth-1)
		} else {
			v = -s.mid(np, no, -a-1, -a, depth-1)
			if v > a && v < beta && beta-a > 1 {
				v = -s.mid(np, no, -beta, -a, depth-1)
			}
		}
		if v > best {
			best, bestMove = v, int(m.sq)
			if v >= beta {
				break
			}
			a = max(a, v)
		}
	}
	e := tt.Entry{Lower: int8(best), Upper: int8(best), Depth: uint8(depth), Move: uint8(bestMove)}
	if best <= alpha {
		e.Lower = -64
	} else if best >= beta {
		e.Upper = 64
	}
	s.tt.Store(key, e)
	return best
}

// ttCut returns the score that a table entry's bounds settle for the window
// (alpha, beta): a lower bound at or above beta, an upper bound at or below
// alpha, or an exact value. The caller checks the entry is deep enough.
func ttCut(e tt.Entry, alpha, beta int) (int, bool) {
	switch {
	case int(e.Lower) >= beta:
		return int(e.Lower), true
	case int(e.Upper) <= alpha:
		return int(e.Upper), true
	case e.Lower == e.Upper:
		return int(e.Lower), true
	}
	return 0, false
}
