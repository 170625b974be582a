package search

import "time"

// The time manager: every decision about time is made here. A front end
// turns its clock (GGF, GTP) into a Clock and asks it for the limits of a
// move (Clock.Limits); the root of the search asks, between iterations,
// whether another one fits (timeManager).

// Clock is the time a player has for the rest of a game, as GGF and GTP
// clocks give it.
type Clock struct {
	Left      time.Duration // on the clock now (negative when over time)
	Increment time.Duration // gained with each move
	// Moves is the number of moves to make within Left, as in a GTP
	// byo-yomi period (0: the rest of the game).
	Moves int
	// ByoYomi is the time per move guaranteed once Left is spent (GTP
	// Canadian byo-yomi: the period over its stones); 0 for none.
	ByoYomi time.Duration
	// Ponder says that the player thinks on its opponent's time: most of
	// its moves are then ponder hits, which go on from the ponder and end
	// sooner (a solve found while pondering is answered at once), so the
	// clock left at the end goes unused unless each move aims higher
	// (clockPonderPercent of the soft limit, the hard one unchanged).
	Ponder bool
}

const (
	// clockMinimum is the least time a move is given, however short the
	// clock: enough for a shallow search.
	clockMinimum = 10 * time.Millisecond
	// clockOverhead is kept back per move for what the clock counts and the
	// search does not: reading the command, starting the search, writing
	// the answer, the peer's own latency.
	clockOverhead = 20 * time.Millisecond
)

// Limits returns the soft and hard time limits (Limits.Soft and
// Limits.Time) of the next move in a position with empties empty squares.
//
// The usable time (the clock less a twentieth, and a per-move overhead and
// minimum for each move left) is
// shared over the moves left, where a move at or below clockSolveEmpties
// counts clockSolvedMovePercent of a move: once the position is solved the
// moves cost next to nothing, so the time is better spent before. Hard lets
// the search run past soft when its best move is in doubt, up to a few
// shares but never more than half the usable time, so that a player never
// runs out of time however the moves go.
func (c Clock) Limits(empties int) (soft, hard time.Duration) {
	moves := c.Moves
	weighted := 100 * moves
	if moves <= 0 {
		moves = max(1, (empties+1)/2) // this side's moves left, this one included
		cheap := (min(empties, clockSolveEmpties) + 1) / 2
		weighted = 100*(moves-cheap) + clockSolvedMovePercent*cheap
	}
	weighted = max(weighted, 100)
	// Each move left keeps its overhead and its minimum.
	usable := c.Left - c.Left/20 - time.Duration(moves)*(clockOverhead+clockMinimum)
	inc := c.Increment * 4 / 5
	soft = usable*100/time.Duration(weighted) + inc
	if c.Ponder {
		soft = soft * time.Duration(clockPonderPercent) / 100
	}
	hard = min(3*soft, usable/2+inc, usable)
	if c.Moves > 0 {
		hard = min(hard, usable/time.Duration(c.Moves)+inc) // a byo-yomi period: no borrowing from the next moves
	}
	if c.ByoYomi > 0 {
		soft = max(soft, c.ByoYomi*8/10)
		hard = max(hard, c.ByoYomi*9/10)
	}
	hard = max(hard, clockMinimum)
	soft = min(max(soft, clockMinimum), hard)
	return soft, hard
}

// timeManager makes the root's decisions about time: whether another
// iteration fits, whether the exact solve fits, and when to run past the
// soft limit. It predicts an iteration's time from the last one's and the
// measured growth from one iteration to the next (the effective branching
// factor), and a solve's from the number of empties and the measured speed
// of the search.
type timeManager struct {
	elapsed    func() time.Duration // since the search started, plus credit
	soft, hard time.Duration        // 0: no time limit; as elapsed counts
	wall       time.Duration        // the hard limit in wall time since the search started (0: none)
	mustSolve  bool                 // EndgameEmpties is AlwaysSolve: the caller wants the solve, whatever it costs
	// credit is the time earlier searches of the position spent
	// (Limits.Resume): elapsed counts it, the wall time does not.
	credit      time.Duration
	nodesBefore uint64 // the nodes those searches made, about

	last, prev time.Duration // the last two completed iterations' durations
	end        time.Duration // when the last one completed, as elapsed counts
	nodes      uint64        // nodes searched by then, nodesBefore included
	best       Info          // its result
	unstable   bool          // it changed the best move, or its score dropped
	// cutting: a resumed search gives its own time to iterations that are
	// not predicted to finish, and a timer stops it at its soft limit
	// (rootSearch.deepen): they start while cutIterationMinimum of it is
	// left, and the search to the end fits.
	cutting bool
}

// cutIterationMinimum is the least of its soft limit that a resumed
// search must have left to give an iteration that it cuts there: less
// would not finish the iteration's first move.
const cutIterationMinimum = 50 * time.Millisecond

// newTimeManager returns the time manager of a search within lim started
// at start. Without a soft limit the search aims at the hard one.
func newTimeManager(lim Limits, start time.Time) *timeManager {
	tm := &timeManager{hard: lim.Time, soft: lim.Soft, wall: lim.Time, mustSolve: lim.EndgameEmpties >= AlwaysSolve}
	tm.elapsed = func() time.Duration { return time.Since(start) + tm.credit }
	if tm.soft <= 0 || (tm.hard > 0 && tm.soft > tm.hard) {
		tm.soft = tm.hard
	}
	return tm
}

