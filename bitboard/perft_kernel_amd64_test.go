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
