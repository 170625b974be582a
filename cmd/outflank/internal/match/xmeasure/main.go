package main

// Throwaway measurement (not committed): iteration times and solve costs
// on positions of self-played games.

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

func main() {
	ops := match.XOT()
	n, _ := strconv.Atoi(os.Args[1])
	mode := os.Args[2]
	for g := 0; g < n; g++ {
		pos := ops[g*97].Position()
		eng := search.New(search.Options{HashMB: 64, Eval: eval.Default()})
		for !pos.GameOver() {
			if pos.MustPass() {
				pos = pos.Pass()
				continue
			}
			e := pos.Empties()
			if mode == "solve" && e <= 26 && e >= 14 && e%2 == 0 {
				eng2 := search.New(search.Options{HashMB: 64, Eval: eval.Default()})
				t0 := time.Now()
				var lastMid search.Info
				var midT time.Duration
				info := eng2.Search(context.Background(), pos, search.Limits{EndgameEmpties: 60, Time: 20 * time.Second}, func(i search.Info) {
					if !i.Exact {
						lastMid = i
						midT = time.Since(t0)
					}
				})
				fmt.Printf("solve empties %d exact %v nodes %d time %.3f  presearch d%d %.3f nodes %d\n", e, info.Exact, info.Nodes, time.Since(t0).Seconds(), lastMid.Depth, midT.Seconds(), lastMid.Nodes)
			}
			if mode == "timed" && e > 16 {
				t0 := time.Now()
				eng2 := search.New(search.Options{HashMB: 64, Eval: eval.Default()})
				var line string
				prev := time.Duration(0)
				info := eng2.Search(context.Background(), pos, search.Limits{Depth: 60, EndgameEmpties: 24, Time: 500 * time.Millisecond, Soft: 500 * time.Millisecond}, func(i search.Info) {
					el := time.Since(t0)
					line += fmt.Sprintf(" d%d:%.0f", i.Depth, float64(el-prev)/1e6)
					prev = el
				})
				fmt.Printf("timed e%d %.0fms exact %v%s\n", e, float64(time.Since(t0))/1e6, info.Exact, line)
			}
			if mode == "mid" && e > 24 && e%4 == 0 {
				t0 := time.Now()
				eng2 := search.New(search.Options{HashMB: 64, Eval: eval.Default()})
				var line string
				prev := time.Duration(0)
				eng2.Search(context.Background(), pos, search.Limits{Depth: 60, EndgameEmpties: 1, Time: 2 * time.Second}, func(i search.Info) {
					el := time.Since(t0)
					line += fmt.Sprintf(" d%d:%.0fms(x%.1f)", i.Depth, float64(el-prev)/1e6, float64(el-prev)/float64(max(prev, 1)))
					prev = el
				})
				fmt.Printf("mid empties %d%s\n", e, line)
			}
			info := eng.Search(context.Background(), pos, search.Limits{Depth: 6, EndgameEmpties: 14}, nil)
			pos = pos.Play(info.Best)
		}
	}
}
