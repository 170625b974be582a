package search

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/tt"
)

// Options configure an Engine.
type Options struct {
	HashMB  int       // transposition table size in MiB (0: 64)
	Threads int       // search threads (0 or 1: one); see Engine.Search
	Eval    Evaluator // midgame evaluation and endgame move ordering (nil: a mobility/corner heuristic)
}

// DefaultHashMB is the table size used when Options.HashMB is 0.
const DefaultHashMB = 64

// Limits bound one search. Zero values mean unlimited.
type Limits struct {
	Depth int    // midgame depth in plies
	Nodes uint64 // node budget (with Threads > 1, of the main thread: the others stop with it)

	// Time is the hard limit: the search stops when it is spent. Soft is
	// the time the search aims to use (0: the time manager derives it from
	// Time); the time manager decides from both, and from how long the
	// last iterations took, whether to start another iteration or a solve,
	// and may run past Soft (never past Time) when the best move's score
	// drops.
	Time time.Duration
	Soft time.Duration

	// Selectivity is the confidence, in percent, of the Multi-ProbCut cuts
	// the search may make: one of 73, 87, 95, 98, 99, or 100 for none
	// (0: DefaultSelectivity).
	Selectivity int

	// EndgameEmpties: positions with at most this many empty squares are
	// solved exactly (0: DefaultEndgameEmpties; AlwaysSolve: every position).
	// If a time or node limit stops the solve, the result is that of the
	// midgame search run before it (Info.Exact false).
	EndgameEmpties int
	WLD            bool // solve for win/loss/draw only (faster than the exact score)
	MultiPV        int  // >1: also score up to this many best root moves (Info.Moves)
	// MultiPVMargin, with MultiPV > 1 and above 0: a root move that scores
	// more than this many discs below the best so far is searched only far
	// enough to prove it, and its score in Info.Moves is an upper bound
	// (at most best-MultiPVMargin-1). The moves within the margin keep
	// exact scores. For callers that ignore moves that far below the
	// best (the self-play softmax gives them weight 0).
	MultiPVMargin int
	// MultiPVFinal, with MultiPV > 1 and a Depth: only the last midgame
	// iteration (Depth) scores every root move; the ones before it look
	// for the best move alone, as a search without MultiPV does. The
	// scores are the last iteration's either way, from a table filled
	// differently (so they may differ where the table's deeper entries
	// decide), and cost less.
	MultiPVFinal bool

	// Resume, if not nil, is what earlier searches of this same position
	// found (a ponder on the reply the engine expected): the search goes
	// on from it instead of starting over. See Resume.
	Resume *Resume
}

// Resume is where earlier searches of a position left off, for a search
// of the same position that goes on from there, as a chess engine's
// "ponder hit" goes on from its ponder: the midgame iterations up to
// Info's depth are not searched again (their table entries are still in
// the table, or most of them), and an exact result is the answer at once.
// A Resume that does not fit the search (another selectivity, a result
// that is not a midgame iteration, a move that is not legal, MultiPV) is
// ignored: the search starts over, with the table as warm as it is.
// Where the time manager would stop at once (the next iteration is not
// predicted to finish), the search still spends its own time, less any
// Credit, on the next iterations, cut at its soft limit: a hit answered at
// once only banks that time, which a pondering player then leaves unused.
type Resume struct {
	// Info is the deepest midgame iteration completed, or an exact
	// result; its Time and Nodes count from the start of the first of the
	// earlier searches (pondering stopped and resumed adds up).
	Info Info
	// Spent is how long the earlier searches ran in all (at least
	// Info.Time); Last and Prev how long Info's iteration and the one
	// before it took (0: not known), for the time manager's prediction of
	// the next one.
	Spent, Last, Prev time.Duration
	// Credit is the part of Spent that counts toward the soft limit, as
	// if the search had started that long ago: a search credited as long
	// as its budget answers at once (on a clock, the time saved goes to
	// later moves). The rest of Spent comes on top of the search's own
	// time (0: the search gets its whole time, as a time a move, which
	// is not banked, wants). The hard limit is wall time either way.
	Credit time.Duration
}

// DefaultEndgameEmpties is the number of empties at or below which Search
// solves exactly unless Limits.EndgameEmpties says otherwise.
const DefaultEndgameEmpties = 20

// AlwaysSolve is the Limits.EndgameEmpties that solves every position: no
// position has more empties (any larger value means the same).
const AlwaysSolve = 60

// DefaultSelectivity is the Multi-ProbCut confidence of a search whose
// Limits leave it 0: the confidence at which the fit's cuts cost the
// least strength for their time in games (NBoard shows depths as 18@73%).
const DefaultSelectivity = 73

// MoveScore is a root move and its score.
type MoveScore = bitboard.MoveScore

