// Package eval holds Outflank's position evaluations: functions that
// estimate the final disc difference of a position for the side to move.
//
// Pattern is the trained evaluation used in play: a sum of weights looked up
// by the configuration of 46 pattern instances (edges with X-squares, corner
// 3×3 and 2×5 blocks, rows, columns and diagonals), the mobility of each
// side and the parity of the empties, with one weight set per game stage.
// Its weights are embedded in the binary (Default) or read from a file
// (Load). See README.md in this directory for how they were trained.
package eval
