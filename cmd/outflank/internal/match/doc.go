// Package match plays engines against each other for "outflank match": it
// starts each engine as a child process, drives it through the NBoard
// protocol exactly as a GUI would (set game, move, ping, go), referees the
// games with package bitboard, and turns the results into a score, an Elo
// difference with its error bar, and GGF records.
//
// An engine that crashes, hangs or answers an illegal move loses the game it
// was playing; the event is reported and the match goes on with a fresh
// process.
package match
