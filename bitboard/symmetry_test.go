package bitboard

import (
	"math/rand/v2"
	"testing"
)

func TestSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		p := randomPosition(rng)
		seen := map[Position]bool{}
		for s := Symmetry(0); s < 8; s++ {
			q := p.Transform(s)
			seen[q] = true
			// Inverse undoes the transformation.
			if back := q.Transform(s.Inverse()); back != p {
				t.Fatalf("symmetry %d: inverse %d does not undo it", s, s.Inverse())
			}
			// The rules commute with the symmetries.
			if got, want := q.Moves(), s.Apply(p.Moves()); got != want {
				t.Fatalf("symmetry %d: moves %s, want %s", s, SquaresString(got), SquaresString(want))
			}
			for m := p.Moves(); m != 0; m &= m - 1 {
				sq := FirstSquare(m)
				if q.Play(s.Square(sq)) != p.Play(sq).Transform(s) {
					t.Fatalf("symmetry %d: playing %s does not commute", s, sq)
				}
			}
			c, _ := q.Canonical()
			if pc, _ := p.Canonical(); c != pc {
				t.Fatalf("symmetric positions have different canonical forms")
			}
		}
		if c, s := p.Canonical(); p.Transform(s) != c {
			t.Fatalf("Canonical's symmetry does not produce it")
		}
		_ = seen
	}
	if got := Start().Transform(1).Transform(2); got.Moves() != Start().Moves() {
		// The start position is symmetric under the 180° rotation.
		t.Errorf("start position not symmetric under rotation")
	}
}

func TestHashSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	seen := map[uint64]bool{}
	positions := map[[2]uint64]bool{}
	for i := 0; i < 100000; i++ {
		p := randomPosition(rng)
		seen[p.Hash()] = true
		positions[[2]uint64{p.Player, p.Opponent}] = true
		if p.Hash() == p.Pass().Hash() && p.Player != p.Opponent {
			t.Fatalf("swapping sides keeps the hash: %s", p)
		}
	}
	if len(seen) != len(positions) {
		t.Errorf("%d distinct hashes for %d distinct positions", len(seen), len(positions))
	}
}

// randomPosition plays a random number of random moves from the start.
func randomPosition(rng *rand.Rand) Position {
	p := Start()
	for n := rng.IntN(60); n > 0 && !p.GameOver(); n-- {
		m := p.Moves()
		if m == 0 {
			p = p.Pass()
			continue
		}
		for k := rng.IntN(Count(m)); k > 0; k-- {
			m &= m - 1
		}
		p = p.Play(FirstSquare(m))
	}
	return p
}
