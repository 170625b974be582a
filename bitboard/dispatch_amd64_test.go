package bitboard

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestDispatch calls the exported kernels (Flips, Moves, MovesBoth,
// FlipsReplies, Last2-Last5) under every setting of the kernel flags that this CPU
// allows: as detected, without AVX-512, and without assembly. The entry
// points read the flags at each call (dispatch_amd64.s), so each setting
// reaches a different kernel, and each must agree with the portable code.
func TestDispatch(t *testing.T) {
	avx2, avx512 := hasAVX2Kernel, hasAVX512Kernel
	defer func() { hasAVX2Kernel, hasAVX512Kernel = avx2, avx512 }()
	settings := [][2]bool{{avx2, avx512}, {avx2, false}, {false, false}}
	for _, s := range settings {
		hasAVX2Kernel, hasAVX512Kernel = s[0], s[1]
		name := fmt.Sprintf("avx2=%v,avx512=%v", s[0], s[1])
		rng := rand.New(rand.NewPCG(21, 22))
		for i := 0; i < 3000; i++ {
			p := randomPosition(rng)
			if got, want := Moves(p.Player, p.Opponent), movesGo(p.Player, p.Opponent); got != want {
				t.Fatalf("%s: %s: Moves %s, want %s", name, p, SquaresString(got), SquaresString(want))
			}
			if pm, om := MovesBoth(p.Player, p.Opponent); pm != movesGo(p.Player, p.Opponent) || om != movesGo(p.Opponent, p.Player) {
				t.Fatalf("%s: %s: MovesBoth %s, %s", name, p, SquaresString(pm), SquaresString(om))
			}
			for e := p.Empty(); e != 0; e &= e - 1 {
				sq := FirstSquare(e)
				if got, want := Flips(p.Player, p.Opponent, sq), flipsGo(p.Player, p.Opponent, sq); got != want {
					t.Fatalf("%s: %s: Flips %s %s, want %s", name, p, sq, SquaresString(got), SquaresString(want))
				}
				if p.Moves()&(1<<sq) != 0 {
					f, r := FlipsReplies(p.Player, p.Opponent, sq)
					wf := flipsGo(p.Player, p.Opponent, sq)
					if wr := movesGo(p.Opponent&^wf, p.Player|wf|1<<sq); f != wf || r != wr {
						t.Fatalf("%s: %s: FlipsReplies %s: %s, %s, want %s, %s", name, p, sq, SquaresString(f), SquaresString(r), SquaresString(wf), SquaresString(wr))
					}
				}
			}
		}
		for i := 0; i < 1000; i++ {
			p := randomPosition(rng)
			if p.Moves() == 0 {
				continue
			}
			if got, want := perftLeaves(p.Player, p.Opponent), perftLeavesGo(p.Player, p.Opponent); got != want {
				t.Fatalf("%s: %s: perftLeaves %d, want %d", name, p, got, want)
			}
			if got, want := perft3Leaves(p.Player, p.Opponent), perft3LeavesGo(p.Player, p.Opponent); got != want {
				t.Fatalf("%s: %s: perft3Leaves %d, want %d", name, p, got, want)
			}
		}
		for i := 0; i < 1000; i++ {
			pl, op := randomLast(rng, 5)
			g := randomGroups(rng, pl, op)
			alpha := rng.IntN(129) - 64
			got, gotN := Last5(pl, op, alpha, g[0], g[1], g[2])
			want, wantN := last5Go(pl, op, alpha, g[0], g[1], g[2])
			if got != want || gotN != wantN {
				t.Fatalf("%s: p %x o %x, alpha %d: Last5 %d (%d nodes), want %d (%d nodes)", name, pl, op, alpha, got, gotN, want, wantN)
			}
		}
		for i := 0; i < 3000; i++ {
			n := 2 + i%3
			pl, op := randomLast(rng, n)
			p := Position{Player: pl, Opponent: op}
			var sq [4]Square
			k := 0
			for e := p.Empty(); e != 0; e &= e - 1 {
				sq[k] = FirstSquare(e)
				k++
			}
			alpha := rng.IntN(129) - 64
			var got, want, gotN, wantN int
			switch n {
			case 2:
				got, gotN = Last2(p.Player, p.Opponent, alpha, sq[0], sq[1])
				want, wantN = last2Go(p.Player, p.Opponent, alpha, sq[0], sq[1])
			case 3:
				got, gotN = Last3(p.Player, p.Opponent, alpha, sq[0], sq[1], sq[2])
				want, wantN = last3Go(p.Player, p.Opponent, alpha, sq[0], sq[1], sq[2])
			case 4:
				got, gotN = Last4(p.Player, p.Opponent, alpha, sq[0], sq[1], sq[2], sq[3])
				want, wantN = last4Go(p.Player, p.Opponent, alpha, sq[0], sq[1], sq[2], sq[3])
			}
			if got != want || gotN != wantN {
				t.Fatalf("%s: %s, alpha %d: Last%d %d (%d nodes), want %d (%d nodes)", name, p, alpha, n, got, gotN, want, wantN)
			}
		}
	}
}
