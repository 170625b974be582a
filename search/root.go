package search

import (
	"cmp"
	"math/bits"
	"slices"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/tt"
)

// rootSearch drives one Search: iterative deepening, then (when the
// position is within the endgame limit) the exact solve.
type rootSearch struct {
	s      *searcher
	pos    bitboard.Position
	lim    Limits
	start  time.Time
	report func(Info)
	best   Info // result of the last completed iteration
	helper int  // 0: the main search; n > 0: lazy-SMP helper n
	// beforeSolve (if not nil) is called before the exact solve: it stops
	// the lazy-SMP helpers, whose threads the parallel solver then uses.
	beforeSolve func()
	// found is a move that the iteration in progress has proven better
	// than the last one's best (none: NoSquare); a stopped search plays it.
	found rootMove
	// before is the midgame iteration completed before best (Depth 0:
	// none), for the aspiration's guess (midAspirationParity).
	before Info
}

type rootMove struct {
	sq    bitboard.Square
	flips uint64
	score int // score (or bound) from the last iteration
}

// wldClass is a score's win/loss/draw class: +1, -1 or 0.
func wldClass(v int) int { return cmp.Compare(v, 0) }

// run searches r.pos; a stop (panic abortSignal) returns the best result
// completed so far. The plan, in order:
//
//  1. deepen: midgame iterations, one ply deeper each, at the asked
//     selectivity, while the time manager predicts that another fits; a
//     selective search that nears the end of the game jumps there instead
//     (selectiveEnd), and then, if it need not solve, searches exactly;
//  2. if the position is within the endgame limit but the solve is not
//     predicted to fit: the selective search to the end, surer at each
//     level (selectiveEnd);
//  3. if the solve fits: without a time limit, a selective search to the
//     end first, whose score centres the solve's window and whose moves
//     order it; then the exact solve.
//
// The selectivity of each pass is an argument of the pass (iterate,
// selectiveEnd, solve), which sets the searcher's for the nodes below.
func (r *rootSearch) run() (info Info) {
	pos := r.pos
	p, o := pos.Player, pos.Opponent
	if bitboard.Moves(p, o) == 0 {
		if bitboard.Moves(o, p) == 0 {
			sc := pos.FinalScore()
			if r.lim.WLD {
				sc = wldClass(sc)
			}
			return Info{Selectivity: 100, Exact: true, WLD: r.lim.WLD, Score: sc, Best: bitboard.NoSquare}
		}
		sub := *r
		sub.pos = pos.Pass()
		sub.lim.Resume = nil // a result for pos, not for the position after the pass
		sub.report = func(i Info) { r.report(passInfo(i)) }
		return passInfo(sub.run())
	}

	sel := selectivityOf(r.lim.Selectivity)
	moves := r.rootMoves()
	r.best = Info{Depth: 0, Selectivity: selectivityLevels[sel].percent, Score: moves[0].score, Best: moves[0].sq, PV: []bitboard.Square{moves[0].sq}}
	r.found.sq = bitboard.NoSquare
	defer func() {
		if rec := recover(); rec != nil {
			if _, ok := rec.(abortSignal); !ok {
				panic(rec)
			}
			info = r.best
			if r.found.sq != bitboard.NoSquare {
				info.Best, info.Score, info.PV = r.found.sq, r.found.score, []bitboard.Square{r.found.sq}
				info.Exact, info.WLD, info.BeforeDepth = false, false, 0
			}
		}
	}()

	pl := r.newPlan()
	first := 1 + r.helper%2
	if rs := r.resumable(moves, sel); rs != nil {
		if rs.Info.Exact {
			r.best = rs.Info
			r.report(r.best)
			return r.best
		}
		r.resume(rs, moves, pl.tm)
		first = rs.Info.Depth + 1
	}
	jumped, done := r.deepen(moves, pl, sel, first)
	if done || !pl.solve {
		return r.best
	}
	if !jumped && !pl.tm.solveFits(pl.empties) && sel != noSelectivity && pl.empties > mpcExactMaxEmpties {
		r.selectiveEnd(moves, pl.empties, pl.tm, sel)
	}
	if !pl.tm.solveFits(pl.empties) {
		return r.best
	}
	if r.helper > 0 {
		return r.best // the main search solves, split over the threads
	}
	if r.beforeSolve != nil {
		r.beforeSolve()
	}
	if solveSelectivePercent > 0 && !jumped && !pl.tm.timed() && pl.empties >= solveSelectiveMinEmpties && max(r.best.Score, -r.best.Score) <= solveSelectiveMaxScore {
		// Without a time limit, a selective search to the end first: its
		// probable score (nearly always the exact one) centres the
		// aspiration window and its table moves order the solve. Not near
		// ±64: Multi-ProbCut cannot cut past the score range, and the pass
		// grows into a full-width midgame search (FFO #39, +64: 168 M
		// nodes where the solve alone takes 8 M).
		presel := selectivityOf(solveSelectivePercent)
		score := r.iterate(moves, pl.empties, false, presel)
		debugf("selective end: score %d, %d nodes, %v\n", score, r.s.nodes, time.Since(r.start))
		r.best = r.result(moves, pl.empties, score, false, presel)
		r.report(r.best)
	}
	r.solve(moves, pl.empties)
	return r.best
}

