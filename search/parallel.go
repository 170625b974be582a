package search

import (
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/tt"
)

// The parallel search: young brothers wait (YBWC), as Edax splits its tree.
// A node with at least parSplitMinEmpties empties (exact solve) or depth
// parMidSplitMinDepth (midgame) searches its first (best-ordered) move alone;
// once that move has failed to cut, the other moves are shared out between
// the node's own thread and idle workers, each a searcher of its own (node
// counter, evaluation states) sharing the transposition table. A child that
// fails high stops its siblings at once. Workers split again below while
// others are idle. Below the thresholds the serial searches (nws, pvsEnd,
// mid) run unchanged: the split nodes are a small part of the tree, so
// their extra cost (a goroutine, a lock per move) does not show in the
// node speed.
//
// Stopping: every searcher's poll asks stopped(), which checks the engine's
// stop flag (workers share it) and the abort flags of the split points it
// works under, up the chain of split points; a cutoff, the engine's stop, or
// the main search's node limit (which aborts the split points it unwinds
// through) thus reaches every thread within one poll interval.
//
// Exact scores do not depend on the thread count (alpha-beta over proven
// bounds), nor do midgame values at a fixed depth without selectivity; the
// node count and, among moves of equal score, the move found may.

// parallel is the searcher's share of the parallel search; its zero value is
// a serial searcher.
type parallel struct {
	pool  *workerPool
	split *splitPoint // the innermost split point this searcher works at
}

// workerPool hands out idle workers: idle counts the threads free to start
// one, and free keeps the searchers of finished workers for reuse (their
// evaluation states are worth keeping).
type workerPool struct {
	idle atomic.Int32
	mu   sync.Mutex
	free []*searcher
	all  []*searcher
	tmpl searcher // the fields new workers copy: table, evaluation, stop flag
}

// reset prepares the pool for a search by template (threads in all, the
// template's searcher being one of them).
func (wp *workerPool) reset(tmpl *searcher, threads int) {
	wp.idle.Store(int32(threads - 1))
	wp.tmpl = searcher{tt: tmpl.tt, ev: tmpl.ev, stop: tmpl.stop}
	for _, w := range wp.all {
		w.nodes, w.checkAt, w.stop, w.par = 0, pollInterval, tmpl.stop, parallel{pool: wp}
	}
}

// nodes is the workers' node count.
func (wp *workerPool) nodes() uint64 {
	var n uint64
	for _, w := range wp.all {
		n += w.nodes
	}
	return n
}

// take returns an idle worker's searcher, or nil if every thread is busy.
func (wp *workerPool) take() *searcher {
	for {
		n := wp.idle.Load()
		if n <= 0 {
			return nil
		}
		if wp.idle.CompareAndSwap(n, n-1) {
			break
		}
	}
	wp.mu.Lock()
	defer wp.mu.Unlock()
	if k := len(wp.free); k > 0 {
		w := wp.free[k-1]
		wp.free = wp.free[:k-1]
		return w
	}
	w := &searcher{tt: wp.tmpl.tt, ev: wp.tmpl.ev, stop: wp.tmpl.stop, checkAt: pollInterval}
	w.par.pool = wp
	wp.all = append(wp.all, w)
	return w
}

// give returns a worker's searcher and its thread to the pool.
func (wp *workerPool) give(w *searcher) {
	w.par.split = nil
	wp.mu.Lock()
	wp.free = append(wp.free, w)
	wp.mu.Unlock()
	wp.idle.Add(1)
}

// stopped reports whether the searcher must unwind: the engine was stopped,
// or a split point it works under was aborted.
func (s *searcher) stopped() bool {
	if s.stop.Load() {
		return true
	}
	for sp := s.par.split; sp != nil; sp = sp.parent {
		if sp.abort.Load() {
			return true
		}
	}
	return false
}

// splitPoint is a node whose remaining moves are searched by several
// threads. Everything below mu changes under it.
type splitPoint struct {
	parent  *splitPoint // the split point the node's own thread worked at
	abort   atomic.Bool // set on a cutoff or a stop: the threads here unwind
	p, o    uint64
	beta    int
	empties int
	depth   int  // a midgame node's depth; 0: an endgame node
	pv      bool // a full window: children that fail high are searched again
	wg      sync.WaitGroup

	mu             sync.Mutex
	ms             []move
	next           int
	alpha          int
	best, bestMove int
	cut            bool // a child failed high: the result is a lower bound
	incomplete     bool // a worker was stopped before finishing its move
	failure        any  // a worker's panic other than a stop, raised again by the node's thread
}

