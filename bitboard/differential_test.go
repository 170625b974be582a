package bitboard_test

import (
	"math/rand/v2"
	"testing"

	. "github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/internal/reference"
)

// toReference converts a position to the naive board.
func toReference(p Position) *reference.Board {
	b := &reference.Board{ToMove: reference.Black}
	if p.ToMove == White {
		b.ToMove = reference.White
	}
	for sq := 0; sq < 64; sq++ {
		switch {
		case p.Black()>>sq&1 != 0:
			b.Cells[sq/8][sq%8] = reference.Black
		case p.White()>>sq&1 != 0:
			b.Cells[sq/8][sq%8] = reference.White
		}
	}
	return b
}

// checkAgainstReference compares everything the rules define at p: the flips
// of every empty square (hence the legal moves), passes, game end and the
// final score.
func checkAgainstReference(t *testing.T, p Position) bool {
	t.Helper()
	ref := toReference(p)
	var legal uint64
	for sq := Square(0); sq < 64; sq++ {
		if p.Empty()&sq.Bit() == 0 {
			continue
		}
		want := ref.Flips(int(sq)/8, int(sq)%8)
		if want != 0 {
			legal |= sq.Bit()
		}
		if got := Flips(p.Player, p.Opponent, sq); got != want {
			t.Errorf("%s: flips of %s = %s, reference %s", p, sq, SquaresString(got), SquaresString(want))
			return false
		}
	}
	if got := p.Moves(); got != legal {
		t.Errorf("%s: moves %s, reference %s", p, SquaresString(got), SquaresString(legal))
		return false
	}
	// With a legal move the game is not over (checked above); only a blocked
	// side needs the reference's look at the other side.
	if got, want := p.GameOver(), legal == 0 && ref.Over(); got != want {
		t.Errorf("%s: game over %v, reference %v", p, got, want)
		return false
	}
	if p.GameOver() {
		if got, want := p.FinalScore(), ref.Score(); got != want {
			t.Errorf("%s: final score %d, reference %d", p, got, want)
			return false
		}
	}
	return true
}

// TestDifferentialRandomGames plays random games with the bitboard code and
// the naive reference side by side.
func TestDifferentialRandomGames(t *testing.T) {
	games := 100000
	if testing.Short() {
		games = 5000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	passes, early := 0, 0
	for g := 0; g < games; g++ {
		p := Start()
		ref := toReference(p)
		for !p.GameOver() {
			if !checkAgainstReference(t, p) {
				return
			}
			m := p.Moves()
			if m == 0 {
				passes++
				p = p.Pass()
				ref.Pass()
				continue
			}
			k := rng.IntN(Count(m))
			for ; k > 0; k-- {
				m &= m - 1
			}
			sq := FirstSquare(m)
			p = p.Play(sq)
			ref.Play(int(sq))
			if *toReference(p) != *ref {
				t.Fatalf("after %s: bitboard %s differs from reference", sq, p)
			}
		}
		if !checkAgainstReference(t, p) {
			return
		}
		if p.Empties() > 0 {
			early++
		}
	}
	if passes == 0 || early == 0 {
		t.Errorf("random games never passed (%d) or ended early (%d): the test misses cases", passes, early)
	}
}

// FuzzFlips compares flips and moves on arbitrary (even unreachable) boards.
func FuzzFlips(f *testing.F) {
	f.Add(Start().Player, Start().Opponent)
	f.Add(uint64(0x0000000810000000), uint64(0xFFFFFFE7EFFFFFFF)&^0x0000000810000000)
	f.Fuzz(func(t *testing.T, p, o uint64) {
		o &^= p
		checkAgainstReference(t, Position{Player: p, Opponent: o})
	})
}
