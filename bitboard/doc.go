// Package bitboard is the rules engine of Outflank: Othello positions as two
// 64-bit bitboards, legal-move generation, flips, passes and game end, the
// board symmetries and a position hash, perft, and the text notations used
// around the game (squares, transcripts, OBF board strings, GGF game records).
//
// Squares are numbered a1 = 0, b1 = 1, … h1 = 7, a2 = 8, … h8 = 63: columns
// a–h run left to right and rows 1–8 top to bottom, so bit i of a bitboard is
// the square at column i%8, row i/8.
//
// The package imports nothing outside the standard library; everything else
// in the engine builds on it.
package bitboard
