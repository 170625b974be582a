// Package play is Outflank's play layer: the code that, given a game, a
// clock or limits and the player's settings, chooses the move. Every front
// end — NBoard, GTP, the shell, the web page, and through NBoard the match
// self-play — calls it the same way and only translates its results into
// its own protocol.
//
// Its place in the one-way chain of packages:
//
//	bitboard ← eval, tt ← search ← book ← play ← protocols (cmd/outflank/...)
//
// The search package finds the best move of a position within limits; the
// book package knows openings; play decides between them for a game in
// progress: a finished game has no move, a book move is played without
// searching, a forced move (one legal move, or a pass) gets a shallow search
// for its evaluation only, and otherwise the clock becomes the search's soft
// and hard time limits (search.Clock, the one time manager) and the search
// runs. Whatever happens — a search stopped before its first iteration, a
// damaged book — the move returned is legal.
//
// Play uses the search package's own types (search.Limits, search.Info,
// search.MoveScore) and asks of the searcher only the two methods it calls
// (Searcher), which *search.Engine has and tests replace with stand-ins
// (package playtest). Besides choosing moves, play holds what every front
// end needs around them: the game with undo and redo (History), the GGF
// clock of a game record (GameClock), the opening book interface (Book),
// and the loop that keeps reading input while a search runs (Input).
package play