// plan is what the root decides before its first iteration: how deep the
// midgame iterations may go and whether the position is to be solved.
type plan struct {
	empties   int
	solve     bool // within the endgame limit: solved if the time allows
	maxDepth  int  // the deepest midgame iteration
	presearch int  // before a solve without a time limit, the midgame depth that orders it
	toEnd     bool // the iterations may go on to the end of the game
	tm        *timeManager
}

func (r *rootSearch) newPlan() plan {
	empties := r.pos.Empties()
	eg := r.lim.EndgameEmpties
	if eg <= 0 {
		eg = DefaultEndgameEmpties
	}
	pl := plan{empties: empties, solve: empties <= eg, maxDepth: r.lim.Depth, tm: newTimeManager(r.lim, r.start)}
	if pl.maxDepth <= 0 || pl.maxDepth > 60 {
		pl.maxDepth = 60
	}
	pl.toEnd = pl.maxDepth >= empties
	// Before a solve, a short midgame search gives the move order and the
	// aspiration guess. Under a time limit the midgame search goes on until
	// the time manager predicts that the solve fits (or that no more
	// iterations do); if the solve does not finish, the midgame result is
	// the answer.
	pl.presearch = max(0, min(empties-solvePresearchOffset, solvePresearchMaxDepth))
	if pl.solve {
		if pl.tm.timed() {
			pl.maxDepth = min(pl.maxDepth, empties-1)
		} else {
			pl.maxDepth = min(pl.maxDepth, pl.presearch)
		}
	}
	return pl
}

// deepen runs the midgame iterations at selectivity sel. jumped reports
// that it went on to the selective search to the end, done that its last
// iteration was exact (the answer).
//
// A selective search that may go on to the end of the game stops
// deepening the midgame iterations short of it (midEndJumpEmpties) and
// searches to the end instead: the last plies of a midgame search that
// deep would only evaluate nearly finished positions, which the selective
// endgame search scores from their end in a similar time, if the time
// manager predicts that it ends in time (endFits). At 22-24 empties under
// 0.5 s a move this chose moves 8 discs better over 60 positions of games
// against NTest.
func (r *rootSearch) deepen(moves []rootMove, pl plan, sel, first int) (jumped, done bool) {
	empties, tm := pl.empties, pl.tm
	resumed := first > 1+r.helper%2
	// stop reports whether the iterations stop where the time manager says
	// so. A resumed search (a ponder hit) whose next iteration is not
	// predicted to finish still gives that iteration its own time, cut at
	// its soft limit, unless a solve is to come: a move it proves better is
	// played, its entries start the next ponder deeper, and iterations
	// that the table finishes at once go on to the next (near the end, to
	// the selective search to the end). Answered at once, a ponder hit
	// banks the move's time on the clock, and at 1 minute a game the
	// pondering side answered 42% of its moves at 32-43 empties in under
	// 0.1 s and ended its games with a third of its clock unused
	// (bench/journal/2026-12-03-pondering.md).
	var cut *time.Timer
	defer func() {
		if cut != nil {
			cut.Stop()
		}
	}()
	stop := func(d int) bool {
		switch {
		case tm.cutting:
			return !r.ownTimeFor(pl)
		case !r.deepEnough(pl, d, sel):
			return false
		case !resumed || !r.ownTimeFor(pl):
			return true
		}
		cut = time.AfterFunc(tm.ownTimeLeft(), func() { r.s.stop.Store(true) })
		tm.cutting = true
		return false
	}
	if resumed && stop(first-1) {
		return false, false
	}
	for d := first; d <= pl.maxDepth; d++ {
		if sel != noSelectivity && (d >= empties || (pl.toEnd && d > empties-midEndJumpEmpties && tm.endFits())) {
			jumped = true
			if !r.selectiveEnd(moves, empties, tm, sel) || pl.solve {
				return jumped, false // a solve follows if it fits
			}
			// Surer and surer up to the last selective level: next, the
			// exact search to the end.
			d, sel = empties, noSelectivity
		}
		exact := d >= empties
		score := r.iterate(moves, d, exact, sel)
		debugf("depth %d: score %d, %d nodes, %v\n", d, score, r.s.nodes, time.Since(r.start))
		r.before, r.best = r.best, r.result(moves, d, score, exact, sel)
		if b := r.before; !exact && b.Depth == d-1 && b.Depth > 0 && b.Selectivity == r.best.Selectivity && !b.Exact {
			r.best.Before, r.best.BeforeDepth = b.Score, b.Depth
		}
		r.found.sq = bitboard.NoSquare
		r.report(r.best)
		if exact {
			return jumped, true
		}
		tm.iterated(r.best, r.s.nodes)
		if stop(d) {
			return jumped, false
		}
	}
	return jumped, false
}

