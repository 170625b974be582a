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
// context stops it within a few milliseconds, and Search still returns the
// best move found so far (from the last completed iteration, or a move
// chosen by the ordering heuristic if none completed).
package search
