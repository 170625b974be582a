package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// BenchmarkFFO solves FFO #40-#59 one by one (one thread, a 64 MiB table
// cleared before each, the built-in evaluation for move ordering, as in
// "outflank bench"), reporting nodes per second. It checks every score:
// a fast wrong answer is a failure. Select positions with -bench, e.g.
// go test -run NONE -bench 'FFO/4[0-4]$' ./bench
func BenchmarkFFO(b *testing.B) {
	es := FFO40to59()
	eng := search.New(search.Options{HashMB: 64, Eval: eval.Default()})
	for i, e := range es {
		b.Run(fmt.Sprint(40+i), func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				eng.Clear()
				info := eng.Search(context.Background(), e.Position, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
				if info.Score != e.Scores[0].Score {
					b.Fatalf("#%d: score %+d, want %+d", 40+i, info.Score, e.Scores[0].Score)
				}
				nodes += info.Nodes
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

func TestFFOEmbedded(t *testing.T) {
	es := FFO40to59()
	if es[0].Position.Empties() != 20 || es[0].Scores[0].Score != 38 {
		t.Fatalf("#40: %d empties, best score %d", es[0].Position.Empties(), es[0].Scores[0].Score)
	}
}
