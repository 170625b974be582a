package main

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/search"
)

func init() {
	register(&command{
		name:    "bench-midgame",
		args:    "[flags]",
		summary: "Time the midgame search on 24 tournament positions (48, 40, 32 empties).",
		details: `Searches the midgame benchmark's positions (built into the binary: eight
tournament boards each at 48, 40 and 32 empties) one after another, one
thread unless --threads says otherwise, clearing the hash table before each,
with no exact solve, and prints the machine line, then per position the
depth reached, nodes and nodes per second, and the totals. With --time (the
default, 1s) every position gets that much time and the depth reached is
the figure of merit; with --depth every position is searched to that depth
and the node count is deterministic (with one thread).`,
		run: runBenchMidgame,
	})
}

func runBenchMidgame(e *env, args []string) error {
	c := findCommand("bench-midgame")
	fs := c.flags(e)
	hash := fs.Int("hash", 16, "transposition table size in MiB")
	evalFile := fs.String("eval", "", evalFlagHelp)
	perMove := fs.Duration("time", time.Second, "time per position (not with --depth)")
	depth := fs.Int("depth", 0, "search every position to this depth instead of for a fixed time")
	sel := fs.Int("selectivity", 0, "Multi-ProbCut confidence in percent: 73, 87, 95, 98, 99 or 100 (0: the default)")
	n := fs.Int("positions", 24, "search the first N positions")
	threads := fs.Int("threads", 1, "search threads (the search splits its tree over them)")
	bound(fs, "hash", 1, maxHashMB)
	bound(fs, "threads", 1, maxThreads)
	bound(fs, "depth", 0, 60)
	bound(fs, "positions", 1, math.Inf(1))
	bound(fs, "selectivity", 0, 100)
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("bench-midgame: unexpected argument %q", fs.Arg(0))
	}
	if *hash < 1 || *hash > 1<<16 {
		return fmt.Errorf("bench-midgame: --hash %d: want a size from 1 to 65536 MiB", *hash)
	}
	if *depth < 0 || *depth > 60 {
		return fmt.Errorf("bench-midgame: --depth %d: want 1 to 60", *depth)
	}
	if *depth > 0 && fs.Changed("time") {
		return fmt.Errorf("bench-midgame: --depth and --time together: give one (a search to a depth, or for a time)")
	}
	if *depth == 0 && *perMove <= 0 {
		return fmt.Errorf("bench-midgame: --time %v: want a positive duration", *perMove)
	}
	if *threads < 1 || *threads > 1024 {
		return fmt.Errorf("bench-midgame: --threads %d: want 1 to 1024", *threads)
	}
	if !search.ValidSelectivity(*sel) {
		return fmt.Errorf("bench-midgame: --selectivity %d: want 73, 87, 95, 98, 99 or 100", *sel)
	}
	ps := bench.Midgame()
	if *n < 1 || *n > len(ps) {
		return fmt.Errorf("bench-midgame: --positions %d: want 1 to %d", *n, len(ps))
	}
	ev, _, err := loadEvaluator(*evalFile)
	if err != nil {
		return fmt.Errorf("bench-midgame: --eval: %w", err)
	}
	fmt.Fprintln(e.stdout, bench.CPULine())
	eng := search.New(search.Options{HashMB: *hash, Threads: *threads, Eval: ev})
	lim := search.Limits{Depth: *depth, Selectivity: *sel, EndgameEmpties: 1}
	if *depth == 0 {
		lim.Time = *perMove
	}
	var nodes uint64
	var elapsed time.Duration
	depths := map[int][]int{}
	for i, p := range ps[:*n] {
		eng.Clear()
		info := eng.Search(context.Background(), p, lim, nil)
		if !p.IsLegal(info.Best) {
			return fmt.Errorf("bench-midgame: position %d: illegal best move %s", i+1, moveName(info.Best))
		}
		nodes += info.Nodes
		elapsed += info.Time
		depths[p.Empties()] = append(depths[p.Empties()], info.Depth)
		fmt.Fprintf(e.stdout, "%2d  %2d empties  depth %2d@%d%%  %-3s %+3d  %11d nodes  %7.3f s  %6.0f knodes/s\n",
			i+1, p.Empties(), info.Depth, info.Selectivity, moveName(info.Best), info.Score, info.Nodes,
			info.Time.Seconds(), float64(info.Nodes)/info.Time.Seconds()/1e3)
	}
	fmt.Fprintf(e.stdout, "total %d nodes  %.3f s  %.0f knodes/s", nodes, elapsed.Seconds(), float64(nodes)/elapsed.Seconds()/1e3)
	for _, em := range []int{48, 40, 32} {
		if ds := depths[em]; len(ds) > 0 {
			sum := 0
			for _, d := range ds {
				sum += d
			}
			fmt.Fprintf(e.stdout, "  mean depth at %d empties %.2f", em, float64(sum)/float64(len(ds)))
		}
	}
	fmt.Fprintln(e.stdout)
	return nil
}
