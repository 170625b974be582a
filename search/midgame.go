package search

import (
	"math/bits"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/tt"
)

// The evaluation states of a searcher's line are indexed by slot: 2·empties
// for a position reached by a move (or set up by mid), 2·empties+1 for one
// reached by a pass. Along a line the empties only fall (a pass keeps them
// but takes the odd slot, and two passes end the game), and a search nested
// in the line (the solver's move ordering calls mid on positions below the
// node that called it) uses only slots below the line's, so no two live
// states share a slot; and no counter has to be restored when a stopped
// search unwinds.
const numSlots = 2*61 + 1

// moveSlot is the slot of the children (by a move) of a position with
// empties empty squares; passSlot that of its child by a pass.
func moveSlot(empties int) int { return 2 * (empties - 1) }
func passSlot(empties int) int { return 2*empties + 1 }

// initEval sets up the incremental evaluation and the midgame line's
// states on first use (searchers are built in several places, most never
// evaluate).
func (s *searcher) initEval() {
	if s.states == nil {
		s.states = make([]eval.State, numSlots)
		s.ie = incremental(s.ev)
		s.evals = new(evalCache)
	}
}

// mid is the depth-limited midgame search of the position (p, o), entered
// from outside the midgame search (the root, the endgame's move ordering):
// it sets up the evaluation state and runs midState.
func (s *searcher) mid(p, o uint64, alpha, beta, depth int) int {
	s.initEval()
	slot := 2 * (64 - bits.OnesCount64(p|o))
	s.ie.Init(&s.states[slot], p, o)
	return s.midState(slot, alpha, beta, depth, bitboard.Moves(p, o))
}

// midState is the midgame principal-variation search (fail soft) of the
// position in s.states[slot], whose moves the caller passes (a parent has
// generated them to order its moves); children's states go to their slots.
// Nodes with no more empties than the remaining depth are solved exactly,
// or, in a selective search above mpcExactMaxEmpties empties, searched as
// selective endgame nodes (depth = empties, Multi-ProbCut on the exact
// value).
func (s *searcher) midState(slot, alpha, beta, depth int, moves uint64) int {
	st := &s.states[slot]
	p, o := st.P, st.O
	empties := 64 - bits.OnesCount64(p|o)
	if depth >= empties {
		if s.sel == noSelectivity || empties <= mpcExactMaxEmpties {
			return s.pvsEnd(p, o, max(alpha, -65), min(beta, 65), empties)
		}
		depth = empties
	}
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	if depth <= 0 {
		return s.evaluate(st)
	}
	if moves == 0 {
		om := bitboard.Moves(o, p)
		if om == 0 {
			return finalScore(p, o)
		}
		s.ie.Pass(&s.states[passSlot(empties)], st)
		return -s.midState(passSlot(empties), -beta, -alpha, depth, om)
	}
	if depth == 1 {
		return s.mid1(slot, moves, beta)
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
		if v, ok := s.probCut(slot, alpha, beta, depth, empties, moves); ok {
			return v
		}
	}
	best, bestMove := s.midMoves(slot, moveSlot(empties), moves, ttMove, alpha, beta, depth)
	s.tt.Store(key, resultEntry(best, alpha, beta, ttDepth(depth, s.sel), bestMove, false))
	return best
}