// ownTimeFor reports whether a resumed search that the time manager
// would stop gives its own time left to another iteration (deepen): no
// solve is to follow and enough of the soft limit is left.
func (r *rootSearch) ownTimeFor(pl plan) bool {
	return !(pl.solve && pl.tm.solveFits(pl.empties)) && pl.tm.ownTimeLeft() >= cutIterationMinimum
}

// deepEnough reports whether the midgame iterations at selectivity sel
// stop after depth d: the solve fits, or another iteration does not.
// Under a time limit a selective search goes on to its search to the end
// before the solve (midSolveAfterEnd), so that a solve the limit stops
// falls back on a probable result, not the pre-search; a caller that asks
// for the solve (AlwaysSolve) gets it at once.
func (r *rootSearch) deepEnough(pl plan, d, sel int) bool {
	tm := pl.tm
	return (pl.solve && d >= pl.presearch && (midSolveAfterEnd == 0 || !tm.timed() || tm.mustSolve || sel == noSelectivity) && tm.solveFits(pl.empties)) || !tm.another()
}

// resumable returns Limits.Resume if the main search can go on from it:
// an exact result (of the kind asked), or a midgame iteration at
// selectivity sel, whose best move is one of moves; else nil.
func (r *rootSearch) resumable(moves []rootMove, sel int) *Resume {
	rs := r.lim.Resume
	if rs == nil || r.helper > 0 || r.lim.MultiPV > 1 ||
		!slices.ContainsFunc(moves, func(m rootMove) bool { return m.sq == rs.Info.Best }) {
		return nil
	}
	in := rs.Info
	if in.Exact {
		if in.WLD != r.lim.WLD {
			return nil
		}
		return rs
	}
	if in.Depth < 1 || in.Depth >= r.pos.Empties() || in.Selectivity != selectivityLevels[sel].percent {
		return nil
	}
	return rs
}

// resume takes up the midgame iterations where rs left them: its result
// is the best so far (a stop plays its move), its best move is searched
// first, the score of the iteration before it guides the aspiration, and
// the time manager counts the time spent on them.
func (r *rootSearch) resume(rs *Resume, moves []rootMove, tm *timeManager) {
	i := slices.IndexFunc(moves, func(m rootMove) bool { return m.sq == rs.Info.Best })
	m := moves[i]
	copy(moves[1:i+1], moves[:i])
	moves[0] = m
	r.best = rs.Info
	if len(r.best.PV) == 0 || r.best.PV[0] != m.sq {
		r.best.PV = []bitboard.Square{m.sq}
	}
	if in := rs.Info; in.BeforeDepth > 0 {
		r.before = Info{Depth: in.BeforeDepth, Selectivity: in.Selectivity, Score: in.Before}
	}
	tm.resume(rs)
	r.report(r.best)
}

// passInfo turns the result for the position after a forced pass into the
// result for the position before it.
func passInfo(i Info) Info {
	i.Score, i.Before = -i.Score, -i.Before
	i.PV = append([]bitboard.Square{bitboard.PassMove}, i.PV...)
	i.Best = bitboard.PassMove
	i.Moves = []MoveScore{{Move: bitboard.PassMove, Score: i.Score}}
	return i
}

// rootMoves lists the legal moves, ordered by a one-ply heuristic.
func (r *rootSearch) rootMoves() []rootMove {
	p, o := r.pos.Player, r.pos.Opponent
	var ms []rootMove
	for mm := bitboard.Moves(p, o); mm != 0; mm &= mm - 1 {
		x := bits.TrailingZeros64(mm)
		f := flips(p, o, x)
		ms = append(ms, rootMove{sq: bitboard.Square(x), flips: f, score: -r.s.ev.Evaluate(o&^f, p|f|sqBit(x))})
	}
	slices.SortStableFunc(ms, func(a, b rootMove) int { return b.score - a.score })
	if r.helper > 0 && len(ms) > 2 { // helpers: another order after the first move
		k := r.helper % (len(ms) - 1)
		rest := ms[1:]
		slices.Reverse(rest[:k])
		slices.Reverse(rest[k:])
		slices.Reverse(rest)
	}
	return ms
}

