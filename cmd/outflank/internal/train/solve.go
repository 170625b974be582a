package train

import (
	"context"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// Solver labels positions with their exact scores using the engine's own
// solver. Package train is a tool above the search in the package chain
// (search imports eval, never cmd/outflank/internal/train), so it uses the real solver
// rather than a copy of one.
type Solver struct{ eng *search.Engine }

// NewSolver returns a solver with a transposition table of hashMB MiB that
// orders its moves with the built-in evaluation. One Solve at a time.
func NewSolver(hashMB int) *Solver {
	return &Solver{eng: search.New(search.Options{HashMB: hashMB, Eval: eval.Default()})}
}

// Solve returns the exact final disc difference for the side to move (discs
// p, the other side's o) under perfect play, empty squares to the winner.
func (s *Solver) Solve(p, o uint64) int {
	pos := bitboard.Position{Player: p, Opponent: o}
	return s.eng.Search(context.Background(), pos, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil).Score
}

// SolvePool returns a solve function that n goroutines may call at once
// (Labeler.Workers): n solvers, each with its own table of hashMB MiB, lent
// to one call at a time. An exact score does not depend on which solver or
// table state produced it, so labels stay reproducible.
func SolvePool(n, hashMB int) func(p, o uint64) int {
	free := make(chan *Solver, n)
	for range n {
		free <- NewSolver(hashMB)
	}
	return func(p, o uint64) int {
		s := <-free
		defer func() { free <- s }()
		return s.Solve(p, o)
	}
}
