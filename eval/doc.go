// Package eval is Outflank's evaluation: it estimates the final disc
// difference of a position for the side to move, as the search's leaves
// ask. Pattern is a linear model over pattern configurations (corners,
// edges, rows, diagonals) plus mobility and parity, in stages by the number
// of empty squares, with weights embedded in the binary (default.weights,
// Default) or loaded from a file (Load); State evaluates incrementally along
// a line of play; Simple is the untrained placeholder kept as a baseline.
//
// eval imports only bitboard: the search depends on it, never the other
// way round, and the tools that fit its weights (outflank train) live with
// the command, above the search. README.md has the features, the weights
// file format and how the weights were fitted.
package eval
