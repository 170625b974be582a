//go:build !exptune

package search

// The search's tuning knobs, in one list. Values were tuned by node counts
// and CPU time on FFO #40-#48, with eval.Simple and then the trained
// eval.Pattern; the endgame ones again by node counts on FFO #41-#44,
// #46-#47, #45, #48: a deeper midgame search before the solve and the table
// from 6 empties each took a third or more of the nodes off. Earlier
// evaluation order, transposition cutoffs and deeper shallow-search order
// took a few percent more nodes off but cost more time than they saved
// (midgame nodes cost several endgame ones). With the table's prefetch,
// the parity-only layer up to 6 empties (the table from 7) costs more nodes
// but less time than up to 5. With the searcher's own table below 12
// empties, the evaluation orders from 13 empties rather than 12: 3% more
// nodes, 3-8% less time. Retuned by node counts with the self-play-trained
// weights, which ordered the solver worse with the old values: the
// evaluation's weight in the endgame order fell from 8 to 5 a disc, the
// mobility's rose from 16 to 20, and the untimed solve's pre-search is two
// plies shallower: 7.6% fewer nodes and about 12% less time on FFO
// #40-#49, and checked on #50-#59 (bench/RESULTS.md).
//
// Experiments: build with -tags exptune and every knob is read from the
// environment variable OUTFLANK_<name>. exp.go, which does that, is
// generated from this list (go generate; TestTuneKnobsAgree fails when it
// is out of date), so a knob is written here only.
//
//go:generate go run gen_exp.go
const (
	// Endgame solver layers, by empty squares.
	endShallowMaxEmpties     = 6  // at most this many: parity order, no table
	endShallowIsolatedFirst  = 1  // 1: there, isolated empty squares first, then odd quadrants (0: odd quadrants first)
	endTTMinEmpties          = 7  // from this many: the transposition table
	endLocalMaxEmpties       = 11 // up to this many (from endTTMinEmpties): the searcher's own small table of children instead (0: off)
	endQuickReplies          = 1  // there, a child leaving at most this many replies (corners double) is searched before the others are valued (-1: off)
	endTTMoveFirstMinEmpties = 8  // from this many: the table's move searched before the others are valued
	endETCMinEmpties         = 12 // ... enhanced transposition cutoffs
	endETCSkipFailLow        = 1  // ... and children proven to fail low skipped (0: off)
	endPrefetch              = 1  // children's table buckets prefetched below the transposition cutoffs (0: off)
	endTTHeuristicMoveDepth  = 10 // a heuristic (midgame) entry's move orders a null-window endgame node only from this depth in plies
	endEvalOrderMinEmpties   = 13 // ... the evaluation in the move order
	endSearchOrderMinEmpties = 18 // ... a shallow midgame search in the move order instead
	endSearchOrderDepth      = 2  // depth of that search at endSearchOrderMinEmpties,
	endSearchOrderStep       = 3  // one ply more every endSearchOrderStep empties (every 4: 0.4-5.6% more nodes on FFO #40-#59)
	endSearchOrderWindow     = 0  // its window: children searched below alpha - this only (0: full window)
	endSearchTopK            = 6  // up to endSearchTopKMaxEmpties, only this many moves (the evaluation's best) get that search
	endSearchTopKMaxEmpties  = 20 // ... (the others keep the evaluation's value: 2% less time on FFO #45-#49, 6-8% on #56-#59)

	// Endgame move order weights.
	endOrderEvalWeight           = 5  // per disc of the evaluation
	endOrderSearchWeight         = 8  // per disc of the shallow search's score
	endOrderMobilityWeight       = 20 // per reply left to the opponent, subtracted
	endOrderCornerMobilityWeight = 16 // ... per corner reply, more
	endOrderPotentialWeight      = 1  // per potential reply, subtracted
	endOrderCornerWeight         = 0  // per corner of ours
	endOrderParityBonus          = 4  // bonus for a move into a quadrant with an odd number of empties
	endOrderWipeoutWeight        = 4  // per disc left to the opponent, subtracted, where only a wipeout beats alpha
	endOrderCornerMoveBonus      = 8  // bonus for a move to a corner
	endOrderXMovePenalty         = 4  // ... and penalty for one to an X square (diagonally next to a corner)

	// Root of a solve.
	solvePresearchOffset     = 12 // without a time limit, a midgame search to depth empties-solvePresearchOffset first,
	solvePresearchMaxDepth   = 12 // at most this deep
	solveSelectivePercent    = 87 // without a time limit, a selective search to the end at this confidence before the solve (0: none)
	solveSelectiveMinEmpties = 22 // ... from this many empties (below, the solve is cheap and the pass costs more than it saves)
	solveSelectiveMaxScore   = 40 // ... only if the pre-search scores at most this many discs either way
	solveAspirationWidth     = 4  // aspiration window half-width around its score (<0: full window)
	solveAspirationGrowth    = 2  // the widening after a failure is multiplied by this each time

	// Time manager (timeman.go).
	clockSolveEmpties        = 20    // a clock's time is shared over the moves left, those at or below this many empties
	clockSolvedMovePercent   = 25    // ... counting this share of a move (they are solved, and cost little)
	clockPonderPercent       = 125   // a player that ponders aims at this share of its soft limit (at 100 it left 13 s of a 1-minute clock unused, its opponent 7 s)
	timeIterationFitPercent  = 40    // start an iteration if this share of its predicted time fits the budget
	timeCapFitPercent        = 5     // ... this share when the budget is the hard limit (a cut iteration still plays a move it proved better)
	timeDefaultGrowthPercent = 300   // an iteration's time over the last one's, until two are measured
	timeMinGrowthPercent     = 150   // ... the measured ratio clamped to at least this
	timeMaxGrowthPercent     = 800   // ... and at most this
	timeExtendPercent        = 160   // the soft limit stretched to this while the best move is in doubt
	timeScoreDrop            = 4     // a score drop (discs) from one iteration to the next that puts it in doubt
	solveNodes20k            = 5000  // predicted nodes (thousands) of an exact solve at 20 empties
	solveGrowthPercent       = 200   // ... times this per empty more
	solveNodeSpeedup         = 8     // the solver's nodes a second over the midgame search's
	solveFitPercent          = 70    // solve if predicted to end within this share of the hard limit
	solveNominalKNPS         = 15000 // the solver's nodes a second on one thread (thousands), for EstimateSolveSeconds

	// Parallel search (parallel.go).
	parSplitMinEmpties  = 14 // exact solver: nodes with this many empties or more split (young brothers wait)
	parMidSplitMinDepth = 6  // midgame: nodes with this depth or more split (99: lazy SMP instead)

	// Midgame selectivity.
	midSelectivityPercent = 73  // a search that asks for none (Limits.Selectivity 0) runs at this level, DefaultSelectivity (TestTuneKnobsAgree checks); an experiment's knob
	mpcLevel73T           = 110 // the margin t of the 73% level, in hundredths of the prediction's standard deviation (an experiment's knob)

	// Midgame move order.
	midEvalOrderMinDepth    = 3  // from this depth by the evaluation of the child (below: fewest replies first)
	midPrefetchMinDepth     = 3  // from this depth the children's table buckets are prefetched while ordering (99: never)
	midOrderEvalShift       = 4  // shift of the evaluation of the child
	midOrderMobilityShift   = 4  // shift of the opponent's (corner-weighted) mobility, subtracted
	midOrderPotentialWeight = 1  // weight of its potential mobility, subtracted
	midOrderCornerWeight    = 0  // weight of our corners
	midOrderCornerMoveBonus = 16 // bonus for a move to a corner
	midOrderXMovePenalty    = 8  // penalty for a move to an X square

	// Root of a midgame search: aspiration window around the last score.
	midAspirationWidth  = 3  // half-width
	midAspirationStep   = 12 // widening of the failed side
	midAspirationParity = 1  // 1: the guess is the score of the last iteration of the same parity (two plies shallower); 0: of the last one
	// Root of a midgame search under a selective level: once the depth
	// would pass empties - midEndJumpEmpties, the next iteration searches
	// to the end of the game instead (selective, then surer), as Edax does
	// (0: only when the depth reaches the empties). Under a time limit it
	// does so only if midEndJumpCostPercent of the time spent so far still
	// fits: the search to the end costs about that much more than the
	// midgame iterations before it (1/3 to 10 times at 22-24 empties), and
	// one that the limit stops leaves only the shallower midgame result.
	midEndJumpEmpties     = 8
	midEndJumpCostPercent = 800
	// Under a time limit, a selective search solves only after its search
	// to the end (1), not right after the pre-search (0): a solve that the
	// limit stops leaves only the pre-search's move (a quarter of the
	// positions at 21-22 empties under 0.5 s a move).
	midSolveAfterEnd = 1

	// Multi-ProbCut (mpc.go).
	mpcMinDepth        = 3  // from this depth a node may be cut by a shallow search
	mpcExactMaxEmpties = 12 // a selective search solves exactly at or below this many empties
	mpcRecursiveLevels = 1  // the shallow searches are selective too down to this many levels of nesting
	mpcEvalGatePercent = 50 // a cut is tried only if the node's evaluation is beyond the bound or short of it by at most this share (%) of t·(σ at depth 0 + σ at the shallow depth)/2 (0: always tried)
)

func debugf(string, ...any) {}