// childScore searches the child (np, no) of a node with the given depth
// (0: an endgame node) and empties, with window (alpha, beta) for the node.
func (s *searcher) childScore(np, no uint64, alpha, beta, depth, empties int) int {
	if depth > 0 {
		return -s.midPar(np, no, -beta, -alpha, depth-1)
	}
	return -s.pvsEndPar(np, no, -beta, -alpha, empties-1)
}

// work searches moves of the split point until none is left; it reports
// whether s was stopped.
func (sp *splitPoint) work(s *searcher) (stopped bool) {
	defer func() {
		if rec := recover(); rec != nil {
			if _, ok := rec.(abortSignal); !ok {
				panic(rec)
			}
			stopped = true
		}
	}()
	for {
		sp.mu.Lock()
		if sp.cut || sp.next >= len(sp.ms) {
			sp.mu.Unlock()
			return false
		}
		m := sp.ms[sp.next]
		sp.next++
		a := sp.alpha
		sp.mu.Unlock()

		x := int(m.sq)
		np, no := sp.o&^m.flips, sp.p|m.flips|sqBit(x)
		v := s.childScore(np, no, a, a+1, sp.depth, sp.empties)
		if sp.pv && v > a && v < sp.beta {
			sp.mu.Lock()
			a = max(a, sp.alpha)
			sp.mu.Unlock()
			v = s.childScore(np, no, a, sp.beta, sp.depth, sp.empties)
		}

		sp.mu.Lock()
		if v > sp.best {
			sp.best, sp.bestMove = v, x
		}
		if v >= sp.beta {
			sp.cut = true
			sp.abort.Store(true)
		} else if v > sp.alpha {
			sp.alpha = v
		}
		sp.mu.Unlock()
	}
}

// helper runs a worker at the split point and gives it back.
func (sp *splitPoint) helper(w *searcher) {
	defer sp.wg.Done()
	defer w.par.pool.give(w)
	defer func() {
		if rec := recover(); rec != nil {
			sp.mu.Lock()
			sp.failure = rec
			sp.mu.Unlock()
			sp.abort.Store(true)
		}
	}()
	if sp.work(w) {
		sp.mu.Lock()
		sp.incomplete = true
		sp.mu.Unlock()
	}
}

// searchRest searches the moves ms of (p, o) left after the first, whose
// score is best: serially while every thread is busy, split with idle
// workers as soon as one is free and two moves are left. Scores are fail
// soft, as in the serial search.
func (s *searcher) searchRest(p, o uint64, ms []move, alpha, beta, depth, empties, best, bestMove int) (int, int) {
	a := max(alpha, best)
	pv := beta-alpha > 1
	for i := range ms {
		if len(ms)-i >= 2 {
			if w := s.par.pool.take(); w != nil {
				return s.split(p, o, ms[i:], a, beta, depth, empties, best, bestMove, pv, w)
			}
		}
		m := &ms[i]
		x := int(m.sq)
		np, no := o&^m.flips, p|m.flips|sqBit(x)
		v := s.childScore(np, no, a, a+1, depth, empties)
		if pv && v > a && v < beta {
			v = s.childScore(np, no, a, beta, depth, empties)
		}
		if v > best {
			best, bestMove = v, x
			if v >= beta {
				break
			}
			a = max(a, v)
		}
	}
	return best, bestMove
}

// split searches ms with the first worker w and whatever others are idle.
func (s *searcher) split(p, o uint64, ms []move, alpha, beta, depth, empties, best, bestMove int, pv bool, w *searcher) (int, int) {
	sp := &splitPoint{parent: s.par.split, p: p, o: o, beta: beta, empties: empties, depth: depth, pv: pv,
		ms: ms, alpha: alpha, best: best, bestMove: bestMove}
	pool := s.par.pool
	for k := 1; w != nil; k++ {
		w.par.split, w.sel = sp, s.sel
		sp.wg.Add(1)
		go sp.helper(w)
		w = nil
		if k < len(ms)-1 {
			w = pool.take()
		}
	}
	s.par.split = sp
	stopped := sp.work(s)
	s.par.split = sp.parent
	if stopped {
		sp.abort.Store(true)
	}
	// While it waits this thread is idle: lend it to the pool, so that a
	// worker may split below (a "helpful master" at the scheduler's level).
	pool.idle.Add(1)
	sp.wg.Wait()
	pool.idle.Add(-1)
	if sp.failure != nil {
		panic(sp.failure)
	}
	if !sp.cut && (stopped || sp.incomplete) {
		panic(abortSignal{})
	}
	return sp.best, sp.bestMove
}

