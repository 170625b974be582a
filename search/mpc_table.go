package search

// mpcModel returns the Multi-ProbCut model of a node with the given empties
// searched to depth, predicted by a search to shallow: deep ≈ a·shallow + b,
// with error sigma (discs). Placeholder until the fit.
func mpcModel(empties, shallow, depth int) (a, b, sigma float64) {
	if depth >= empties {
		return 1, 0, max(1.5, 2+0.25*float64(empties)-0.5*float64(shallow))
	}
	return 1, 0, max(1.5, 0.4+0.06*float64(empties)+0.35*float64(depth-shallow))
}
