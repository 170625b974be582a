// Package benchrun is the work of "outflank bench-midgame" (the midgame
// search timed on tournament positions) and "outflank perft" (the move
// generator counted and timed): the speed figures beside the solver's
// (package solve runs "outflank bench").
package benchrun

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// MidgameFlags are the flags of "outflank bench-midgame".
type MidgameFlags struct {
	hash     *int
	evalFile *string
	perMove  *time.Duration
	depth    *int
	sel      *int
	n        *int
	threads  *int
	fs       *pflag.FlagSet
}

// AddMidgameFlags declares the flags of "outflank bench-midgame" on fs.
func AddMidgameFlags(fs *pflag.FlagSet) *MidgameFlags {
	f := &MidgameFlags{
		hash:     fs.Int("hash", 16, "transposition table size in MiB"),
		evalFile: fs.String("eval", "", engine.EvalFlagHelp),
		perMove:  fs.Duration("time", time.Second, "time per position (not with --depth)"),
		depth:    fs.Int("depth", 0, "search every position to this depth instead of for a fixed time"),
		sel:      fs.Int("selectivity", 0, "Multi-ProbCut confidence in percent: 73, 87, 95, 98, 99 or 100 (0: the default)"),
		n:        fs.Int("positions", 24, "search the first N positions"),
		threads:  fs.Int("threads", 1, "search threads (the search splits its tree over them)"),
		fs:       fs,
	}
	cli.Bound(f.fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(f.fs, "threads", 1, cli.MaxThreads)
	cli.Bound(f.fs, "depth", 0, 60)
	cli.Bound(f.fs, "positions", 1, math.Inf(1))
	cli.Bound(f.fs, "selectivity", 0, 100)
	return f
}

// Midgame runs "outflank bench-midgame" with the parsed flags and the arguments left.
func Midgame(e *cli.Env, f *MidgameFlags, args []string) error {
	if len(args) != 0 {
		return fmt.Errorf("bench-midgame: unexpected argument %q", args[0])
	}
	if *f.hash < 1 || *f.hash > cli.MaxHashMB {
		return fmt.Errorf("bench-midgame: --hash %d: want a size from 1 to 65536 MiB", *f.hash)
	}
	if *f.depth < 0 || *f.depth > 60 {
		return fmt.Errorf("bench-midgame: --depth %d: want 1 to 60", *f.depth)
	}
	if *f.depth > 0 && f.fs.Changed("time") {
		return fmt.Errorf("bench-midgame: --depth and --time together: give one (a search to a depth, or for a time)")
	}
	if *f.depth == 0 && *f.perMove <= 0 {
		return fmt.Errorf("bench-midgame: --time %v: want a positive duration", *f.perMove)
	}
	if *f.threads < 1 || *f.threads > cli.MaxThreads {
		return fmt.Errorf("bench-midgame: --threads %d: want 1 to %d", *f.threads, cli.MaxThreads)
	}
	if !search.ValidSelectivity(*f.sel) {
		return fmt.Errorf("bench-midgame: --selectivity %d: want 73, 87, 95, 98, 99 or 100", *f.sel)
	}
	ps := bench.Midgame()
	if *f.n < 1 || *f.n > len(ps) {
		return fmt.Errorf("bench-midgame: --positions %d: want 1 to %d", *f.n, len(ps))
	}
	ev, _, err := engine.LoadEvaluator(*f.evalFile)
	if err != nil {
		return fmt.Errorf("bench-midgame: --eval: %w", err)
	}
	fmt.Fprintln(e.Stdout, bench.CPULine())
	eng := search.New(search.Options{HashMB: *f.hash, Threads: *f.threads, Eval: ev})
	lim := search.Limits{Depth: *f.depth, Selectivity: *f.sel, EndgameEmpties: 1}
	if *f.depth == 0 {
		lim.Time = *f.perMove
	}
	var nodes uint64
	var elapsed time.Duration
	depths := map[int][]int{}
	for i, p := range ps[:*f.n] {
		eng.Clear()
		info := eng.Search(context.Background(), p, lim, nil)
		if !p.IsLegal(info.Best) {
			return fmt.Errorf("bench-midgame: position %d: illegal best move %s", i+1, cli.MoveName(info.Best))
		}
		nodes += info.Nodes
		elapsed += info.Time
		depths[p.Empties()] = append(depths[p.Empties()], info.Depth)
		fmt.Fprintf(e.Stdout, "%2d  %2d empties  depth %2d@%d%%  %-3s %+3d  %11d nodes  %7.3f s  %6.0f knodes/s\n",
			i+1, p.Empties(), info.Depth, info.Selectivity, cli.MoveName(info.Best), info.Score, info.Nodes,
			info.Time.Seconds(), float64(info.Nodes)/info.Time.Seconds()/1e3)
	}
	fmt.Fprintf(e.Stdout, "total %d nodes  %.3f s  %.0f knodes/s", nodes, elapsed.Seconds(), float64(nodes)/elapsed.Seconds()/1e3)
	for _, em := range []int{48, 40, 32} {
		if ds := depths[em]; len(ds) > 0 {
			sum := 0
			for _, d := range ds {
				sum += d
			}
			fmt.Fprintf(e.Stdout, "  mean depth at %d empties %.2f", em, float64(sum)/float64(len(ds)))
		}
	}
	fmt.Fprintln(e.Stdout)
	return nil
}
