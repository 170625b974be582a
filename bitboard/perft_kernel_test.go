package bitboard

import (
	"math/rand/v2"
	"testing"
)

// TestPerftLeavesPaths compares the path in use (the assembly kernel where
// the CPU has it) and the portable loop with a plain count on random positions, passes and
// finished children included.
func TestPerftLeavesPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 0
	for i := 0; i < 20000; i++ {
		p := randomPosition(rng)
		if p.Moves() == 0 {
			continue
		}
		n++
		var want uint64
		for m := p.Moves(); m != 0; m &= m - 1 {
			c := p.Play(FirstSquare(m))
			if k := Count(c.Moves()); k > 0 {
				want += uint64(k)
			} else {
				want++ // pass or game over
			}
		}
		if got := perftLeavesGo(p.Player, p.Opponent); got != want {
			t.Fatalf("%s: portable %d, want %d", p, got, want)
		}
		// perftLeaves is the path perft uses: the kernel where the CPU has one.
		if got := perftLeaves(p.Player, p.Opponent); got != want {
			t.Fatalf("%s: %s %d, want %d", p, AsmPath(), got, want)
		}
	}
	t.Logf("%d positions, fast path: %s", n, AsmPath())
}

// TestPerftPortableDeep runs perft 1-9 through the portable last-two-plies
// loop, whatever the CPU, so that the Go twin of the kernel is checked
// against the known counts too.
func TestPerftPortableDeep(t *testing.T) {
	p := Start()
	for d := 3; d <= 9; d++ {
		var n uint64
		for m := p.Moves(); m != 0; m &= m - 1 {
			c := p.Play(FirstSquare(m))
			n += perftVia(c.Player, c.Opponent, d-1, perftLeavesGo)
		}
		if n != perftStandard[d] {
			t.Errorf("perft(%d) via the portable loop = %d, want %d", d, n, perftStandard[d])
		}
	}
}

// perftVia is perft with a chosen last-two-plies kernel.
func perftVia(p, o uint64, depth int, leaves func(p, o uint64) uint64) uint64 {
	moves := Moves(p, o)
	if moves == 0 {
		if Moves(o, p) == 0 {
			return 1
		}
		if depth == 1 {
			return 1
		}
		return perftVia(o, p, depth-1, leaves)
	}
	if depth == 1 {
		return uint64(Count(moves))
	}
	if depth == 2 {
		return leaves(p, o)
	}
	var n uint64
	for ; moves != 0; moves &= moves - 1 {
		sq := FirstSquare(moves)
		f := Flips(p, o, sq)
		n += perftVia(o&^f, p|f|sq.Bit(), depth-1, leaves)
	}
	return n
}

// TestPortableTwins checks the portable Moves and Flips against the ones in
// use (and MovesBoth against two portable Moves) (the AVX2 versions where the CPU has them), on every empty square of
// random positions; the differential test checks the ones in use against the
// naive reference.
func TestPortableTwins(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 20000; i++ {
		p := randomPosition(rng)
		if got, want := movesGo(p.Player, p.Opponent), Moves(p.Player, p.Opponent); got != want {
			t.Fatalf("%s: portable moves %s, %s gives %s", p, SquaresString(got), AsmPath(), SquaresString(want))
		}
		if pm, om := MovesBoth(p.Player, p.Opponent); pm != movesGo(p.Player, p.Opponent) || om != movesGo(p.Opponent, p.Player) {
			t.Fatalf("%s: %s MovesBoth %s, %s; portable %s, %s", p, AsmPath(), SquaresString(pm), SquaresString(om),
				SquaresString(movesGo(p.Player, p.Opponent)), SquaresString(movesGo(p.Opponent, p.Player)))
		}
		for e := p.Empty(); e != 0; e &= e - 1 {
			sq := FirstSquare(e)
			if got, want := flipsGo(p.Player, p.Opponent, sq), Flips(p.Player, p.Opponent, sq); got != want {
				t.Fatalf("%s: portable flips of %s %s, %s gives %s", p, sq, SquaresString(got), AsmPath(), SquaresString(want))
			}
		}
	}
}

// TestPerft3Paths compares the last-three-plies path in use (the assembly
// kernel where the CPU has it) and its portable twin with perft through the
// portable two-ply loop, on random positions where passes and finished games
// occur at every ply.
func TestPerft3Paths(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 5000; i++ {
		p := randomPosition(rng)
		if p.Moves() == 0 {
			continue
		}
		want := perftVia(p.Player, p.Opponent, 3, perftLeavesGo)
		if got := perft3LeavesGo(p.Player, p.Opponent); got != want {
			t.Fatalf("%s: portable %d, want %d", p, got, want)
		}
		if got := perft3Leaves(p.Player, p.Opponent); got != want {
			t.Fatalf("%s: %s %d, want %d", p, AsmPath(), got, want)
		}
	}
}
