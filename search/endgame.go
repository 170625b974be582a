package search

import (
	"math/bits"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/tt"
)

// The exact endgame solver. Scores are final disc differences for the side
// to move (empties to the winner); searches fail soft. Almost all nodes are
// null-window searches (nws: is the score > alpha?); only the principal
// variation uses full windows (pvsEnd).
//
// Depth layers, from the leaves up:
//   - 1 to 4 empties: special cases with the empty squares passed as
//     arguments, solved by bitboard.Last1 to Last4 (one assembly call per
//     4-empties node where the CPU allows); the last move only counts flips;
//   - 5 empties: bitboard.Last5 for the moves (one call per node), the
//     node's stability cutoff in Go (solve5);
//   - up to endShallowMaxEmpties empties: no transposition table, moves in odd
//     quadrants first (parity);
//   - up to endLocalMaxEmpties empties: no shared table either, but the
//     searcher's own small table of its children's bounds (nwsLocal), moves
//     by fastest-first order, a move leaving at most one reply first;
//   - deeper: the transposition table's move first, then the others by
//     fastest-first ordering (fewest opponent replies), the evaluation or a
//     shallow search in the ordering from the empties counts in tune.go;
//     enhanced transposition cutoffs and stability cutoffs.

func sqBit(x int) uint64 { return 1 << uint(x) }

func flips(p, o uint64, x int) uint64 { return bitboard.Flips(p, o, bitboard.Square(x)) }

// solve2 scores the position with empties x1, x2 (bitboard.Last2: one
// call, in assembly where the CPU allows, rather than a call per flip).
func (s *searcher) solve2(p, o uint64, alpha int, x1, x2 int) int {
	v, n := bitboard.Last2(p, o, alpha, bitboard.Square(x1), bitboard.Square(x2))
	s.nodes += uint64(n)
	return v
}

// last1 scores the position with one empty square x.
func (s *searcher) last1(p, o uint64, x int) int {
	s.nodes++
	return bitboard.Last1(p, o, bitboard.Square(x))
}

// solve3 scores the position with empties x1, x2, x3 (bitboard.Last3).
func (s *searcher) solve3(p, o uint64, alpha int, x1, x2, x3 int) int {
	v, n := bitboard.Last3(p, o, alpha, bitboard.Square(x1), bitboard.Square(x2), bitboard.Square(x3))
	s.nodes += uint64(n)
	return v
}

// solve4 scores the position with 4 empties, squares in odd quadrants
// first (bitboard.ParityOrder4).
func (s *searcher) solve4(p, o uint64, alpha int) int {
	x1, x2, x3, x4 := bitboard.ParityOrder4(^(p | o))
	v, n := bitboard.Last4(p, o, alpha, x1, x2, x3, x4)
	s.nodes += uint64(n)
	return v
}

// nws is the null-window endgame search: it returns a score v with
// v > alpha meaning score >= v and v <= alpha meaning score <= v.
func (s *searcher) nws(p, o uint64, alpha, empties int) int {
	switch {
	case localLayer(empties):
		return s.nwsLocal(p, o, alpha, empties, bitboard.Moves(p, o), parityOf(^(p | o)))
	case empties > endShallowMaxEmpties:
		return s.nwsDeep(p, o, alpha, empties)
	case empties > 5:
		return s.nwsShallow(p, o, alpha, empties, bitboard.Moves(p, o), parityOf(^(p | o)))
	case empties == 5:
		return s.solve5(p, o, alpha, parityOf(^(p | o)))
	case empties == 4:
		return s.solve4(p, o, alpha)
	}
	e := ^(p | o)
	switch empties {
	case 3:
		x1 := bits.TrailingZeros64(e)
		e &= e - 1
		x2 := bits.TrailingZeros64(e)
		e &= e - 1
		return s.solve3(p, o, alpha, x1, x2, bits.TrailingZeros64(e))
	case 2:
		x1 := bits.TrailingZeros64(e)
		e &= e - 1
		return s.solve2(p, o, alpha, x1, bits.TrailingZeros64(e))
	case 1:
		return s.last1(p, o, bits.TrailingZeros64(e))
	}
	s.nodes++
	return finalScore(p, o)
}