// searchMoves runs a PVS over the root moves with window (alpha, beta),
// child giving a child's score for the side to move there. With multi, every
// move gets its own full window, so every score is exact, except that with
// Limits.MultiPVMargin a move's window starts that margin below the best
// score so far: one that fails low keeps an upper bound. Moves end sorted
// best first; the best score is returned.
func (r *rootSearch) searchMoves(moves []rootMove, alpha, beta int, multi bool, child func(np, no uint64, a, b int) int) int {
	p, o := r.pos.Player, r.pos.Opponent
	a, best := alpha, -inf
	for i := range moves {
		m := &moves[i]
		np, no := o&^m.flips, p|m.flips|m.sq.Bit()
		var v int
		switch {
		case multi:
			lo := alpha
			if r.lim.MultiPVMargin > 0 && i > 0 {
				lo = max(alpha, best-r.lim.MultiPVMargin-1)
			}
			v = -child(np, no, -beta, -lo)
		case i == 0:
			v = -child(np, no, -beta, -a)
		default:
			v = -child(np, no, -a-1, -a)
			if v > a && v < beta {
				v = -child(np, no, -beta, -a)
			}
		}
		m.score = v
		if v > best {
			if i > 0 && v > a && !multi {
				r.found = *m // proven better than the move searched first
			}
			best = v
			// Keep the best move first (the rest keep their order for now).
			if i > 0 {
				mv := *m
				copy(moves[1:i+1], moves[0:i])
				moves[0] = mv
			}
			if v >= beta && !multi {
				break
			}
			a = max(a, v)
		}
	}
	// Sort the rest by score for the next iteration (bounds included).
	slices.SortStableFunc(moves[1:], func(x, y rootMove) int { return y.score - x.score })
	return best
}

// iterate searches to depth d with an aspiration window around the last
// score.
func (r *rootSearch) iterate(moves []rootMove, d int, exact bool, sel int) int {
	r.s.sel = sel
	multi := r.multiAt(d)
	child := func(np, no uint64, a, b int) int { return r.s.mid(np, no, a, b, d-1) }
	if d < 4 || multi || exact {
		return r.searchMoves(moves, -inf, inf, multi, child)
	}
	g := r.best.Score
	// The search values the side to move about 3 discs higher at odd
	// depths than at even ones (bench/parity.go), so the last iteration's
	// score misses by that much, alternately up and down; the one before,
	// of the same parity, is the nearer guess.
	if midAspirationParity != 0 && r.best.Depth == d-1 && d >= 3 && r.before.Depth == d-2 {
		g = r.before.Score
	}
	lo, hi := g-midAspirationWidth, g+midAspirationWidth
	for {
		v := r.searchMoves(moves, lo, hi, false, child)
		switch {
		case v <= lo && lo > -inf:
			lo = max(-inf, lo-midAspirationStep)
			if lo < -60 {
				lo = -inf
			}
		case v >= hi && hi < inf:
			hi = min(inf, hi+midAspirationStep)
			if hi > 60 {
				hi = inf
			}
		default:
			return v
		}
	}
}

// multiAt reports whether the iteration to depth d scores every root move
// (Limits.MultiPV, Limits.MultiPVFinal): with MultiPVFinal only the last,
// at the depth limit or at the end of the game, whichever comes first.
func (r *rootSearch) multiAt(d int) bool {
	return r.lim.MultiPV > 1 && (!r.lim.MultiPVFinal || r.lim.Depth <= 0 || d >= min(r.lim.Depth, r.pos.Empties()))
}

