package bitboard

import "testing"

// TestPerftAVX2Deep runs perft 1-9 through the AVX2 kernel, where there is one.
func TestPerftAVX2Deep(t *testing.T) {
	if !hasAVX2Kernel {
		t.Skip("CPU lacks AVX2/BMI2/LZCNT: only the portable path runs here")
	}
	p := Start()
	for d := 3; d <= 9; d++ {
		var n uint64
		for m := p.Moves(); m != 0; m &= m - 1 {
			c := p.Play(FirstSquare(m))
			n += perftVia(c.Player, c.Opponent, d-1, perftLeavesAVX2)
		}
		if n != perftStandard[d] {
			t.Errorf("perft(%d) via AVX2 = %d, want %d", d, n, perftStandard[d])
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
