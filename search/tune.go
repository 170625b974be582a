//go:build !exptune

package search

// Search parameters, tuned by node counts and CPU time on FFO #40-#48, with
// eval.Simple and then the trained eval.Pattern, whose higher cost per call
// moved the shallow-search ordering from 16 to 18 empties (build with -tags
// exptune to override them from the environment, see exp.go).
const (
	// Endgame solver layers (by empty squares).
	shallowMax = 7  // at most this many: parity order, no table
	xTTMin     = 8  // from this many: the transposition table
	xETCMin    = 12 // ... enhanced transposition cutoffs
	xEvalMin   = 12 // ... the evaluation in the move order
	xSortMin   = 18 // ... a shallow midgame search in the move order instead
	xSortD     = 2  // depth of that search at xSortMin empties,
	xSortStep  = 4  // one ply more every xSortStep empties

	// Endgame move order weights.
	xEvalSh = 3 // shift of the evaluation / shallow search score
	xMobSh  = 4 // shift of the opponent's (corner-weighted) mobility, subtracted
	xPotW   = 1 // weight of its potential mobility, subtracted
	xCornW  = 0 // weight of our corners
	xParity = 4 // bonus for a move into a quadrant with an odd number of empties

	// Root of a solve.
	xPreOff  = 14 // without a time limit, a midgame search to depth empties-xPreOff first,
	xPreMax  = 8  // at most this deep
	xAspW    = 4  // aspiration window half-width around its score (<0: full window)
	xAspGrow = 2  // the widening after a failure is multiplied by this each time

	// Midgame move order.
	xMidEvalMin = 3  // from this depth by the evaluation of the child
	xMidSortMin = 99 // from this depth by a shallow search (off: it did not pay)
	xMidSortDiv = 4  // ... of depth/xMidSortDiv
)

func debugf(string, ...any) {}