// nwsShallow searches 6 to endShallowMaxEmpties empties (5: solve5): moves
// in odd quadrants first, no table. moves are the mover's legal moves (the
// parent in nwsLocal has them already) and par the quadrants with an odd
// number of empties.
func (s *searcher) nwsShallow(p, o uint64, alpha, empties int, moves uint64, par uint8) int {
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	if stabilityMayCut(o, alpha, empties) {
		if u := stabilityBound(p, o); u <= alpha {
			return u
		}
	}
	if moves == 0 { // a pass, or the game is over
		om := bitboard.Moves(o, p)
		if om == 0 {
			return finalScore(p, o)
		}
		return -s.nwsShallow(o, p, -alpha-1, empties, om, par)
	}
	// The legal moves only, in the parity order: the parent's replies
	// spare this node a flips call for each empty square that is no move.
	best := -inf
	for _, mm := range parityGroups(^(p | o), par) {
		for mm &= moves; mm != 0; mm &= mm - 1 {
			x := bits.TrailingZeros64(mm)
			// The child's moves too, so that it tries those only: at
			// 6 empties, one test more per move here and fewer
			// mispredicted branches in Last5 (cachegrind on FFO
			// #40-#44: 0.4% more instructions, 6.6% fewer
			// mispredictions).
			f, r := bitboard.FlipsReplies(p, o, bitboard.Square(x))
			np, no := o&^f, p|f|sqBit(x)
			var v int
			if empties == 6 {
				v = -s.solve5Child(np, no, -alpha-1, r, par^quadrant[x])
			} else {
				v = -s.nwsShallow(np, no, -alpha-1, empties-1, r, par^quadrant[x])
			}
			if v > alpha {
				return v
			}
			best = max(best, v)
		}
	}
	return best
}

// solve5 is nwsShallow at 5 empties: this node's count, stop poll and
// stability cutoff here, its legal moves in bitboard.Last5 (one assembly
// call for the node, where nwsShallow called Flips, ParityOrder4 and Last4
// for each move). The same order and the same nodes as nwsShallow.
func (s *searcher) solve5(p, o uint64, alpha int, par uint8) int {
	if s.nodes >= s.checkAt {
		s.poll()
	}
	return s.solve5Child(p, o, alpha, bitboard.Moves(p, o), par)
}

// solve5Child is solve5 without the stop poll, for nwsShallow's children
// (the parent has just polled), given the mover's moves: small enough for
// the profile-guided build to write it out in nwsShallow, which saves a
// call for each of them.
func (s *searcher) solve5Child(p, o uint64, alpha int, moves uint64, par uint8) int {
	s.nodes++
	if stabilityMayCut(o, alpha, 5) {
		if u := stabilityBound(p, o); u <= alpha {
			return u
		}
	}
	if moves != 0 {
		g := parityGroups(^(p | o), par)
		v, n := bitboard.Last5(p, o, alpha, g[0]&moves, g[1]&moves, g[2]&moves)
		s.nodes += uint64(n)
		return v
	}
	if bitboard.Moves(o, p) == 0 {
		return finalScore(p, o)
	}
	return -s.solve5(o, p, -alpha-1, par)
}

// parityGroups splits the empty squares into the parity layer's order
// (nwsShallow, solve5): the isolated ones first, then those in quadrants
// with an odd number of empties (par), then the rest. An empty square with
// no empty neighbour is a region of one, the surest odd region: the
// opponent can never answer there. With endShallowIsolatedFirst off the
// first group is empty.
func parityGroups(empty uint64, par uint8) [3]uint64 {
	odd := quadrantMask[par]
	var iso uint64
	if endShallowIsolatedFirst != 0 {
		iso = isolatedEmpties(empty)
	}
	return [3]uint64{iso, empty & odd &^ iso, empty &^ odd &^ iso}
}

// isolatedEmpties returns the squares of empty that have no empty neighbour.
func isolatedEmpties(empty uint64) uint64 {
	const notA, notH = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
	h := (empty&notH)<<1 | (empty&notA)>>1 // horizontal neighbours of empties
	r := empty | h
	return empty &^ (h | r<<8 | r>>8)
}

// move is an entry of a move list.
type move struct {
	flips uint64
	val   int32
	sq    int8
}

