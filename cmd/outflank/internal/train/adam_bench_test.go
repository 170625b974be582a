package train

import (
	"fmt"
	"testing"

	"github.com/outflank-othello/outflank/eval"
)

// BenchmarkAdamEpoch times one pass of the fit over the test WTHOR games'
// positions with the committed recipe's settings (30 stages, --overlap 1,
// --smooth 2): ns/position is one position's share of an epoch.
func BenchmarkAdamEpoch(b *testing.B) {
	games := testGames(b)
	samples, _ := Labeler{}.Extract(games, func(error) {}, nil)
	order := make([]int32, len(samples))
	for i := range order {
		order[i] = int32((i * 7919) % len(samples))
	}
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			cfg := Config{Stages: 30, StageTie: 1, Batch: 256, L2: 1e-4, Overlap: 1, Smooth: 2, Workers: workers}
			p, free := newWeights(cfg.Stages * eval.PackedStride())
			defer free()
			st := state{p: p}
			adamEpoch(&st, samples, order, 0.03, cfg, "") // fault the pages in
			b.ResetTimer()
			for range b.N {
				adamEpoch(&st, samples, order, 0.01, cfg, "")
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(order)), "ns/position")
		})
	}
}
