// Package search finds the best move of an Othello position: an iterative
// deepening principal-variation (PVS, null-window) midgame search over an
// evaluation function, and an exact endgame solver (exact score or
// win/loss/draw) that takes over when few enough squares are empty.
//
// Usage:
//
//	eng := search.New(search.Options{HashMB: 64, Eval: eval.Simple{}})
//	info := eng.Search(ctx, pos, search.Limits{Time: 5 * time.Second}, func(i search.Info) {
//		// called after each completed iteration (and the final result)
//	})
//	fmt.Println(info.Best, info.Score, info.PV)
//
// Scores are final disc differences for the side to move, -64..64, with
// empty squares counted for the winner (the FFO convention); midgame scores
// are the evaluation's estimate of that number. In a WLD solve the score is
// -1, 0 or +1 (loss, draw, win).
//
// An Engine owns its transposition table (package tt) and is used by one
// Search at a time; all other state is per search, there is none at package
// level. Limits bound a search by depth, nodes and time; cancelling the
// context stops it within a few milliseconds (about 1 ms measured with one
// thread), and Search still returns the best move found so far (from the
// last completed iteration, or a move chosen by the ordering heuristic if
// none completed).
//
// Time: Limits.Time is the hard limit, at which the search stops;
// Limits.Soft the time it aims at. The time manager (timeman.go) starts
// another iteration only if it is predicted to fit, from the times of the
// last ones, and lets the search run past Soft while the best move is in
// doubt. A position within Limits.EndgameEmpties is solved as soon as the
// solve is predicted to fit; a solve that does not finish in time leaves
// the midgame result as the answer (Info.Exact false). Clock.Limits turns
// a player's clock into the limits of one move.
//
// Selectivity: the midgame search prunes with Multi-ProbCut (Buro): a node
// whose shallow search predicts, at the confidence Limits.Selectivity (73,
// 87, 95, 98, 99%; 100 for none), that the deep search would fail high or
// low is cut without it. The model (how well a depth-d' search predicts a
// depth-d one, or the exact score) is fitted from game positions by
// "outflank mpcfit" (package mpcfit; search/README.md has the fit). Beyond
// the midgame the same cuts predict the exact score: a position searched to
// its end selectively gets a probable score at each confidence level in
// turn (Info.Selectivity below 100, never Exact) before the exact solve.
//
// MultiPV > 1 searches every root move with its own full window, so
// Info.Moves holds exact (or WLD) scores after a solve and depth-limited
// scores in the midgame; with Limits.MultiPVMargin, only the moves within
// that margin of the best have exact scores, the others upper bounds.
//
// Threads > 1: the search splits its tree over the threads (young brothers
// wait, parallel.go), the exact solve and the midgame alike, and an exact
// solve gives the same score at any thread count. Limits.Nodes counts the
// main thread's nodes; Info.Nodes counts all.
//
// The midgame search and the root of a solve call the Evaluator for move
// ordering and the aspiration guess, as does the solver above 12 empties, so
// a better evaluation also makes solving faster.
package search