// endFrame is the scratch of a null-window endgame node: its move list and
// its children's table keys (by list index).
type endFrame struct {
	l    moveList
	keys [60]uint64
	// replies[x]: the opponent's moves after the move to square x, where
	// nwsLocal valued it; the child search takes them rather than
	// generating them again.
	replies [64]uint64
}

// moveList is a fixed-capacity list (no allocation). Positions reachable
// from the start have at most 33 legal moves, but a set-up board may have
// more, up to its number of empty squares.
type moveList struct {
	n  int
	ms [60]move
}

// fill sets l to the moves of (p, o), each with its flips, unvalued.
func (l *moveList) fill(p, o, moves uint64) {
	l.n = 0
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		l.ms[l.n] = move{flips: flips(p, o, x), sq: int8(x)}
		l.n++
	}
}

// next moves the best-valued remaining move to position i and returns it
// (selection sort: after a cutoff the rest is never sorted).
func (l *moveList) next(i int) *move {
	// Without branches (the compiler keeps a branch for a loop-carried
	// if): which move wins is a coin toss to the branch predictor, and
	// the mispredictions made this 4% of the solver's time.
	n := min(l.n, len(l.ms))
	b, bv := i, l.ms[i].val
	for j := i + 1; j < n; j++ {
		v := l.ms[j].val
		gt := (bv - v) >> 31 // -1 where v > bv (values stay far inside int32)
		b ^= (b ^ j) & int(gt)
		bv ^= (bv ^ v) & gt
	}
	l.ms[i], l.ms[b] = l.ms[b], l.ms[i]
	return &l.ms[i]
}

// fastestFirst values a move by how few replies it leaves the opponent
// (corner replies counting double) and how few potential replies: the
// endgame's order on the principal variation and at the parallel split.
func fastestFirst(np, no uint64) int32 {
	m := bitboard.Moves(np, no)
	return -int32(bits.OnesCount64(m)+bits.OnesCount64(m&cornerMask))<<4 -
		int32(bits.OnesCount64(bitboard.PotentialMoves(np, no)))
}

// endOrderValue is the null-window endgame's value of a move to (np, no)
// before the evaluation or shallow search term: the opponent's replies,
// its corner replies and potential replies (fewer first), our corners. The
// weights are fitted to data (tune.go).
func endOrderValue(np, no uint64) int32 {
	return endOrderValueReplies(bitboard.Moves(np, no), np, no)
}

// endOrderValueReplies is endOrderValue given the opponent's replies m.
func endOrderValueReplies(m, np, no uint64) int32 {
	return -int32(bits.OnesCount64(m))*int32(endOrderMobilityWeight) -
		int32(bits.OnesCount64(m&cornerMask))*int32(endOrderCornerMobilityWeight) -
		int32(bits.OnesCount64(bitboard.PotentialMoves(np, no)))*int32(endOrderPotentialWeight) +
		int32(bits.OnesCount64(no&cornerMask))*int32(endOrderCornerWeight)
}

// wipeoutAlpha is the lowest null window that only a wipeout beats
// (scores are even: more than 62 is 64). There the endgame order also
// prefers moves that leave the opponent fewer discs (wipeoutOrderValue):
// a wipeout needs all of them gone, and the fewer there are the sooner it
// comes, so the proof is smaller.
const wipeoutAlpha = 62

func wipeoutOrderValue(np uint64) int32 {
	return int32(bits.OnesCount64(np)) * int32(endOrderWipeoutWeight)
}

const ttMoveBonus = 1 << 20

// endEnter opens a null-window endgame node above the parity layer: it
// counts the node, polls the stop flag, tries the stability cutoff and
// generates the moves. done reports a score v already decided (a cutoff,
// or the game's end); otherwise moves == 0 means a pass.
func (s *searcher) endEnter(p, o uint64, alpha, empties int) (moves uint64, v int, done bool) {
	if v, done := s.endStable(p, o, alpha, empties); done {
		return 0, v, true
	}
	moves = bitboard.Moves(p, o)
	if moves == 0 && bitboard.Moves(o, p) == 0 {
		return 0, finalScore(p, o), true
	}
	return moves, 0, false
}