// nwsPar is nws with young-brothers-wait splitting at parSplitMinEmpties
// empties and more; it mirrors nwsDeep's node (stability cutoff, table,
// enhanced transposition cutoffs, the table's move first).
func (s *searcher) nwsPar(p, o uint64, alpha, empties int) int {
	if s.par.pool == nil || empties < parSplitMinEmpties {
		return s.nws(p, o, alpha, empties)
	}
	moves, v, done := s.endEnter(p, o, alpha, empties)
	if done {
		return v
	}
	if moves == 0 {
		return -s.nwsPar(o, p, -alpha-1, empties)
	}
	key := tt.Key(p, o)
	ttMove := -1
	if e, ok := s.tt.Probe(key); ok {
		if e.Proven {
			if int(e.Lower) > alpha {
				return int(e.Lower)
			}
			if int(e.Upper) <= alpha {
				return int(e.Upper)
			}
		}
		if x := endTableMove(e); x >= 0 && moves&sqBit(x) != 0 {
			ttMove = x
		}
	}
	// Enhanced transposition cutoffs as in nwsDeep: every child's bucket
	// prefetched first, so that the probes' misses overlap.
	var l moveList
	var keys [64]uint64
	for mm := moves; mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		f := flips(p, o, x)
		keys[l.n] = tt.Key(o&^f, p|f|sqBit(x))
		s.tt.Prefetch(keys[l.n])
		l.ms[l.n] = move{flips: f, sq: int8(x)}
		l.n++
	}
	best, bestMove := -inf, tt.NoMove
	n := 0
	for i := 0; i < l.n; i++ {
		m := l.ms[i]
		if e, ok := s.tt.Probe(keys[i]); ok && e.Proven {
			if v := -int(e.Upper); v > alpha {
				s.tt.Store(key, tt.Entry{Lower: int8(v), Upper: 64, Depth: uint8(empties), Move: uint8(m.sq), Proven: true})
				return v
			}
			// Proven to fail low: neither valued nor searched.
			if v := -int(e.Lower); v <= alpha && endETCSkipFailLow != 0 {
				if v > best {
					best, bestMove = v, int(m.sq)
				}
				continue
			}
		}
		l.ms[n] = m
		n++
	}
	if ms := l.ms[:n]; n > 0 {
		if v, x := s.firstMove(p, o, ms, alpha, alpha+1, 0, empties, ttMove); v > best {
			best, bestMove = v, x
		}
		if best <= alpha {
			best, bestMove = s.searchRest(p, o, ms[1:], alpha, alpha+1, 0, empties, best, bestMove)
		}
	}
	e := tt.Entry{Lower: -64, Upper: int8(best), Depth: uint8(empties), Move: uint8(bestMove), Proven: true}
	if best > alpha {
		e.Lower, e.Upper = int8(best), 64
	}
	s.tt.Store(key, e)
	return best
}

// firstMove searches the eldest brother, alone: the table's move if there
// is one (before the others are valued, as nwsDeep does), otherwise the
// best-valued move. It leaves ms[0] the move searched and ms[1:] ordered.
func (s *searcher) firstMove(p, o uint64, ms []move, alpha, beta, depth, empties, ttMove int) (int, int) {
	value := func(ms []move) {
		if depth > 0 {
			valueMidMoves(s.ev, ms, p, o)
		} else {
			s.valueEndMoves(ms, p, o, alpha, empties, ttMove)
		}
	}
	i := slices.IndexFunc(ms, func(m move) bool { return int(m.sq) == ttMove })
	if i < 0 {
		value(ms)
		i = 0
		for j := range ms {
			if ms[j].val > ms[i].val {
				i = j
			}
		}
	}
	ms[0], ms[i] = ms[i], ms[0]
	m := &ms[0]
	x := int(m.sq)
	np, no := o&^m.flips, p|m.flips|sqBit(x)
	v := s.childScore(np, no, alpha, beta, depth, empties)
	if v < beta {
		if ttMove >= 0 { // the others are not valued yet
			value(ms[1:])
		}
		slices.SortStableFunc(ms[1:], func(a, b move) int { return int(b.val) - int(a.val) })
	}
	return v, x
}

