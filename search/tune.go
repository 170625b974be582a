//go:build !exptune

package search

// Search parameters, tuned on FFO #40-#42 by node count (build with
// -tags exptune to override them from the environment, see exp.go).
const (
	xEvalMin    = 12 // endgame nodes with this many empties add the evaluation to move ordering
	xEvalSh     = 3  // weight (shift) of the evaluation / shallow search in ordering
	xParity     = 4  // ordering bonus for a move into an odd quadrant
	xTTMin      = 8  // endgame nodes with this many empties use the table
	xETCMin     = 12 // ... and enhanced transposition cutoffs
	xSortMin    = 16 // ... and order by a shallow search
	xSortD      = 2  // depth of that search at xSortMin empties
	xSortStep   = 4  // one more ply of it every xSortStep empties
	xMobSh      = 4  // fastest first: weight (shift) of the opponent's mobility
	xPotW       = 1  // ... of its potential mobility
	xCornW      = 0  // ... of our corners
	xAspGrow    = 2  // ... multiplied by this after each failure
	xMidSortMin = 99 // midgame nodes this deep order moves by a shallow search
	xMidSortDiv = 4  // ... of depth/xMidSortDiv
	xMidEvalMin = 3  // ... from this depth by the evaluation
	xPreOff     = 14 // a solve without time limit first searches to depth empties-xPreOff
	xPreMax     = 8  // ... at most
	xAspW       = 4  // half-width of the root aspiration window of a solve (<0: none)
)

func debugf(string, ...any) {}