// endStable counts a null-window endgame node, polls the stop flag and
// tries the stability cutoffs: done reports the score v they decided.
func (s *searcher) endStable(p, o uint64, alpha, empties int) (v int, done bool) {
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	if stabilityMayCut(o, alpha, empties) {
		if u := stabilityBound(p, o); u <= alpha {
			return u, true
		}
	}
	// The mirror: our own stable discs bound the score from below. Where
	// only avoiding a wipeout beats alpha, one stable disc decides, and a
	// solve scoring a wipeout is full of such windows. Elsewhere the
	// bound seldom reaches alpha (4.9% more instructions on #40-#44 with
	// the upper bound's gates).
	if alpha < -wipeoutAlpha {
		if l := -stabilityBound(o, p); l > alpha {
			return l, true
		}
	}
	return 0, false
}

// localLayer reports whether a null-window node with the given empties keeps
// its children's bounds in the searcher's own table (nwsLocal), and
// sharedTable whether it uses the shared one (nwsDeep): the tables' layers,
// in one place for the dispatch and for the parents that probe their
// children.
func localLayer(empties int) bool {
	return empties > endShallowMaxEmpties && empties >= endTTMinEmpties && empties <= endLocalMaxEmpties
}

func sharedTable(empties int) bool {
	return empties > endShallowMaxEmpties && empties >= endTTMinEmpties && empties > endLocalMaxEmpties
}

// nwsDeep is the null-window search above endShallowMaxEmpties empties.
func (s *searcher) nwsDeep(p, o uint64, alpha, empties int) int {
	moves, v, done := s.endEnter(p, o, alpha, empties)
	if done {
		return v
	}
	if moves == 0 {
		return -s.nwsDeep(o, p, -alpha-1, empties)
	}
	useTT := empties >= endTTMinEmpties
	ttMove := -1
	var key uint64
	if useTT {
		key = tt.Key(p, o)
		if e, ok := s.tt.Probe(key); ok {
			if e.Proven {
				if int(e.Lower) > alpha {
					return int(e.Lower)
				}
				if int(e.Upper) <= alpha {
					return int(e.Upper)
				}
			}
			ttMove = endTableMove(e)
		}
	}
	// The move list lives in the searcher, one per empties count (a node's
	// children have fewer, a pass keeps the count but returns before the
	// list is used): a list on the stack would be zeroed, 1.5 KB, at every
	// node.
	if s.endFrames == nil {
		s.endFrames = new([64]endFrame)
	}
	fr := &s.endFrames[empties&63] // &63 drops the bounds check (empties <= 60)
	l := &fr.l
	l.n = 0
	// Children in the local layer are never in the shared table:
	// endChild probes them in the local one instead.
	etc := empties >= endETCMinEmpties && sharedTable(empties-1)
	// The children's table buckets, fetched all at once now rather than
	// one cache miss at a time later (ETC probes them anyway), where the
	// children probe the table.
	prefetch := !etc && sharedTable(empties-1) && endPrefetch != 0
	first := -1 // index in l of the table's move
	best, bestMove := -inf, tt.NoMove
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		f := flips(p, o, x)
		if etc || prefetch {
			k := tt.Key(o&^f, p|f|sqBit(x))
			fr.keys[l.n] = k
			s.tt.Prefetch(k)
		}
		l.ms[l.n] = move{flips: f, sq: int8(x)}
		l.n++
	}
	if etc {
		// Enhanced transposition cutoffs, probing the children prefetched
		// above, so that their misses overlapped.
		n := 0
		for i := 0; i < l.n; i++ {
			m := l.ms[i]
			x := int(m.sq)
			if e, ok := s.tt.Probe(fr.keys[i]); ok && e.Proven {
				// A child already proven to score at most u for the
				// opponent gives us at least -u.
				if v := -int(e.Upper); v > alpha {
					s.tt.Store(key, tt.Entry{Lower: int8(v), Upper: 64, Depth: uint8(empties), Move: uint8(x), Proven: true})
					return v
				}
				// A child proven to score at least l for the opponent
				// fails low here: no need to value or search it.
				if v := -int(e.Lower); v <= alpha && endETCSkipFailLow != 0 {
					if v > best {
						best, bestMove = v, x
					}
					continue
				}
			}
			l.ms[n] = m
			n++
		}
		l.n = n
	}
	for i := 0; i < l.n; i++ {
		if int(l.ms[i].sq) == ttMove {
			first = i
			break
		}
	}
	start := 0
	if first >= 0 && empties >= endTTMoveFirstMinEmpties {
		// The table's move first, before the others are valued: it often
		// cuts, and valuing moves costs shallow searches at high empties.
		l.ms[0], l.ms[first] = l.ms[first], l.ms[0]
		m := &l.ms[0]
		if v := s.endChild(o&^m.flips, p|m.flips|sqBit(int(m.sq)), alpha, empties-1); v > best {
			best, bestMove = v, int(m.sq)
		}
		start = 1
	}
	if best <= alpha {
		s.valueEndMoves(l.ms[start:l.n], p, o, alpha, empties, ttMove)
		for i := start; i < l.n; i++ {
			if i > 0 && s.splitEnd(empties) {
				if b, bm, ok := s.trySplit(p, o, l.ms[i:l.n], alpha, alpha+1, 0, empties, best, bestMove); ok {
					best, bestMove = b, bm
					break
				}
			}
			m := l.next(i)
			v := s.endChild(o&^m.flips, p|m.flips|sqBit(int(m.sq)), alpha, empties-1)
			if v > best {
				best, bestMove = v, int(m.sq)
				if v > alpha {
					break
				}
			}
		}
	}
	if useTT {
		e := tt.Entry{Lower: -64, Upper: int8(best), Depth: uint8(empties), Move: uint8(bestMove), Proven: true}
		if best > alpha {
			e.Lower, e.Upper = int8(best), 64
		}
		s.tt.Store(key, e)
	}
	return best
}

