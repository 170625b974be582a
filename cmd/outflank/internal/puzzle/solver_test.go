package puzzle

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/outflank-othello/outflank/bitboard"
)

// testSolver is a plain alpha-beta endgame solver used only to cross-check
// the exact-score goals of small positions (the product uses the search
// package). It refuses positions with more than maxEmpties empties.
type testSolver struct{ maxEmpties int }

func (s testSolver) Solve(ctx context.Context, pos bitboard.Position, wld bool) (int, error) {
	if e := pos.Empties(); e > s.maxEmpties {
		return 0, fmt.Errorf("test solver: %d empties is too many", e)
	}
	if wld {
		return alphaBeta(pos.Player, pos.Opponent, -1, 1, false), nil
	}
	return alphaBeta(pos.Player, pos.Opponent, -64, 64, false), nil
}

func alphaBeta(p, o uint64, alpha, beta int, passed bool) int {
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if passed {
			pos := bitboard.Position{Player: o, Opponent: p}
			return -pos.FinalScore()
		}
		return -alphaBeta(o, p, -beta, -alpha, true)
	}
	best := -65
	for ; moves != 0; moves &= moves - 1 {
		sq := bitboard.Square(bits.TrailingZeros64(moves))
		f := bitboard.Flips(p, o, sq)
		v := -alphaBeta(o&^f, p|f|sq.Bit(), -beta, -alpha, false)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}
