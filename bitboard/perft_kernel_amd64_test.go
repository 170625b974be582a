package bitboard

import "testing"

// TestPerftKernelsDeep runs perft 1-9 through each assembly kernel the CPU
// has (AVX2, AVX-512), whichever of them perft itself uses.
func TestPerftKernelsDeep(t *testing.T) {
	kernels := []struct {
		name   string
		ok     bool
		leaves func(p, o uint64) uint64
	}{
		{"AVX2", hasAVX2Kernel, perftLeavesAVX2},
		{"AVX-512", hasAVX512Kernel, perftLeavesAVX512},
	}
	ran := 0
	for _, k := range kernels {
		if !k.ok {
			continue
		}
		ran++
		p := Start()
		for d := 3; d <= 9; d++ {
			var n uint64
			for m := p.Moves(); m != 0; m &= m - 1 {
				c := p.Play(FirstSquare(m))
				n += perftVia(c.Player, c.Opponent, d-1, k.leaves)
			}
			if n != perftStandard[d] {
				t.Errorf("perft(%d) via %s = %d, want %d", d, k.name, n, perftStandard[d])
			}
		}
	}
	if ran == 0 {
		t.Skip("CPU lacks AVX2/BMI2/LZCNT: only the portable path runs here")
	}
}