// endTableMove returns the move of the table entry e that a null-window
// endgame node searches first, or -1. A heuristic entry's move counts only
// from a deep search (the pre-search before the solve): most come from the
// shallow ordering searches above, and those moves, taken first, lose to
// the node's own order; with them a bigger table gave more nodes, and a
// split node that took them searched 1.36 billion nodes for FFO #59 on two
// threads against 53 million.
func endTableMove(e tt.Entry) int {
	if e.Move != tt.NoMove && (e.Proven || int(e.Depth)/tt.DepthUnit >= endTTHeuristicMoveDepth) {
		return int(e.Move)
	}
	return -1
}

// valueEndMoves sets the ordering values of the moves ms of (p, o) in a
// null-window endgame node with the given empties: fastest first, plus the
// evaluation or a shallow search at high empties, plus parity.
func (s *searcher) valueEndMoves(ms []move, p, o uint64, alpha, empties, ttMove int) {
	par := parityOf(^(p | o))
	evalOrder := empties >= endEvalOrderMinEmpties
	sortSearch := empties >= endSearchOrderMinEmpties
	sortDepth := endSearchOrderDepth + (empties-endSearchOrderMinEmpties)/endSearchOrderStep
	// The shallow search only needs to tell the moves apart near alpha:
	// a child scoring far below it for us is as bad as any other, so its
	// search may stop at alpha - endSearchOrderWindow (fail soft, so the
	// values above still rank).
	sortBeta := inf
	if endSearchOrderWindow > 0 {
		sortBeta = -(alpha - endSearchOrderWindow)
	}
	// Up to endSearchTopKMaxEmpties, where the shallow search is at its
	// shallowest, every move is valued by the evaluation first and only the
	// endSearchTopK best get the search: the searches of the others cost
	// more time than their order saved (FFO #45-#49: 0.8% fewer nodes and
	// 2% less time this way). Higher up, where the searches are deeper,
	// the same cut cost nodes (#55: 7% more).
	topK := sortSearch && empties <= endSearchTopKMaxEmpties && len(ms) > endSearchTopK
	if topK {
		sortSearch = false
	}
	if evalOrder && !sortSearch {
		s.startEvalOrder(p, o, empties)
	}
	var evals [64]int32 // each move's evaluation term, for topK
	for i := range ms {
		m := &ms[i]
		x := int(m.sq)
		np, no := o&^m.flips, p|m.flips|sqBit(x)
		val := endOrderValue(np, no)
		if alpha >= wipeoutAlpha {
			val -= wipeoutOrderValue(np)
		}
		if sortSearch {
			val += int32(-s.mid(np, no, -inf, sortBeta, sortDepth)) * int32(endOrderSearchWeight)
		} else if evalOrder {
			e := s.evalOrderValue(empties, x, m.flips)
			evals[i&63] = e
			val += e
		}
		if par&quadrant[x] != 0 {
			val += int32(endOrderParityBonus)
		}
		val += squareOrderBonus[x&63]
		if x == ttMove {
			val += ttMoveBonus
		}
		m.val = val
	}
	if !topK {
		return
	}
	// The search's term replaces the evaluation's in the best moves, taken
	// one by one (at most 60 moves, so a bit each in searched).
	var searched uint64
	for range endSearchTopK {
		b := -1
		for i := range ms {
			if searched&(1<<(i&63)) == 0 && (b < 0 || ms[i].val > ms[b].val) {
				b = i
			}
		}
		searched |= 1 << (b & 63)
		m := &ms[b]
		np, no := o&^m.flips, p|m.flips|sqBit(int(m.sq))
		m.val += int32(-s.mid(np, no, -inf, sortBeta, sortDepth))*int32(endOrderSearchWeight) - evals[b&63]
	}
}

