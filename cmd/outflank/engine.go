package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// searchEngine adapts *search.Engine to the front ends' engine.Searcher.
type searchEngine struct{ e *search.Engine }

// newSearchEngine builds the engine the front ends play with.
func newSearchEngine(opts engine.Options) engine.Searcher {
	return searchEngine{search.New(search.Options{HashMB: opts.HashMB, Threads: opts.Threads, Eval: evaluator()})}
}

// evaluator is the evaluation the front ends use.
func evaluator() search.Evaluator { return eval.Simple{} }

func (a searchEngine) Search(ctx context.Context, pos bitboard.Position, lim engine.Limits, report func(engine.Info)) engine.Info {
	sl := search.Limits{Depth: lim.Depth, Time: lim.Time, Nodes: lim.Nodes, EndgameEmpties: lim.EndgameEmpties, WLD: lim.WLD, MultiPV: lim.MultiPV}
	var r func(search.Info)
	if report != nil {
		r = func(i search.Info) { report(fromSearch(i)) }
	}
	return fromSearch(a.e.Search(ctx, pos, sl, r))
}

func (a searchEngine) Clear() { a.e.Clear() }

func fromSearch(i search.Info) engine.Info {
	out := engine.Info{Depth: i.Depth, Exact: i.Exact, WLD: i.WLD, Score: i.Score, Best: i.Best,
		PV: i.PV, Nodes: i.Nodes, Time: i.Time}
	for _, m := range i.Moves {
		out.Moves = append(out.Moves, engine.MoveScore{Move: m.Move, Score: m.Score})
	}
	return out
}

// engineFlags are the flags of every command that plays with the engine.
type engineFlags struct {
	hash, threads *int
}

func addEngineFlags(fs *pflag.FlagSet) engineFlags {
	return engineFlags{
		hash:    fs.Int("hash", search.DefaultHashMB, "transposition table size in MiB"),
		threads: fs.Int("threads", 1, "search threads"),
	}
}

func (f engineFlags) options(cmd string) (engine.Options, error) {
	if *f.hash < 1 || *f.hash > 1<<16 {
		return engine.Options{}, fmt.Errorf("%s: --hash %d: want a size from 1 to 65536 MiB", cmd, *f.hash)
	}
	if *f.threads < 1 || *f.threads > 1024 {
		return engine.Options{}, fmt.Errorf("%s: --threads %d: want 1 to 1024", cmd, *f.threads)
	}
	return engine.Options{HashMB: *f.hash, Threads: *f.threads}, nil
}

// version is the module version of the build ("(devel)" when built from a
// checkout) with the VCS revision when known.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "dev"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 7 {
			v += "+" + s.Value[:7]
		}
	}
	return v
}
