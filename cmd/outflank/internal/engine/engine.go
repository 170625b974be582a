// Package engine is the small API through which Outflank's front ends (the
// NBoard and GTP protocols and the shell) drive a search: a Searcher takes a
// position and limits, reports progress through a callback and stops when
// its context is cancelled. The package also holds what every front end
// needs around a search: Think (passes, finished games and a guaranteed
// legal move), the clock (how long to think for a move) and a game history
// with undo and redo.
//
// The interface is defined here, by its consumer; cmd/outflank adapts the
// search package to it, and tests use small stand-ins (package enginetest).
package engine

import (
	"context"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// Searcher is what a front end needs of the engine.
type Searcher interface {
	// Search analyses pos within lim, calling report as results improve
	// (e.g. after each iteration), and returns the final result. Cancelling
	// ctx makes it return promptly with the best result so far. pos has a
	// legal move (Think deals with passes and finished games).
	Search(ctx context.Context, pos bitboard.Position, lim Limits, report func(Info)) Info
	// Clear forgets what earlier searches learnt (a new game).
	Clear()
}

// Options configure a new engine.
type Options struct {
	HashMB  int // transposition table size
	Threads int
}

// Factory builds a Searcher; the shell uses it to apply new threads or hash
// settings.
type Factory func(Options) Searcher

// Limits bound a search; a zero field means no limit of that kind.
type Limits struct {
	Depth          int           // midgame depth in plies
	Time           time.Duration // wall-clock time
	Nodes          uint64
	EndgameEmpties int  // solve exactly at or below this many empties (0: engine default)
	WLD            bool // a win/loss/draw solve is enough
	MultiPV        int  // >1: score up to this many root moves
}

// MoveScore is the score of one root move, from the side to move's view.
type MoveScore struct {
	Move  bitboard.Square
	Score int
}

// Info is a search result or progress report. Scores are final disc
// differences expected for the side to move (-64..64).
type Info struct {
	Depth      int
	Exact, WLD bool // the score is proven (exactly, or only its sign with WLD)
	Score      int
	Best       bitboard.Square
	PV         []bitboard.Square // starts with Best when known
	Moves      []MoveScore       // with MultiPV: per-move scores, best first
	Nodes      uint64
	Time       time.Duration
}

// EndgameEmpties is the number of empties at which the front ends ask for
// an exact solve when a person or GUI sets a midgame depth: twice the depth,
// as strength levels of other engines do, capped where a solve could take
// minutes.
func EndgameEmpties(depth int) int {
	return max(1, min(2*depth, 24))
}
