package play_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
)

// historyState is everything a History shows, for comparing before and
// after a refused move.
type historyState struct {
	moves   []bitboard.GameMove
	pos     []bitboard.Position
	n       int
	canRedo bool
}

func stateOf(h *play.History) historyState {
	return historyState{
		moves:   append([]bitboard.GameMove(nil), h.Game().Moves...),
		pos:     append([]bitboard.Position(nil), h.Positions()...),
		n:       h.Moves(),
		canRedo: h.CanRedo(),
	}
}

// TestHistoryRefusedChangesNothing plays random games through the History
// that GTP and the shell keep, with undo and redo mixed in, and offers
// refused moves at every ply (forced passes included): each is refused
// and leaves the record, the positions, and undo and redo as they were.
func TestHistoryRefusedChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(78, 3))
	forced := 0
	for game := 0; game < 60; game++ {
		h := play.NewHistory(bitboard.Start())
		for !h.Position().GameOver() {
			p := h.Position()
			legal := p.Moves()
			if p.MustPass() {
				forced++
				legal = p.Pass().Moves()
			}
			before := stateOf(h)
			for try := 0; try < 4; try++ {
				sq := bitboard.Square(rng.IntN(65))
				if sq == 64 {
					sq = bitboard.PassMove
				}
				if (sq == bitboard.PassMove && p.MustPass()) || (sq != bitboard.PassMove && legal&sq.Bit() != 0) {
					continue
				}
				if err := h.Play(bitboard.GameMove{Square: sq}); err == nil {
					t.Fatalf("game %d: %s accepted", game, sq)
				}
				if got := stateOf(h); !reflect.DeepEqual(got, before) {
					t.Fatalf("game %d: refused %s changed the history: %d moves became %d, redo %v became %v", game, sq, before.n, got.n, before.canRedo, got.canRedo)
				}
			}
			if rng.IntN(8) == 0 && h.Undo() {
				if !h.Redo() || h.Position() != p {
					t.Fatalf("game %d: undo and redo did not return to the position", game)
				}
			}
			ms := legal
			for k := rng.IntN(bitboard.Count(ms)); k > 0; k-- {
				ms &= ms - 1
			}
			if err := h.Play(bitboard.GameMove{Square: bitboard.FirstSquare(ms)}); err != nil {
				t.Fatalf("game %d: legal move refused: %v", game, err)
			}
			if ps := h.Positions(); len(ps) != h.Moves()+1 || !reflect.DeepEqual(ps, h.Game().Positions()) {
				t.Fatalf("game %d: positions and record disagree", game)
			}
		}
	}
	if forced == 0 {
		t.Error("no forced pass met: the test does not cover them")
	}
}
