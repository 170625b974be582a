package search

import (
	"crypto/sha256"
	"fmt"
	"math"

	"github.com/outflank-othello/outflank/bitboard"
)

// selectivityLevels are the Multi-ProbCut confidence levels a search can
// run at, from none (index 0, the zero value of searcher.sel) to the most
// selective: a node is cut when a shallow search predicts, with that
// confidence, that the deep search would fail outside the window (t is the
// margin in standard deviations of the prediction's error; Edax uses the
// same values).
var selectivityLevels = [...]struct {
	percent int
	t       float64
}{{100, 0}, {99, 3.3}, {98, 2.6}, {95, 2.0}, {87, 1.5}, {73, float64(mpcLevel73T) / 100}}

// noSelectivity is the index of the 100% level: no selective cut.
const noSelectivity = 0

// ValidSelectivity reports whether percent is a Limits.Selectivity value:
// 0 (the default) or one of 73, 87, 95, 98, 99, 100.
func ValidSelectivity(percent int) bool {
	return percent == 0 || selectivityIndex(percent) >= 0
}

// selectivityIndex returns the index in selectivityLevels of percent, or -1.
func selectivityIndex(percent int) int {
	for i, l := range selectivityLevels {
		if l.percent == percent {
			return i
		}
	}
	return -1
}

// ProbCutDepth is the depth of the shallow search that predicts a search
// of depth d in Multi-ProbCut: about half as deep, of the same parity
// (evaluations after an odd and an even number of plies differ
// systematically), as Edax does. The fit (package mpcfit) uses it too.
func ProbCutDepth(d int) int {
	if s := 2*(d/4) + d&1; s > 0 {
		return s
	}
	return max(0, d-2)
}

// mpcModel returns the Multi-ProbCut model of a node with the given empties
// searched to depth (depth >= empties: to the end, predicting the exact
// score), predicted by a search to shallow: deep ≈ a·shallow + b with error
// sigma (discs), from the fitted table (mpc_table.go). Sigma is kept at 1
// or more where the linear model is extrapolated far.
func mpcModel(empties, shallow, depth int) (a, b, sigma float64) {
	if depth >= empties {
		e := float64(max(mpcEndMinEmpties, min(mpcEndMaxEmpties, empties)))
		sigma = mpcEndSigma[0] + mpcEndSigma[1]*e + mpcEndSigma[2]*float64(shallow)
		return mpcEndA, mpcEndB, max(1, sigma)
	}
	sigma = mpcMidSigma[0] + mpcMidSigma[1]*float64(empties) + mpcMidSigma[2]*float64(shallow) + mpcMidSigma[3]*float64(depth)
	return 1, 0, max(1, sigma)
}

// probCut tries a Multi-ProbCut at a node of the given depth (depth =
// empties: a selective endgame node, predicting the exact score): a
// shallow search predicts the deep value as
// a·v + b with error sigma; if the prediction lies beyond beta (or below
// alpha) by t·sigma, t from the search's confidence level, the node fails
// high (low) without the deep search.
func (s *searcher) probCut(slot, alpha, beta, depth, empties int, moves uint64) (int, bool) {
	shallow := ProbCutDepth(depth)
	a, b, sigma := mpcModel(empties, shallow, depth)
	margin := selectivityLevels[s.sel].t * sigma
	tryHigh, tryLow := true, true
	if mpcEvalGatePercent > 0 {
		// The static evaluation, with the error of a depth-0 prediction,
		// says which cut is worth a shallow search (as Edax does): a node
		// evaluated far below beta will seldom cut high, one far above
		// alpha seldom low. Skipping a try only drops cuts, so the search
		// is no less sure; it saves more shallow searches than the cuts it
		// loses cost.
		_, _, sigma0 := mpcModel(empties, 0, depth)
		gate := selectivityLevels[s.sel].t * (sigma0 + sigma) / 2 * float64(mpcEvalGatePercent) / 100
		pred := a*float64(s.evaluate(&s.states[slot])) + b
		tryHigh, tryLow = pred >= float64(beta)-gate, pred <= float64(alpha)+gate
		if !tryHigh && !tryLow {
			return 0, false
		}
	}
	// The shallow search is itself selective, down to mpcRecursiveLevels
	// levels of nesting (Edax allows one; below them it is not): it costs a
	// fraction as much, and the fit's errors, taken with non-selective
	// shallow searches, still held in games.
	sel := s.sel
	s.pcLevel++
	if s.pcLevel > mpcRecursiveLevels {
		s.sel = noSelectivity
	}
	defer func() { s.sel = sel; s.pcLevel-- }()
	if tryHigh && beta <= 64 {
		// a·v + b - margin >= beta  <=>  v >= (beta + margin - b) / a
		if hi := int(math.Ceil((float64(beta) + margin - b) / a)); hi <= 64 {
			if s.midState(slot, hi-1, hi, shallow, moves) >= hi {
				return beta, true
			}
		}
	}
	if tryLow && alpha >= -64 {
		if lo := int(math.Floor((float64(alpha) - margin - b) / a)); lo >= -64 {
			if s.midState(slot, lo, lo+1, shallow, moves) <= lo {
				return alpha, true
			}
		}
	}
	return 0, false
}

// selectivityOf returns the index in selectivityLevels of a
// Limits.Selectivity (0: DefaultSelectivity; a value that is not a level:
// the next more confident level).
func selectivityOf(percent int) int {
	if percent == 0 {
		percent = midSelectivityPercent
	}
	for i := len(selectivityLevels) - 1; i > 0; i-- {
		if selectivityLevels[i].percent >= percent {
			return i
		}
	}
	return noSelectivity
}

// selectiveEnd searches the root to the end of the game (depth = empties)
// at selectivity sel and then at each more confident level below 100%,
// reporting each result: the probable score (not Exact), surer at every
// level, for a position too deep to solve in the time. It reports false if
// the time manager stops it; the exact search is the caller's.
func (r *rootSearch) selectiveEnd(moves []rootMove, empties int, tm *timeManager, sel int) bool {
	for ; sel != noSelectivity; sel-- {
		score := r.iterate(moves, empties, false, sel)
		r.best = r.result(moves, empties, score, false, sel)
		r.found.sq = bitboard.NoSquare
		r.report(r.best)
		tm.iterated(r.best, r.s.nodes)
		if !tm.another() {
			return false
		}
	}
	return true
}

// ModelDigest identifies the Multi-ProbCut model built in (mpc_table.go):
// the first 8 bytes of a SHA-256 of its coefficients, in hex. A selective
// search's value depends on it as much as on the evaluation, so stores of
// searched values (the opening book) record it beside the weights' digest.
func ModelDigest() string {
	s := fmt.Sprint(mpcMidSigma, mpcEndSigma, mpcEndA, mpcEndB, mpcEndMinEmpties, mpcEndMaxEmpties)
	return fmt.Sprintf("%x", sha256.Sum256([]byte(s)))[:16]
}
