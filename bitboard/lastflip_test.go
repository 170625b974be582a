package bitboard

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// exactScore is a naive minimax of (p, o) to the end of the game, built
// only on flipsGo: the reference for the last-empties solvers.
func exactScore(p, o uint64) int {
	best, moved := -100, false
	for e := ^(p | o); e != 0; e &= e - 1 {
		x := Square(bits.TrailingZeros64(e))
		if f := flipsGo(p, o, x); f != 0 {
			moved = true
			best = max(best, -exactScore(o&^f, p|f|1<<uint(x)))
		}
	}
	if moved {
		return best
	}
	for e := ^(p | o); e != 0; e &= e - 1 {
		if flipsGo(o, p, Square(bits.TrailingZeros64(e))) != 0 {
			return -exactScore(o, p)
		}
	}
	return finalScore(p, o)
}

// randomLast returns a random position with the given number of empties,
// its empty squares often next to each other as in real endgames.
func randomLast(r *rand.Rand, empties int) (p, o uint64) {
	var e uint64
	for bits.OnesCount64(e) < empties {
		if e != 0 && r.IntN(2) == 0 { // a neighbour of an empty square
			x := bits.TrailingZeros64(e)
			n := neighbourMask[x] &^ e
			for k := r.IntN(8); n != 0 && k > 0; k-- {
				n &= n - 1
			}
			if n != 0 {
				e |= n & -n
				continue
			}
		}
		e |= 1 << uint(r.IntN(64))
	}
	p = r.Uint64() &^ e
	if r.IntN(4) == 0 { // lopsided boards: passes and wipe-outs
		p &= r.Uint64()
	}
	return p, ^(p | e)
}

func TestLast1(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		p, o := randomLast(r, 1)
		x := Square(bits.TrailingZeros64(^(p | o)))
		if got, want := CountLastFlips(p, x), bits.OnesCount64(flipsGo(p, o, x)); got != want {
			t.Fatalf("p %x x %d: %d flips, want %d", p, x, got, want)
		}
		if got, want := Last1(p, o, x), exactScore(p, o); got != want {
			t.Fatalf("p %x o %x: Last1 %d, want %d", p, o, got, want)
		}
	}
}

// TestLast2 checks Last2's bounds against the naive minimax, and the
// assembly against last2Go, nodes included, on random positions.
func TestLast2(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 50000 {
		p, o := randomLast(r, 2)
		e := ^(p | o)
		x1 := Square(bits.TrailingZeros64(e))
		x2 := Square(63 - bits.LeadingZeros64(e))
		if r.IntN(2) == 0 {
			x1, x2 = x2, x1
		}
		alpha := r.IntN(129) - 64
		exact := exactScore(p, o)
		v, n := last2Go(p, o, alpha, x1, x2)
		if v > alpha && exact < v || v <= alpha && exact > v {
			t.Fatalf("p %x o %x alpha %d: last2Go %d, exact %d", p, o, alpha, v, exact)
		}
		if hasAVX2Kernel {
			if va, na := last2AVX2(p, o, alpha, int(x1), int(x2)); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d x %d %d: assembly (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, x1, x2, va, na, v, n)
			}
		}
		if hasAVX512Kernel {
			if va, na := last2AVX512(p, o, alpha, int(x1), int(x2)); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d x %d %d: AVX-512 (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, x1, x2, va, na, v, n)
			}
		}
	}
}

// shuffledEmpties lists the empty squares of p and o in a random order (the
// order a last-empties solver tries them in).
func shuffledEmpties(r *rand.Rand, p, o uint64) []Square {
	var x []Square
	for e := ^(p | o); e != 0; e &= e - 1 {
		x = append(x, Square(bits.TrailingZeros64(e)))
	}
	r.Shuffle(len(x), func(i, j int) { x[i], x[j] = x[j], x[i] })
	return x
}

// TestLast3 is TestLast2 with three empties.
func TestLast3(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 30000 {
		p, o := randomLast(r, 3)
		x := shuffledEmpties(r, p, o)
		alpha := r.IntN(129) - 64
		exact := exactScore(p, o)
		v, n := last3Go(p, o, alpha, x[0], x[1], x[2])
		if v > alpha && exact < v || v <= alpha && exact > v {
			t.Fatalf("p %x o %x alpha %d: last3Go %d, exact %d", p, o, alpha, v, exact)
		}
		if hasAVX2Kernel {
			if va, na := last3AVX2(p, o, alpha, int(x[0]), int(x[1]), int(x[2])); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d x %v: assembly (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, x, va, na, v, n)
			}
		}
		if hasAVX512Kernel {
			if va, na := last3AVX512(p, o, alpha, int(x[0]), int(x[1]), int(x[2])); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d x %v: AVX-512 (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, x, va, na, v, n)
			}
		}
	}
}

