package search

import (
	"slices"
	"sync"
	"sync/atomic"
)

// The parallel search: young brothers wait (YBWC), as Edax splits its tree.
// There is one function per node kind (mid's midState, pvsEnd, nwsDeep);
// their move loops ask trySplit, once the first (best-ordered) move has
// failed to cut, whether to share the other moves out: at a node with at
// least parSplitMinEmpties empties (exact solve) or depth
// parMidSplitMinDepth (midgame), when a worker is idle. The moves left are
// then searched by the node's own thread and idle workers, each a searcher
// of its own (node counter, evaluation states) sharing the transposition
// table. A child that fails high stops its siblings at once. Workers split
// again below while others are idle. This file holds only that machinery:
// the split point, its workers and the pool; with one thread (no pool)
// the nodes never split and search exactly as the serial search.
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
// (0: an endgame node) and empties, with window (alpha, beta) for the node,
// by the same node functions as the serial search.
func (s *searcher) childScore(np, no uint64, alpha, beta, depth, empties int) int {
	if depth > 0 {
		return -s.mid(np, no, -beta, -alpha, depth-1)
	}
	return -s.pvsEnd(np, no, -beta, -alpha, empties-1)
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

// trySplit is asked by a node's move loop, after its first move, whether
// to share out the moves ms still to search: when a worker is idle and two
// moves are left, it searches them with the node's window (alpha raised to
// the best so far), in the order of their values, and returns the node's
// best score and move (fail soft, as the serial loop); ok is false when
// every thread is busy, and the loop goes on by itself.
func (s *searcher) trySplit(p, o uint64, ms []move, alpha, beta, depth, empties, best, bestMove int) (int, int, bool) {
	if len(ms) < 2 {
		return best, bestMove, false
	}
	w := s.par.pool.take()
	if w == nil {
		return best, bestMove, false
	}
	slices.SortStableFunc(ms, func(a, b move) int { return int(b.val) - int(a.val) })
	best, bestMove = s.split(p, o, ms, max(alpha, best), beta, depth, empties, best, bestMove, beta-alpha > 1, w)
	return best, bestMove, true
}

// splitEnd reports whether an endgame node with the given empties may
// split, and splitMid a midgame node of the given depth.
func (s *searcher) splitEnd(empties int) bool {
	return empties >= parSplitMinEmpties && s.par.pool != nil
}
func (s *searcher) splitMid(depth int) bool { return depth >= parMidSplitMinDepth && s.par.pool != nil }

// split searches ms with the first worker w and whatever others are idle.
func (s *searcher) split(p, o uint64, ms []move, alpha, beta, depth, empties, best, bestMove int, pv bool, w *searcher) (int, int) {
	sp := &splitPoint{parent: s.par.split, p: p, o: o, beta: beta, empties: empties, depth: depth, pv: pv,
		ms: ms, alpha: alpha, best: best, bestMove: bestMove}
	pool := s.par.pool
	for k := 1; w != nil; k++ {
		w.par.split, w.sel, w.pcLevel = sp, s.sel, s.pcLevel // as the node's thread searches there
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