// startEvalOrder sets the evaluation state of (p, o), a node with the given
// empties, from which evalOrderValue values its moves: each child's
// evaluation is one Play from the node's state. The states are kept by
// empties (endEvals), and a node whose parent ordered by the evaluation too
// derives its own from the parent's by one Play, or one Pass after a pass,
// rather than reading the bare board (Init, 2.4% of the solver's profile on
// FFO #56): the same nodes, 0.7% fewer instructions on FFO #40-#44, 1.4%
// on #51.
func (s *searcher) startEvalOrder(p, o uint64, empties int) {
	s.initEval()
	if s.endEvals == nil {
		s.endEvals = new([64]eval.State)
	}
	st := &s.endEvals[empties&63]
	switch {
	case st.P == p && st.O == o:
		return // the same node again (the parallel split values twice)
	case st.P == o && st.O == p:
		s.ie.Pass(st, st)
		return
	}
	// The parent's state, if it holds the position before the move to
	// (p, o): one disc fewer (the move's square x), and the mover's discs
	// those of the parent's side to move plus the flips f, all taken from
	// the other side.
	par := &s.endEvals[(empties+1)&63]
	x := (p | o) &^ (par.P | par.O)
	f := o &^ par.P &^ x
	if x != 0 && x&(x-1) == 0 && o == par.P|f|x && p == par.O&^f && f&^par.O == 0 {
		s.ie.Play(st, par, bits.TrailingZeros64(x), f)
		return
	}
	s.ie.Init(st, p, o)
}

// evalOrderValue is the evaluation's term in the endgame order of the move
// x (flipping f) of the node with the given empties, whose state
// startEvalOrder set.
func (s *searcher) evalOrderValue(empties, x int, f uint64) int32 {
	return int32(-s.ie.PlayEvaluate(&s.endEvals[empties&63], x, f)) * int32(endOrderEvalWeight)
}

// scoreWindow narrows the window (alpha, beta) of an exact search to the
// scores there are, -64 to 64, or decides it (done, with the fail-soft score
// v) when it lies beyond them. A move scoring 64 then cuts, and the moves
// after it are not searched to prove that they score more than -65: once
// the root's first move had proven a wipeout on FFO #59, such searches of
// the other ten took 550 million nodes, 90% of the solve. Fail-soft scores
// never leave [-64, 64], so a score at a narrowed bound is exact.
func scoreWindow(alpha, beta int) (a, b, v int, done bool) {
	if alpha >= 64 {
		return alpha, beta, 64, true // score <= 64 <= alpha: fails low
	}
	if beta <= -64 {
		return alpha, beta, -64, true // score >= -64 >= beta: fails high
	}
	return max(alpha, -64), min(beta, 64), 0, false
}