// TestLast4 is TestLast2 with four empties.
func TestLast4(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 20000 {
		p, o := randomLast(r, 4)
		x := shuffledEmpties(r, p, o)
		alpha := r.IntN(129) - 64
		exact := exactScore(p, o)
		v, n := last4Go(p, o, alpha, x[0], x[1], x[2], x[3])
		if v > alpha && exact < v || v <= alpha && exact > v {
			t.Fatalf("p %x o %x alpha %d: last4Go %d, exact %d", p, o, alpha, v, exact)
		}
		if hasAVX2Kernel {
			if va, na := last4AVX2(p, o, alpha, int(x[0]), int(x[1]), int(x[2]), int(x[3])); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d x %v: assembly (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, x, va, na, v, n)
			}
		}
		if hasAVX512Kernel {
			if va, na := last4AVX512(p, o, alpha, int(x[0]), int(x[1]), int(x[2]), int(x[3])); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d x %v: AVX-512 (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, x, va, na, v, n)
			}
		}
	}
}

// randomGroups splits the empty squares of p and o at random into three
// groups, as a caller's parity order would.
func randomGroups(r *rand.Rand, p, o uint64) (g [3]uint64) {
	for e := ^(p | o); e != 0; e &= e - 1 {
		g[r.IntN(3)] |= e & -e
	}
	return g
}

// TestLast5 is TestLast4 with five empties, split into three groups in
// random order. Last5 leaves this position to its caller: a p with no
// move gets Last5Pass (checked against the moves), and the exact score is
// checked where p moves.
func TestLast5(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	passes := 0
	for range 10000 {
		p, o := randomLast(r, 5)
		g := randomGroups(r, p, o)
		alpha := r.IntN(129) - 64
		v, n := last5Go(p, o, alpha, g[0], g[1], g[2])
		if v == Last5Pass {
			passes++
			if movesGo(p, o) != 0 || n != 0 {
				t.Fatalf("p %x o %x: last5Go passed (%d nodes) with moves %s", p, o, n, SquaresString(movesGo(p, o)))
			}
		} else if exact := exactScore(p, o); v > alpha && exact < v || v <= alpha && exact > v {
			t.Fatalf("p %x o %x alpha %d: last5Go %d, exact %d", p, o, alpha, v, exact)
		}
		if hasAVX2Kernel {
			if va, na := last5AVX2(p, o, alpha, g[0], g[1], g[2]); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d groups %x: assembly (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, g, va, na, v, n)
			}
		}
		if hasAVX512Kernel {
			if va, na := last5AVX512(p, o, alpha, g[0], g[1], g[2]); va != v || na != n {
				t.Fatalf("p %x o %x alpha %d groups %x: AVX-512 (%d, %d nodes), Go (%d, %d nodes)", p, o, alpha, g, va, na, v, n)
			}
		}
	}
	if passes == 0 {
		t.Fatal("no position without a move: the pass path went untested")
	}
}

// TestFlipsKernels compares the assembly flips and moves with flipsGo and
// movesGo on random boards, every square (occupied ones included, as
// Flips allows).
func TestFlipsKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for range 20000 {
		p := r.Uint64()
		o := r.Uint64() &^ p
		if r.IntN(2) == 0 {
			o &= r.Uint64()
		}
		if want := movesGo(p, o); hasAVX2Kernel && movesAVX2(p, o) != want || hasAVX512Kernel && movesAVX512(p, o) != want {
			t.Fatalf("p %x o %x: assembly moves differ from movesGo's %x", p, o, want)
		}
		for sq := Square(0); sq < 64; sq++ {
			want := flipsGo(p, o, sq)
			if hasAVX2Kernel {
				if got := flipsAVX2(p, o, sq); got != want {
					t.Fatalf("p %x o %x sq %d: flipsAVX2 %x, want %x", p, o, sq, got, want)
				}
			}
			if hasAVX512Kernel {
				if got := flipsAVX512(p, o, sq); got != want {
					t.Fatalf("p %x o %x sq %d: flipsAVX512 %x, want %x", p, o, sq, got, want)
				}
			}
		}
	}
}
