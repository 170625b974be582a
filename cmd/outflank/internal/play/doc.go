// Package play is Outflank's play layer: the code that, given a game, a
// clock or limits and the player's settings, chooses the move. Every front
// end — NBoard, GTP, the shell, the web page, and through NBoard the match
// self-play — calls it the same way and only translates its results into
// its own protocol.
//
// Its place in the one-way chain of packages: it imports bitboard, search
// and textio, and is imported by the front ends (cmd/outflank/internal/
// nboard, gtp, shell, web) and the command; the engine's packages
// (bitboard ← eval, tt ← search ← book) never import it. The opening book
// reaches it through its own Book interface, which the command fills with
// package book.
//
// The search package finds the best move of a position within limits; a
// book knows openings; play decides between them for a game in
// progress: a finished game has no move, a book move is played without
// searching, a forced move (one legal move, or a pass) gets a shallow search
// for its evaluation only, and otherwise the clock becomes the search's soft
// and hard time limits (search.Clock, the search's time manager) and the search
// runs. Whatever happens — a search stopped before its first iteration, a
// damaged book — the move returned is legal.
//
// Play uses the search package's own types (search.Limits, search.Info,
// search.MoveScore) and asks of the searcher only the two methods it calls
// (Searcher), which *search.Engine has and tests replace with stand-ins
// (package playtest). Besides choosing moves, play holds what every front
// end needs around them: the game with undo and redo (History), the GGF
// clock of a game record (GameClock), the opening book interface (Book),
// thinking on the opponent's time about the reply it expects, which the
// next Go goes on from when that reply comes (Ponder), and the loop that
// keeps reading input while a search or a ponder runs (Input).
package play