// Info describes a search result (or progress, when given to the report
// callback).
type Info struct {
	Depth int // midgame depth completed; for a solve, the number of empties
	// Selectivity is the confidence of the result in percent: 100 when the
	// search made no selective (Multi-ProbCut) cut, as NBoard shows it in
	// "18@95%". A result below 100 is never Exact.
	Selectivity int
	Exact       bool // the score is proven: an exact score, or a WLD result if WLD
	WLD         bool // the score is a win/loss/draw result: -1, 0 or +1
	Score       int
	// Before is the score of the iteration one ply shallower at the same
	// selectivity, when there was one (BeforeDepth = Depth-1; 0: none),
	// for Steady.
	Before, BeforeDepth int
	Best                bitboard.Square   // best move; PassMove if the side to move must pass; NoSquare if the game is over
	PV                  []bitboard.Square // principal variation starting with Best (passes included)
	Moves               []MoveScore       // with MultiPV > 1: root moves' scores, best first
	Nodes               uint64
	Time                time.Duration
}

// Steady is the score with the odd-even effect taken out: a midgame
// search values the side to move higher at odd depths than at even ones
// (about 3 discs), so its score swings with each iteration; Steady is the
// mean of this iteration's score and the one before it. It is Score where
// there is no such pair: an exact or selective search to the end, the
// first iteration, a result built without a search.
func (i Info) Steady() float64 {
	if i.Exact || i.BeforeDepth == 0 || i.BeforeDepth != i.Depth-1 {
		return float64(i.Score)
	}
	return float64(i.Score+i.Before) / 2
}

// Engine searches positions. It keeps its transposition table between
// searches; one Search at a time.
type Engine struct {
	tt      *tt.Table
	eval    Evaluator
	threads int
	pool    *workerPool // the parallel solver's workers (threads > 1)
}

// New returns an engine with the given options.
func New(opts Options) *Engine {
	mb := opts.HashMB
	if mb <= 0 {
		mb = DefaultHashMB
	}
	ev := opts.Eval
	if ev == nil {
		ev = mobilityEval{}
	}
	e := &Engine{tt: tt.New(mb), eval: ev, threads: max(1, opts.Threads)}
	if e.threads > 1 {
		e.pool = &workerPool{}
	}
	return e
}

// Clear forgets everything learned by previous searches (a new game).
func (e *Engine) Clear() { e.tt.Clear() }

// mobilityEval is the evaluation used when none is given: mobility
// difference and corners, so that the package works on its own.
type mobilityEval struct{}

func (mobilityEval) Evaluate(p, o uint64) int {
	s := 2*(bitboard.Count(bitboard.Moves(p, o))-bitboard.Count(bitboard.Moves(o, p))) +
		8*(bitboard.Count(p&cornerMask)-bitboard.Count(o&cornerMask))
	return max(-64, min(64, s))
}

// Search searches pos within lim, calling report (if not nil) after each
// completed iteration, and returns the final result.
//
// With Threads > 1 the search splits its tree over the threads (young
// brothers wait, parallel.go): the exact solve, and the midgame iterations
// unless parMidSplitMinDepth is 99, in which case those run as a lazy SMP
// (helpers search the same root in other orders, sharing the table) whose
// helpers stop when the solve starts.
func (e *Engine) Search(ctx context.Context, pos bitboard.Position, lim Limits, report func(Info)) Info {
	start := time.Now()
	e.tt.NewSearch()
	var stop atomic.Bool
	s := &searcher{tt: e.tt, ev: e.eval, stop: &stop, maxNodes: lim.Nodes, checkAt: pollInterval}
	if lim.Nodes > 0 && lim.Nodes < pollInterval {
		s.checkAt = lim.Nodes
	}
	done := make(chan struct{})
	defer close(done)
	var timer <-chan time.Time
	if lim.Time > 0 {
		t := time.NewTimer(lim.Time)
		defer t.Stop()
		timer = t.C
	}
	if ctx.Done() != nil || timer != nil {
		go func() {
			select {
			case <-ctx.Done():
			case <-timer:
			case <-done:
				return
			}
			stop.Store(true)
		}()
	}
	if report == nil {
		report = func(Info) {}
	}

	if e.pool != nil {
		s.par.pool = e.pool
		e.pool.reset(s, e.threads)
	}

	// Threads > 1 and a midgame split off (parMidSplitMinDepth 99): lazy
	// SMP in the midgame. Helpers search the same root with the moves
	// after the first in other orders (and from other depths), sharing only
	// the transposition table; what they store speeds up the main search,
	// whose result is the answer.
	lazy := e.threads - 1
	if parMidSplitMinDepth < 99 {
		lazy = 0
	}
	var helperStop atomic.Bool
	var wg sync.WaitGroup
	helpers := make([]*searcher, lazy)
	for i := range helpers {
		h := &searcher{tt: e.tt, ev: e.eval, stop: &helperStop, checkAt: pollInterval}
		helpers[i] = h
		wg.Add(1)
		go func() {
			defer wg.Done()
			hr := rootSearch{s: h, pos: pos, lim: lim, start: start, report: func(Info) {}, helper: i + 1}
			hr.lim.Time, hr.lim.Nodes = 0, 0
			hr.run()
		}()
	}

	stopHelpers := func() {
		helperStop.Store(true)
		wg.Wait()
	}
	r := rootSearch{s: s, pos: pos, lim: lim, start: start, report: report, beforeSolve: stopHelpers}
	info := r.run()
	stopHelpers()
	info.Nodes = s.nodes
	if e.pool != nil {
		info.Nodes += e.pool.nodes()
	}
	for _, h := range helpers {
		info.Nodes += h.nodes
	}
	info.Time = time.Since(start)
	return info
}