// pvsEnd is the full-window endgame search used on the principal variation:
// exact when alpha < score < beta, otherwise a fail-soft bound.
func (s *searcher) pvsEnd(p, o uint64, alpha, beta, empties int) int {
	alpha, beta, v, done := scoreWindow(alpha, beta)
	if done {
		return v
	}
	if beta-alpha <= 1 {
		return s.nws(p, o, alpha, empties)
	}
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	if empties == 0 {
		return finalScore(p, o)
	}
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -s.pvsEnd(o, p, -beta, -alpha, empties)
	}
	key := tt.Key(p, o)
	ttMove := -1
	if e, ok := s.tt.Probe(key); ok {
		if e.Proven {
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
		if empties > 12 {
			val += int32(-s.ev.Evaluate(np, no)) << 3
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
		if i > 0 && s.splitEnd(empties) {
			if b, bm, ok := s.trySplit(p, o, l.ms[i:l.n], a, beta, 0, empties, best, bestMove); ok {
				best, bestMove = b, bm
				break
			}
		}
		m := l.next(i)
		np, no := o&^m.flips, p|m.flips|sqBit(int(m.sq))
		var v int
		if i == 0 {
			v = -s.pvsEnd(np, no, -beta, -a, empties-1)
		} else {
			v = -s.nws(np, no, -a-1, empties-1)
			if v > a && v < beta {
				v = -s.pvsEnd(np, no, -beta, -a, empties-1)
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
	s.tt.Store(key, resultEntry(best, alpha, beta, uint8(empties), bestMove, true))
	return best
}

// localEntry is a slot of the searcher's own endgame table: the bounds on
// the score of a position (for the side that moved into it: the parent's
// view), with the whole position as its key.
type localEntry struct {
	p, o         uint64
	lower, upper int8
}

// cut returns the bound e holds for (p, o) if it decides a null window at
// alpha.
func (e *localEntry) cut(p, o uint64, alpha int) (int, bool) {
	if e.p == p && e.o == o {
		if int(e.lower) > alpha {
			return int(e.lower), true
		}
		if int(e.upper) <= alpha {
			return int(e.upper), true
		}
	}
	return 0, false
}

// set stores in e the bound that a null-window search at alpha proved for
// (p, o): its fail-soft score v.
func (e *localEntry) set(p, o uint64, alpha, v int) {
	if v > alpha {
		*e = localEntry{p: p, o: o, lower: int8(v), upper: 64}
	} else {
		*e = localEntry{p: p, o: o, lower: -64, upper: int8(v)}
	}
}

// localBits is log2 of the slots per empties level of the local table.
const localBits = 10

// localTable holds, by empties, the bounds of positions searched below
// endLocalMaxEmpties: small enough to stay in the core's cache, private to
// the searcher (no atomics), and direct-mapped (a newer entry replaces).
type localTable [16][1 << localBits]localEntry

func localSlot(t *localTable, p, o uint64, empties int) *localEntry {
	h := (p*0x9dda1c54cfe6b6e9 ^ o*0xa2e6c0300831e05b) >> (64 - localBits)
	return &t[empties&15][h]
}

// endChild returns the score, for the side that moved, of the child
// (np, no) of a null-window node at alpha, searched with the given empties:
// through the local table when the child is below endLocalMaxEmpties (a
// parent in nwsDeep does for its children what nwsLocal does).
func (s *searcher) endChild(np, no uint64, alpha, empties int) int {
	if !localLayer(empties) {
		return -s.nws(np, no, -alpha-1, empties)
	}
	if s.local == nil {
		s.local = new(localTable)
	}
	e := localSlot(s.local, np, no, empties)
	if v, ok := e.cut(np, no, alpha); ok {
		return v
	}
	v := -s.nws(np, no, -alpha-1, empties)
	e.set(np, no, alpha, v)
	return v
}

// nwsLocal is the null-window search from endTTMinEmpties to
// endLocalMaxEmpties empties. Instead of the shared table it keeps its
// children's bounds in the searcher's local table, probed while the moves
// are valued (a transposition cutoff for each child at the price of a cache
// hit) and written by the parent after each child's search, so that a node
// never probes or stores for itself. A child that leaves the opponent at
// most endQuickReplies replies is searched at once, before the others are
// valued: such moves cut often, and valuing the rest is then wasted.
// moves (the mover's) and par (the quadrants with an odd number of
// empties) come from the caller: a parent in this layer has worked both out
// for each child while valuing it (localChild); working them out again
// cost 2.5% of the solver's time on FFO #40-#49.
func (s *searcher) nwsLocal(p, o uint64, alpha, empties int, moves uint64, par uint8) int {
	if v, done := s.endStable(p, o, alpha, empties); done {
		return v
	}
	if moves == 0 {
		om := bitboard.Moves(o, p)
		if om == 0 {
			return finalScore(p, o)
		}
		return -s.nwsLocal(o, p, -alpha-1, empties, om, par)
	}
	if s.endFrames == nil {
		s.endFrames = new([64]endFrame)
	}
	if s.local == nil {
		s.local = new(localTable)
	}
	lt := s.local
	fr := &s.endFrames[empties&63]
	l := &fr.l
	l.n = 0
	best := -inf
	evalOrder := empties >= endEvalOrderMinEmpties
	if evalOrder {
		s.startEvalOrder(p, o, empties)
	}
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		// The replies too, even where the local table decides the move:
		// one call for both costs less than two calls.
		f, r := bitboard.FlipsReplies(p, o, bitboard.Square(x))
		if f == o { // a wipeout: the best score there is
			return 64
		}
		np, no := o&^f, p|f|sqBit(x)
		e := localSlot(lt, np, no, empties-1)
		if v, ok := e.cut(np, no, alpha); ok {
			if v > alpha {
				return v
			}
			best = max(best, v)
			continue
		}
		if fewReplies(r) {
			v := -s.localChild(np, no, -alpha-1, empties-1, r, par^quadrant[x&63])
			e.set(np, no, alpha, v)
			if v > alpha {
				return v
			}
			best = max(best, v)
			continue
		}
		val := endOrderValueReplies(r, np, no)
		if alpha >= wipeoutAlpha {
			val -= wipeoutOrderValue(np)
		}
		if evalOrder {
			val += s.evalOrderValue(empties, x, f)
		}
		if par&quadrant[x] != 0 {
			val += int32(endOrderParityBonus)
		}
		val += squareOrderBonus[x&63]
		l.ms[l.n] = move{flips: f, val: val, sq: int8(x)}
		fr.replies[x&63] = r
		l.n++
	}
	for i := 0; i < l.n; i++ {
		m := l.next(i)
		np, no := o&^m.flips, p|m.flips|sqBit(int(m.sq))
		v := -s.localChild(np, no, -alpha-1, empties-1, fr.replies[m.sq&63], par^quadrant[m.sq&63])
		localSlot(lt, np, no, empties-1).set(np, no, alpha, v)
		if v > alpha {
			return v
		}
		best = max(best, v)
	}
	return best
}

// localChild searches a child of nwsLocal with the moves and the parity
// (quadrants with an odd number of empties) that the parent worked out for
// it, rather than working them out again.
func (s *searcher) localChild(p, o uint64, alpha, empties int, moves uint64, par uint8) int {
	switch {
	case localLayer(empties):
		return s.nwsLocal(p, o, alpha, empties, moves, par)
	case empties == 5:
		return s.solve5(p, o, alpha, par)
	case empties > 5 && empties <= endShallowMaxEmpties:
		return s.nwsShallow(p, o, alpha, empties, moves, par)
	}
	return s.nws(p, o, alpha, empties) // a layer that needs neither
}

// squareOrderBonus is the square's term in the null-window endgame's move
// order (nwsLocal, valueEndMoves): corners first, X squares (diagonally
// next to a corner) last, among moves valued alike otherwise. A corner
// once taken is kept, and an X square opens the corner to the opponent;
// the replies counted and the evaluation missed enough of that for the
// term to take 6.7% of the nodes off FFO #40-#49, 2.4% off #50-#53 and
// 10.4% off #56-#59.
// Larger terms in the deeper layer took more off #40-#49 but added nodes
// on #50-#53.
var squareOrderBonus = squareTerms(endOrderCornerMoveBonus, endOrderXMovePenalty)

// squareTerms returns a move order's square term: corner for a move to a
// corner (cornerMask), minus x for one to an X square (xMask), 0 elsewhere.
func squareTerms(corner, x int) (t [64]int32) {
	for sq := range t {
		switch {
		case cornerMask&sqBit(sq) != 0:
			t[sq] = int32(corner)
		case xMask&sqBit(sq) != 0:
			t[sq] = -int32(x)
		}
	}
	return t
}

// fewReplies reports whether a child leaving the opponent the replies r is
// searched before its siblings are valued (endQuickReplies, corners
// counting double); at the default of 1 without a bit count.
func fewReplies(r uint64) bool {
	if endQuickReplies == 1 {
		return r&(r-1) == 0 && r&cornerMask == 0 // none, or one that is not a corner
	}
	return bits.OnesCount64(r)+bits.OnesCount64(r&cornerMask) <= endQuickReplies
}
