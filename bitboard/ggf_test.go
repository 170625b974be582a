package bitboard

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// refusals lists moves that p refuses: occupied squares, empty squares
// that flip nothing, a pass while a move exists, and, when the side to
// move must pass, the board moves that the opponent could not make either
// (Append tries those after the implied pass).
func refusals(p Position) []Square {
	var out []Square
	q := p
	if p.MustPass() {
		q = p.Pass()
	}
	legal := q.Moves()
	if p.GameOver() {
		legal = 0
	}
	for sq := Square(0); sq < 64; sq++ {
		if legal&sq.Bit() == 0 {
			out = append(out, sq)
		}
	}
	if p.Moves() != 0 || p.GameOver() {
		out = append(out, PassMove)
	}
	return out
}

// TestAppendRefusedChangesNothing plays random games and, at every ply,
// offers refused moves first: each must return an error and leave the
// record exactly as it was, forced passes included (a refused move once
// kept the pass it implied, so the GUI's side to move changed).
func TestAppendRefusedChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(78, 1))
	forcedPasses := 0
	for game := 0; game < 200; game++ {
		g := &Game{Start: Start()}
		for !g.Current().GameOver() {
			p := g.Current()
			if p.MustPass() {
				forcedPasses++
			}
			before := append([]GameMove(nil), g.Moves...)
			bad := refusals(p)
			for _, k := range rng.Perm(len(bad))[:min(len(bad), 6)] {
				if err := g.Append(GameMove{Square: bad[k]}); err == nil {
					t.Fatalf("game %d: %s accepted in %s", game, bad[k], p.BoardString('X', 'O', '-', ""))
				}
				if !reflect.DeepEqual(g.Moves, before) || g.Current() != p {
					t.Fatalf("game %d: refused %s changed the game: %v -> %v", game, bad[k], before, g.Moves)
				}
			}
			// A legal move: play it, sometimes leaving the forced pass implied.
			q := p
			if p.MustPass() && rng.IntN(2) == 0 {
				if err := g.Append(GameMove{Square: PassMove}); err != nil {
					t.Fatalf("game %d: forced pass refused: %v", game, err)
				}
				continue
			}
			if p.MustPass() {
				q = p.Pass()
			}
			ms := q.Moves()
			var legal []Square
			for sq := Square(0); sq < 64; sq++ {
				if ms&sq.Bit() != 0 {
					legal = append(legal, sq)
				}
			}
			sq := legal[rng.IntN(len(legal))]
			if err := g.Append(GameMove{Square: sq}); err != nil {
				t.Fatalf("game %d: legal %s refused: %v", game, sq, err)
			}
			if got, want := g.Current(), q.Play(sq); got != want {
				t.Fatalf("game %d: after %s the game is at the wrong position", game, sq)
			}
		}
		if err := g.Append(GameMove{Square: PassMove}); err == nil {
			t.Fatalf("game %d: a pass accepted after the game ended", game)
		}
	}
	if forcedPasses < 20 {
		t.Fatalf("only %d forced passes met: the test does not cover them", forcedPasses)
	}
}