// solve finds the exact (or WLD) score of the root.
func (r *rootSearch) solve(moves []rootMove, empties int) {
	r.s.sel = noSelectivity
	multi := r.lim.MultiPV > 1
	child := func(np, no uint64, a, b int) int { return r.s.pvsEnd(np, no, a, b, empties-1) }
	var v int
	if r.lim.WLD {
		v = r.searchMoves(moves, -1, 1, multi, child)
		for i := range moves {
			moves[i].score = wldClass(moves[i].score)
		}
		v = wldClass(v)
	} else if multi || solveAspirationWidth < 0 {
		v = r.searchMoves(moves, -65, 65, multi, child)
	} else {
		// Aspiration: final scores are even, so a window of odd bounds
		// around an even guess pins the score with few re-searches.
		g := r.best.Score &^ 1
		debugf("guess %d from depth %d\n", r.best.Score, r.best.Depth)
		lo, hi := max(-65, g-solveAspirationWidth-1), min(65, g+solveAspirationWidth+1)
		if g >= 64 || g <= -64 {
			// A wipeout guessed: first only whether it holds, a null
			// window. The window around it would also ask for the exact
			// score of every line that falls a little short: on FFO #59
			// (+64), 583 million nodes for the window (61, 64) against
			// 129 million for the null window.
			lo, hi = max(g-1, -65), min(g+1, 65)
		}
		w := solveAspirationWidth
		for {
			v = r.searchMoves(moves, lo, hi, false, child)
			w *= solveAspirationGrowth // widen faster after each failure
			if v <= lo && lo > -65 {
				lo, hi = max(-65, v-w-1), v+1
			} else if v >= hi && hi < 65 {
				lo, hi = v-1, min(65, v+w+1)
			} else {
				break
			}
		}
	}
	r.best = r.result(moves, empties, v, true, noSelectivity)
	r.found.sq = bitboard.NoSquare
	if r.helper == 0 {
		r.best.PV = r.exactPV(moves[0].sq, v)
	}
	r.report(r.best)
}

// result builds the Info of a completed iteration at selectivity sel. Its
// nodes are the whole search's so far, split workers' included (they are
// idle between iterations), as the final result counts them.
func (r *rootSearch) result(moves []rootMove, d, score int, exact bool, sel int) Info {
	exact = exact && sel == noSelectivity
	nodes := r.s.nodes
	if r.s.par.pool != nil {
		nodes += r.s.par.pool.nodes()
	}
	info := Info{Depth: d, Selectivity: selectivityLevels[sel].percent, Exact: exact, WLD: exact && r.lim.WLD, Score: score, Best: moves[0].sq,
		Nodes: nodes, Time: time.Since(r.start)}
	info.PV = r.ttPV(moves[0].sq, max(d, 1))
	if r.multiAt(d) {
		for i := range moves[:min(len(moves), r.lim.MultiPV)] {
			info.Moves = append(info.Moves, MoveScore{Move: moves[i].sq, Score: moves[i].score})
		}
	}
	return info
}

// ttPV follows the table's best moves from the root's best move, checking
// legality, for at most n moves (passes not counted).
func (r *rootSearch) ttPV(first bitboard.Square, n int) []bitboard.Square {
	pv := []bitboard.Square{first}
	pos := r.pos.Play(first)
	for k := 1; k < n; {
		if pos.GameOver() {
			break
		}
		if pos.MustPass() {
			pv = append(pv, bitboard.PassMove)
			pos = pos.Pass()
			continue
		}
		e, ok := r.s.tt.Probe(tt.Key(pos.Player, pos.Opponent))
		if !ok || e.Move == tt.NoMove || !pos.IsLegal(bitboard.Square(e.Move)) {
			break
		}
		pv = append(pv, bitboard.Square(e.Move))
		pos = pos.Play(bitboard.Square(e.Move))
		k++
	}
	return pv
}

// exactPV builds the PV of a solved root with score v by checking, position
// by position, which move keeps the score (the table's move first). In a
// WLD solve it follows the table's moves only.
func (r *rootSearch) exactPV(first bitboard.Square, v int) []bitboard.Square {
	if r.lim.WLD {
		return r.ttPV(first, 60)
	}
	r.best.PV = []bitboard.Square{first} // in case the walk is stopped
	pv := []bitboard.Square{first}
	pos := r.pos.Play(first)
	sc := -v // score for the side to move in pos
	for !pos.GameOver() {
		if pos.MustPass() {
			pv = append(pv, bitboard.PassMove)
			pos, sc = pos.Pass(), -sc
			continue
		}
		var cand []bitboard.Square
		if e, ok := r.s.tt.Probe(tt.Key(pos.Player, pos.Opponent)); ok && e.Move != tt.NoMove && pos.IsLegal(bitboard.Square(e.Move)) {
			cand = append(cand, bitboard.Square(e.Move))
		}
		for mm := pos.Moves(); mm != 0; mm &= mm - 1 {
			cand = append(cand, bitboard.FirstSquare(mm))
		}
		found := false
		for _, m := range cand {
			c := pos.Play(m)
			if -r.s.pvsEnd(c.Player, c.Opponent, -sc-1, -sc+1, c.Empties()) == sc {
				pv = append(pv, m)
				pos, sc, found = c, -sc, true
				break
			}
		}
		if !found { // cannot happen if v is exact; stop rather than guess
			break
		}
		r.best.PV = pv
	}
	return pv
}