// resume takes up the timing of the earlier searches that rs sums up, as
// if this search had run since the first of them started: the iterations'
// durations predict the next one, and their speed the solve's. The limits
// move by the time spent beyond rs.Credit, so that only the credit counts
// against this search's time.
func (tm *timeManager) resume(rs *Resume) {
	tm.credit = max(rs.Spent, rs.Info.Time)
	if extra := tm.credit - min(max(rs.Credit, 0), tm.credit); extra > 0 && tm.timed() {
		tm.soft += extra
		tm.hard += extra
	}
	tm.last, tm.prev = rs.Last, rs.Prev
	tm.end, tm.best = rs.Info.Time, rs.Info
	if rs.Info.Time > 0 {
		// The nodes of the whole time spent, at the speed up to Info.
		tm.nodesBefore = uint64(float64(rs.Info.Nodes) * float64(tm.credit) / float64(rs.Info.Time))
	}
	tm.nodes = tm.nodesBefore
}

// timed reports whether the search has a time limit.
func (tm *timeManager) timed() bool { return tm.hard > 0 }

// iterated records a completed iteration with its result and the nodes
// searched so far.
func (tm *timeManager) iterated(in Info, nodes uint64) {
	el := tm.elapsed()
	tm.prev, tm.last = tm.last, el-tm.end
	tm.end, tm.nodes = el, tm.nodesBefore+nodes
	if tm.best.Depth > 0 {
		tm.unstable = in.Best != tm.best.Best || in.Score <= tm.best.Score-int(timeScoreDrop)
	}
	tm.best = in
}

// budget is the time the search may use: the soft limit, extended while the
// best move is in doubt, never past the hard limit.
func (tm *timeManager) budget() time.Duration {
	b := tm.soft
	if tm.unstable {
		b = b * time.Duration(timeExtendPercent) / 100
	}
	return min(b, tm.hard)
}

// another reports whether another midgame iteration should start: a share
// of its predicted time must fit the budget. The share is
// timeIterationFitPercent, set so that the search uses the soft limit on
// average: an iteration that overruns it takes time from later moves.
// Where the soft limit is the hard one (a time per move, not a clock), the
// time not used is lost, so it is timeCapFitPercent, smaller: an
// iteration that the hard limit stops can still change the move (found).
// While cutting, another starts whenever enough of the own time is left.
func (tm *timeManager) another() bool {
	if !tm.timed() || (tm.cutting && tm.ownTimeLeft() >= cutIterationMinimum) {
		return true
	}
	growth := time.Duration(timeDefaultGrowthPercent)
	if tm.prev >= time.Millisecond {
		growth = min(max(100*tm.last/tm.prev, time.Duration(timeMinGrowthPercent)), time.Duration(timeMaxGrowthPercent))
	}
	next := tm.last * growth / 100
	fit := time.Duration(timeIterationFitPercent)
	if tm.soft >= tm.hard {
		fit = time.Duration(timeCapFitPercent)
	}
	// The next iteration starts when the last one ended: right after it,
	// or, in a search resumed after a ponder, under way since then (and
	// not to go on once the budget is spent).
	b := tm.budget()
	return tm.end+next*fit/100 <= b && tm.elapsed() < b
}

// ownTimeLeft is the time left before the soft limit, counting only
// the search's own time and the part of the earlier searches' time credited to it
// (Resume.Credit): what a resumed search may give to an iteration that it
// cuts there (0 without a time limit).
func (tm *timeManager) ownTimeLeft() time.Duration {
	if !tm.timed() {
		return 0
	}
	return max(0, min(tm.soft, tm.hard)-tm.elapsed())
}

// endFits reports whether a search to the end of the game, started now in
// place of a deeper midgame iteration, is predicted to end within the
// budget: it costs about midEndJumpCostPercent of the time spent so far (a
// negative value: it always fits).
func (tm *timeManager) endFits() bool {
	if !tm.timed() || tm.cutting || midEndJumpCostPercent < 0 {
		return true
	}
	el := tm.elapsed()
	return el+el*time.Duration(midEndJumpCostPercent)/100 <= tm.budget()
}

// solveFits reports whether an exact solve of a position with empties
// empty squares is predicted to end within the hard limit, from the
// midgame search's speed so far. A caller that asks for the solve
// (AlwaysSolve) gets it, in time or not.
func (tm *timeManager) solveFits(empties int) bool {
	if !tm.timed() || tm.mustSolve {
		return true
	}
	if tm.end <= 0 || tm.nodes == 0 {
		return false
	}
	rate := float64(tm.nodes) / tm.end.Seconds() * float64(solveNodeSpeedup) // solver nodes a second
	predicted := time.Duration(solveNodes(empties) / rate * float64(time.Second))
	// Wall time: the time spent before this search is not on the clock.
	return tm.elapsed()-tm.credit+predicted <= tm.wall*time.Duration(solveFitPercent)/100
}

// EstimateSolveSeconds is the time an exact solve of a position with
// empties empty squares is predicted to take on one thread, in seconds (a
// Duration cannot hold the centuries of a solve from the start): the time
// manager's node
// model (solveNodes) at solveNominalKNPS. It is for telling a person what
// to expect ("about 3 hours"), so only its order of magnitude is meant:
// positions at one count of empties vary by a factor of three either way.
func EstimateSolveSeconds(empties int) float64 {
	return solveNodes(empties) / (float64(solveNominalKNPS) * 1000)
}

// solveNodes is the predicted number of nodes of an exact solve at empties:
// solveNodes20 at 20 empties, growing by solveGrowthPercent per empty
// (measured on positions of self-played games, which vary by a factor of
// three either way).
func solveNodes(empties int) float64 {
	n := float64(solveNodes20k) * 1000
	g := float64(solveGrowthPercent) / 100
	for e := 20; e < empties; e++ {
		n *= g
	}
	for e := 20; e > empties; e-- {
		n /= g
	}
	return n
}
