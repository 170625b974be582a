package puzzlerun

import (
	"context"
	"fmt"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/puzzle"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// engineSolver adapts the search engine to what puzzle goals need: an exact
// (or win/loss/draw) score of a position.
// A limit stops each solve that runs too long (0: none), so that a fact
// about a position too big to solve is reported instead of running forever.
type engineSolver struct {
	eng   *search.Engine
	limit time.Duration
}

func newPuzzleSolver(hashMB int, limit time.Duration) puzzle.Solver {
	return engineSolver{search.New(search.Options{HashMB: hashMB, Eval: eval.Simple{}}), limit}
}

func (s engineSolver) Solve(ctx context.Context, pos bitboard.Position, wld bool) (int, error) {
	info := s.eng.Search(ctx, pos, search.Limits{EndgameEmpties: search.AlwaysSolve, WLD: wld, Time: s.limit}, nil)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if !info.Exact {
		return 0, fmt.Errorf("not solved within --time %s (%d empties)", s.limit, pos.Empties())
	}
	return info.Score, nil
}