// pvsEndPar is pvsEnd with young-brothers-wait splitting at
// parSplitMinEmpties empties and more (nwsPar for null windows).
func (s *searcher) pvsEndPar(p, o uint64, alpha, beta, empties int) int {
	if s.par.pool == nil || empties < parSplitMinEmpties {
		return s.pvsEnd(p, o, alpha, beta, empties) // which narrows the window itself
	}
	alpha, beta, v, done := scoreWindow(alpha, beta)
	if done {
		return v
	}
	if beta-alpha <= 1 {
		return s.nwsPar(p, o, alpha, empties)
	}
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -s.pvsEndPar(o, p, -beta, -alpha, empties)
	}
	key := tt.Key(p, o)
	ttMove := -1
	if e, ok := s.tt.Probe(key); ok {
		if e.Proven {
			if v, ok := ttCut(e, alpha, beta); ok {
				return v
			}
		}
		if e.Move != tt.NoMove && moves&sqBit(int(e.Move)) != 0 {
			ttMove = int(e.Move)
		}
	}
	var l moveList
	l.fill(p, o, moves)
	ms := l.ms[:l.n]
	best, bestMove := s.firstMove(p, o, ms, alpha, beta, 0, empties, ttMove)
	if best < beta {
		best, bestMove = s.searchRest(p, o, ms[1:], alpha, beta, 0, empties, best, bestMove)
	}
	s.tt.Store(key, resultEntry(best, alpha, beta, uint8(empties), bestMove, true))
	return best
}

// valueMidMoves sets the ordering values of the moves ms of (p, o) in a
// midgame split node, as midMoves orders: fastest first plus the
// evaluation of the child.
func valueMidMoves(ev Evaluator, ms []move, p, o uint64) {
	for i := range ms {
		m := &ms[i]
		np, no := o&^m.flips, p|m.flips|sqBit(int(m.sq))
		m.val = fastestFirst(np, no) + int32(-ev.Evaluate(np, no))<<4
	}
}

// midPar is the midgame search (mid) with young-brothers-wait splitting at
// depth parMidSplitMinDepth and more. It mirrors midState's node (the
// table, Multi-ProbCut at the search's selectivity, exact or selective
// endgame nodes), searching the children with midPar and, below the split
// depth, with the serial mid.
func (s *searcher) midPar(p, o uint64, alpha, beta, depth int) int {
	if s.par.pool == nil || depth < parMidSplitMinDepth {
		return s.mid(p, o, alpha, beta, depth)
	}
	empties := 64 - bits.OnesCount64(p|o)
	if depth >= empties {
		if s.sel == noSelectivity || empties <= mpcExactMaxEmpties {
			return s.pvsEndPar(p, o, max(alpha, -65), min(beta, 65), empties)
		}
		depth = empties
	}
	s.nodes++
	if s.nodes >= s.checkAt {
		s.poll()
	}
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -s.midPar(o, p, -beta, -alpha, depth)
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
		if v, ok := s.probCutAt(p, o, alpha, beta, depth, empties, moves); ok {
			return v
		}
	}
	var l moveList
	l.fill(p, o, moves)
	ms := l.ms[:l.n]
	best, bestMove := s.firstMove(p, o, ms, alpha, beta, depth, empties, ttMove)
	if best < beta {
		best, bestMove = s.searchRest(p, o, ms[1:], alpha, beta, depth, empties, best, bestMove)
	}
	s.tt.Store(key, resultEntry(best, alpha, beta, ttDepth(depth, s.sel), bestMove, false))
	return best
}

// probCutAt runs probCut on (p, o), which it first sets up in its slot of
// the evaluation states, as mid does (the split nodes above keep no state).
func (s *searcher) probCutAt(p, o uint64, alpha, beta, depth, empties int, moves uint64) (int, bool) {
	s.initEval()
	slot := 2 * empties
	s.ie.Init(&s.states[slot], p, o)
	return s.probCut(slot, alpha, beta, depth, empties, moves)
}
