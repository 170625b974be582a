//go:build ignore

// Parity measures the odd-even effect of the search: the mean value, for
// the side to move, of a set of positions searched at a list of depths with
// Multi-ProbCut at 95%, the table cleared before each search. A book that
// compares moves valued at horizons of different parity (a leaf searched to
// depth d against a move negamaxed from its children's depth-d searches,
// one ply deeper) is biased by the gap between odd and even depths; the
// book corrects its negamax by this gap (book.Book.ParityOffset).
//
// By default the positions are 80 random ones (8 to 23 random moves from
// the start, seed 3) at depths 9 to 13. With -book N they are N positions
// of the built-in book, taken evenly through its (sorted) export: balanced
// positions like those the book values. Run from the repository root:
//
//	go run bench/parity.go
//	go run bench/parity.go -book 200 -depths 12,13,14
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

func main() {
	nBook := flag.Int("book", 0, "take this many positions from the built-in book (0: 80 random positions)")
	depthList := flag.String("depths", "9,10,11,12,13", "comma-separated search depths")
	flag.Parse()
	var depths []int
	for _, s := range strings.Split(*depthList, ",") {
		d, err := strconv.Atoi(s)
		if err != nil || d < 1 {
			log.Fatalf("-depths: %q is not a depth", s)
		}
		depths = append(depths, d)
	}
	ps := randomPositions()
	if *nBook > 0 {
		ps = bookPositions(*nBook)
	}
	// per[j][i]: the value of position i at depth j, for the paired gaps.
	per := make([][]float64, len(depths))
	e := search.New(search.Options{HashMB: 64, Eval: eval.Default()})
	for _, p := range ps {
		for j, d := range depths {
			e.Clear()
			i := e.Search(context.Background(), p, search.Limits{Depth: d, Selectivity: 95, EndgameEmpties: 20}, nil)
			per[j] = append(per[j], float64(i.Score))
		}
	}
	for j, d := range depths {
		m, _ := meanSE(per[j])
		fmt.Printf("depth %d: mean score for the side to move %+.2f over %d positions\n", d, m, len(ps))
	}
	for j := 1; j < len(depths); j++ {
		diff := make([]float64, len(ps))
		for i := range ps {
			diff[i] = per[j-1][i] - per[j][i]
		}
		m, se := meanSE(diff)
		fmt.Printf("depth %d minus depth %d: %+.2f ± %.2f (95%%)\n", depths[j-1], depths[j], m, 1.96*se)
	}
}

func meanSE(xs []float64) (mean, se float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

func randomPositions() []bitboard.Position {
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
	return ps
}

// bookPositions takes n positions evenly through the built-in book's
// export (sorted by key, so spread over the book's plies).
func bookPositions(n int) []bitboard.Position {
	b, err := book.Default()
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.Export(&buf); err != nil {
		log.Fatal(err)
	}
	var boards []string
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && l[0] != '#' {
			f := strings.Fields(l)
			boards = append(boards, f[0]+" "+f[1])
		}
	}
	var ps []bitboard.Position
	for i := 0; i < n; i++ {
		p, err := bitboard.ParseBoard(boards[i*len(boards)/n])
		if err != nil {
			log.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}
