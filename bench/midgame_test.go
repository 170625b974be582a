package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// midgamePositions returns the positions after 20 moves of the first n games
// of the WTHOR year in testdata: real opening-to-midgame boards with 40
// empties.
func midgamePositions(tb testing.TB, n int) []bitboard.Position {
	_, games, _, err := wthor.ReadFile("../testdata/wthor/WTH_2025.wtb")
	if err != nil {
		tb.Fatal(err)
	}
	var out []bitboard.Position
	for i := 0; i < len(games) && len(out) < n; i++ {
		_, pos, err := games[i].Replay()
		if err != nil || len(pos) <= 20 {
			continue
		}
		if p := pos[20]; p.Moves() != 0 {
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkMidgame searches 16 real midgame positions to a fixed depth with
// the built-in evaluation (one thread, no exact solve), reporting nodes per
// second: the speed of the midgame search and the evaluation together. The
// 16 MiB table, cleared before each position, is large enough for these
// searches and small enough that clearing it does not dominate them.
func BenchmarkMidgame(b *testing.B) {
	ps := midgamePositions(b, 16)
	for _, depth := range []int{8, 10} {
		b.Run(fmt.Sprint("depth", depth), func(b *testing.B) {
			eng := search.New(search.Options{HashMB: 16, Eval: eval.Default()})
			var nodes uint64
			for b.Loop() {
				for _, p := range ps {
					eng.Clear()
					info := eng.Search(context.Background(), p, search.Limits{Depth: depth, EndgameEmpties: 1}, nil)
					if !p.IsLegal(info.Best) {
						b.Fatalf("%s: illegal best move %s", p, info.Best)
					}
					nodes += info.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
