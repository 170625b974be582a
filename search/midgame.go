package search

import (
	"math/bits"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/tt"
)

// maxPly bounds the evaluation states a searcher keeps: a line of 60 moves
// and as many passes, plus the short searches the endgame's move ordering
// nests inside it.
const maxPly = 192

// mid is the depth-limited midgame search of the position (p, o), entered
// from outside the midgame search (the root, the endgame's move ordering):
// it sets up the evaluation state and runs midState.
func (s *searcher) mid(p, o uint64, alpha, beta, depth int) int {
	if s.states == nil {
		s.states = make([]eval.State, maxPly)
		s.ie = incremental(s.ev)
	}
	ply := s.ply
	s.ie.Init(&s.states[ply], p, o)
	v := s.midState(ply, alpha, beta, depth)
	s.ply = ply
	return v
}

// midState is the midgame principal-variation search (fail soft) of the
// position in s.states[ply]; children's states go to s.states[ply+1].
// Nodes with no more empties than the remaining depth are solved exactly,
// or, in a selective search above mpcExactMaxEmpties empties, searched as
// selective endgame nodes (depth = empties, Multi-ProbCut on the exact
// value).
func (s *searcher) midState(ply, alpha, beta, depth int) int {
	st := &s.states[ply]
	p, o := st.P, st.O
	empties := 64 - bits.OnesCount64(p|o)
	if depth >= empties {
		if s.sel == noSelectivity || empties <= mpcExactMaxEmpties {
			s.ply = ply + 1
			return s.pvsEnd(p, o, max(alpha, -65), min(beta, 65), empties)
		}
		depth = empties
	}
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	s.ply = ply + 1
	if depth <= 0 {
		return s.ie.EvaluateState(st)
	}
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return finalScore(p, o)
		}
		s.ie.Pass(&s.states[ply+1], st)
		return -s.midState(ply+1, -beta, -alpha, depth)
	}
	if depth == 1 {
		return s.mid1(ply, moves, beta)
	}
	key := tt.Key(p, o)
	ttMove := -1
	if e, ok := s.tt.Probe(key); ok {
		if e.Proven || ttDeepEnough(e.Depth, depth, s.sel) {
			if v, ok := ttCut(e, alpha, beta); ok {
				return v
			}
		}
		if e.Move != tt.NoMove && moves&sqBit(int(e.Move)) != 0 {
			ttMove = int(e.Move)
		}
	}
	if s.sel != noSelectivity && depth >= mpcMinDepth {
		if v, ok := s.probCut(ply, alpha, beta, depth, empties); ok {
			return v
		}
	}
	best, bestMove := s.midMoves(ply, moves, ttMove, alpha, beta, depth)
	e := tt.Entry{Lower: int8(best), Upper: int8(best), Depth: ttDepth(depth, s.sel), Move: uint8(bestMove)}
	if best <= alpha {
		e.Lower = -64
	} else if best >= beta {
		e.Upper = 64
	}
	s.tt.Store(key, e)
	return best
}

// midMoves searches the moves of the position in s.states[ply] (PVS): the
// table's move first, before the others are generated and ordered, since it
// often cuts off alone.
func (s *searcher) midMoves(ply int, moves uint64, ttMove, alpha, beta, depth int) (best, bestMove int) {
	st, child := &s.states[ply], &s.states[ply+1]
	p, o := st.P, st.O
	a := alpha
	best, bestMove = -inf, tt.NoMove
	n := 0 // moves searched
	if ttMove >= 0 {
		s.ie.Play(child, st, ttMove, flips(p, o, ttMove))
		v := -s.midState(ply+1, -beta, -a, depth-1)
		best, bestMove, n = v, ttMove, 1
		if v >= beta {
			return best, bestMove
		}
		a = max(a, v)
		moves &^= sqBit(ttMove)
	}
	var l moveList
	evalOrder := depth >= midEvalOrderMinDepth
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		f := flips(p, o, x)
		np, no := o&^f, p|f|sqBit(x)
		val := fastestFirst(np, no)
		if evalOrder {
			s.ie.Play(child, st, x, f)
			val += int32(-s.ie.EvaluateState(child)) << 4
		}
		l.ms[l.n] = move{flips: f, val: val, sq: int8(x)}
		l.n++
	}
	for i := 0; i < l.n; i++ {
		m := l.next(i)
		s.ie.Play(child, st, int(m.sq), m.flips)
		var v int
		if n == 0 {
			v = -s.midState(ply+1, -beta, -a, depth-1)
		} else {
			v = -s.midState(ply+1, -a-1, -a, depth-1)
			if v > a && v < beta && beta-a > 1 {
				v = -s.midState(ply+1, -beta, -a, depth-1)
			}
		}
		n++
		if v > best {
			best, bestMove = v, int(m.sq)
			if v >= beta {
				break
			}
			a = max(a, v)
		}
	}
	return best, bestMove
}

// mid1 is a node one ply above the leaves: each child is evaluated (no
// table, no move ordering: the evaluations are the search), stopping at the
// first that reaches beta.
func (s *searcher) mid1(ply int, moves uint64, beta int) int {
	st, child := &s.states[ply], &s.states[ply+1]
	p, o := st.P, st.O
	best := -inf
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		s.ie.Play(child, st, x, flips(p, o, x))
		s.nodes++
		if v := -s.ie.EvaluateState(child); v > best {
			best = v
			if v >= beta {
				break
			}
		}
	}
	return best
}

// ttDepth packs a midgame entry's depth and confidence into tt.Entry.Depth
// (depth*6 + confidence rank, 5 for 100%; depths above 41 are stored as 41,
// which only makes the entry usable by fewer searches), so that an entry
// settles a search only as deep and at most as selective as itself, and
// the table's replacement, which keeps the larger Depth, prefers the deeper
// and then the surer entry.
func ttDepth(depth, sel int) uint8 {
	n := len(selectivityLevels)
	return uint8(min(depth, 41)*n + n - 1 - sel)
}

// ttDeepEnough reports whether an entry stored with Depth d may settle a
// search of the given depth and selectivity index.
func ttDeepEnough(d uint8, depth, sel int) bool {
	n := uint(len(selectivityLevels))
	return int(uint(d)/n) >= depth && int(n-1-uint(d)%n) <= sel
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