// midMoves searches the moves of the position in s.states[slot], its
// children going to s.states[next] (PVS): the
// table's move first, before the others are generated and ordered, since it
// often cuts off alone.
func (s *searcher) midMoves(slot, next int, moves uint64, ttMove, alpha, beta, depth int) (best, bestMove int) {
	st, child := &s.states[slot], &s.states[next]
	p, o := st.P, st.O
	a := alpha
	best, bestMove = -inf, tt.NoMove
	n := 0 // moves searched
	if ttMove >= 0 {
		f, r := bitboard.FlipsReplies(p, o, bitboard.Square(ttMove))
		s.ie.Play(child, st, ttMove, f)
		v := -s.midState(next, -beta, -a, depth-1, r)
		best, bestMove, n = v, ttMove, 1
		if v >= beta {
			return best, bestMove
		}
		a = max(a, v)
		moves &^= sqBit(ttMove)
	}
	if s.midLists == nil {
		s.midLists = new([64]midFrame)
	}
	fr := &s.midLists[(64-bits.OnesCount64(p|o))&63]
	l := &fr.l
	l.n = 0
	evalOrder := depth >= midEvalOrderMinDepth
	// Children of depth 2 or more probe the table first thing: asking for
	// their buckets now lets those cache misses overlap with one another and
	// with the ordering's evaluations, rather than come one at a time.
	prefetch := depth >= midPrefetchMinDepth
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		f, r := bitboard.FlipsReplies(p, o, bitboard.Square(x))
		fr.replies[x&63] = r
		np, no := o&^f, p|f|sqBit(x)
		if prefetch {
			s.tt.Prefetch(tt.Key(np, no))
		}
		val := midFastestFirst(r, np, no) + midSquareBonus[x&63]
		if evalOrder {
			val += int32(-s.playEvaluate(st, x, f)) << midOrderEvalShift
		}
		l.ms[l.n] = move{flips: f, val: val, sq: int8(x)}
		l.n++
	}
	for i := 0; i < l.n; i++ {
		if n > 0 && s.splitMid(depth) {
			if b, bm, ok := s.trySplit(p, o, l.ms[i:l.n], a, beta, depth, 64-bits.OnesCount64(p|o), best, bestMove); ok {
				return b, bm
			}
		}
		m := l.next(i)
		s.ie.Play(child, st, int(m.sq), m.flips)
		r := fr.replies[m.sq&63]
		var v int
		if n == 0 {
			v = -s.midState(next, -beta, -a, depth-1, r)
		} else {
			v = -s.midState(next, -a-1, -a, depth-1, r)
			if v > a && v < beta && beta-a > 1 {
				v = -s.midState(next, -beta, -a, depth-1, r)
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

// midFrame is a midgame node's scratch: its move list, and the opponent's
// replies after each move by square, which the move's child search takes
// as its moves (midState) rather than generating them again.
type midFrame struct {
	l       moveList
	replies [64]uint64
}

// midSquareBonus is the square's term in the midgame order: corners first,
// X squares last, as in the endgame's (squareOrderBonus), here worth a reply
// and half a reply. FFO #40-#49 4.6% fewer nodes (the solver's pre-search
// and ordering searches), #50-#53 0.6%, #56-#59 2.7%; bench-midgame
// --depth 18 2.0%.
var midSquareBonus = squareTerms(midOrderCornerMoveBonus, midOrderXMovePenalty)

// midFastestFirst values a move of the midgame search to (np, no), where
// the opponent has the replies m, by how few replies it leaves the opponent
// (corner replies counting double), how few potential replies, and our
// corners.
func midFastestFirst(m, np, no uint64) int32 {
	return -int32(bits.OnesCount64(m)+bits.OnesCount64(m&cornerMask))<<midOrderMobilityShift -
		int32(bits.OnesCount64(bitboard.PotentialMoves(np, no)))*int32(midOrderPotentialWeight) +
		int32(bits.OnesCount64(no&cornerMask))*int32(midOrderCornerWeight)
}

// mid1 is a node one ply above the leaves: each child is evaluated (no
// table, no move ordering: the evaluations are the search), stopping at the
// first that reaches beta. Corners are tried first and X and C squares
// last, so that the move that reaches beta, if any, tends to come early:
// this took 7-11% of the nodes (evaluations) off the midgame benchmark.
func (s *searcher) mid1(slot int, moves uint64, beta int) int {
	st := &s.states[slot]
	p, o := st.P, st.O
	best := -inf
	for _, tier := range [...]uint64{cornerMask, ^(cornerMask | xcMask), xcMask} {
		for mm := moves & tier; mm != 0; mm &= mm - 1 {
			x := bits.TrailingZeros64(mm)
			s.nodes++
			if v := -s.playEvaluate(st, x, flips(p, o, x)); v > best {
				best = v
				if v >= beta {
					return best
				}
			}
		}
	}
	return best
}

// xcMask holds the X and C squares (those next to a corner), xMask the X
// squares alone (diagonally next to a corner).
const (
	xcMask uint64 = 0x42C300000000C342
	xMask  uint64 = 0x0042000000004200
)

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

// resultEntry is the table entry of a fail-soft search's result best in
// the window (alpha, beta): an upper bound at or below alpha, a lower bound
// at or above beta, the exact value between.
func resultEntry(best, alpha, beta int, depth uint8, move int, proven bool) tt.Entry {
	e := tt.Entry{Lower: int8(best), Upper: int8(best), Depth: depth, Move: uint8(move), Proven: proven}
	if best <= alpha {
		e.Lower = -64
	} else if best >= beta {
		e.Upper = 64
	}
	return e
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
