//go:build ignore

// Parity measures the odd-even effect of the search: the mean value, for
// the side to move, of 80 positions (8 to 23 random moves from the start,
// seed 3) searched at depths 9 to 13 with Multi-ProbCut at 95%, the table
// cleared before each search. A book that compares moves valued at
// horizons of different parity (a leaf searched to depth d against a move
// negamaxed from its children's depth-d searches, one ply deeper) is
// biased by the gap between odd and even depths. Run from the repository
// root: `go run bench/parity.go`.
package main

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

func main() {
	rng := rand.New(rand.NewPCG(3, 3))
	var ps []bitboard.Position
	for len(ps) < 80 {
		p := bitboard.Start()
		n := 8 + rng.IntN(16)
		ok := true
		for i := 0; i < n; i++ {
			var sq []bitboard.Square
			for m := p.Moves(); m != 0; m &= m - 1 {
				sq = append(sq, bitboard.Square(bits.TrailingZeros64(m)))
			}
			if len(sq) == 0 {
				ok = false
				break
			}
			p = p.Play(sq[rng.IntN(len(sq))])
		}
		if ok && p.Moves() != 0 {
			ps = append(ps, p)
		}
	}
	depths := []int{9, 10, 11, 12, 13}
	sum := make([]float64, len(depths))
	e := search.New(search.Options{HashMB: 64, Eval: eval.Default()})
	for _, p := range ps {
		for j, d := range depths {
			e.Clear()
			i := e.Search(context.Background(), p, search.Limits{Depth: d, Selectivity: 95, EndgameEmpties: 20}, nil)
			sum[j] += float64(i.Score)
		}
	}
	for j, d := range depths {
		fmt.Printf("depth %d: mean score for the side to move %+.2f over %d positions\n", d, sum[j]/float64(len(ps)), len(ps))
	}
}
