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

// canonicalNaive is Canonical as the definition says: every symmetry
// applied in turn, the first smallest kept.
func canonicalNaive(p Position) (Position, Symmetry) {
	best, bs := p, Symmetry(0)
	for s := Symmetry(1); s < 8; s++ {
		if q := p.Transform(s); q.Player < best.Player || q.Player == best.Player && q.Opponent < best.Opponent {
			best, bs = q, s
		}
	}
	return best, bs
}

// Canonical gives the naive form's position and symmetry, also on
// symmetric positions, where several symmetries give it and the lowest
// must be chosen (the book maps its moves back through it).
func TestCanonicalMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	positions := []Position{Start(), Start().Play(FirstSquare(Start().Moves())), {}}
	for range 5000 {
		positions = append(positions, randomPosition(rng))
	}
	for _, p := range positions[:len(positions):len(positions)] {
		// Symmetric under a symmetry s: the union of p's images under
		// the group that s generates.
		for s := Symmetry(1); s < 8; s++ {
			q, r := p, p
			for range 4 {
				r = r.Transform(s)
				q.Player |= r.Player
				q.Opponent |= r.Opponent &^ q.Player
			}
			positions = append(positions, q)
		}
	}
	symmetric := 0
	for _, p := range positions {
		c, s := p.Canonical()
		wc, ws := canonicalNaive(p)
		if c != wc || s != ws {
			t.Fatalf("%v: Canonical %v, %d; want %v, %d", p, c, s, wc, ws)
		}
		for g := Symmetry(1); g < 8; g++ {
			if p.Transform(g) == p {
				symmetric++
				break
			}
		}
	}
	if symmetric == 0 {
		t.Error("no symmetric position among the cases: the test misses ties")
	}
}

func BenchmarkCanonical(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	ps := make([]Position, 1024)
	for i := range ps {
		ps[i] = randomPosition(rng)
	}
	var x uint64
	for i := 0; b.Loop(); i++ {
		c, _ := ps[i&1023].Canonical()
		x += c.Player
	}
	_ = x
}
