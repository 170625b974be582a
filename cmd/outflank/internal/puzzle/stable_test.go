package puzzle

import (
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// TestStableDiscsNeverFlip plays random games and checks that no disc found
// stable at some point changes colour later in the game.
func TestStableDiscsNeverFlip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	found := 0
	for game := 0; game < 300; game++ {
		pos := bitboard.Start()
		var hist []bitboard.Position
		for !pos.GameOver() {
			hist = append(hist, pos)
			m := pos.Moves()
			if m == 0 {
				pos = pos.Pass()
				continue
			}
			for k := rng.IntN(bits.OnesCount64(m)); k > 0; k-- {
				m &= m - 1
			}
			pos = pos.Play(bitboard.FirstSquare(m))
		}
		end := pos
		for _, p := range hist {
			st := StableDiscs(p)
			found += bits.OnesCount64(st)
			if changed := st & (p.Black() ^ end.Black()); changed != 0 {
				t.Fatalf("discs %s found stable in %v changed colour by the end %v",
					bitboard.SquaresString(changed), p, end)
			}
		}
	}
	if found == 0 {
		t.Fatal("no stable disc found in 300 games")
	}
}

func TestStableDiscsCases(t *testing.T) {
	if st := StableDiscs(bitboard.Start()); st != 0 {
		t.Errorf("start: %s stable", bitboard.SquaresString(st))
	}
	full, _ := bitboard.ParseBoard(strings.Repeat("XO", 32) + " X")
	if st := StableDiscs(full); st != ^uint64(0) {
		t.Errorf("full board: only %d stable", bits.OnesCount64(st))
	}
	// Black a1 b1 a2 b2, white c1. The corner anchors b1 and a2; b2 is
	// anchored along its row, column and the a1-h8 diagonal, but on the
	// a3-c1 diagonal it has an empty a3 and a white c1: not stable. White's
	// c1 has an empty d1 and a black b1 beside it: not stable.
	pos, _ := bitboard.ParseBoard("XXO-----XX" + strings.Repeat("-", 54) + " O")
	want := "a1 b1 a2"
	if got := bitboard.SquaresString(StableDiscs(pos)); got != want {
		t.Errorf("corner group: stable %q, want %q", got, want)
	}
}
