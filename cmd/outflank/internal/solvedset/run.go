package solvedset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
)

// DefaultCounts is the set the issue asks for, 217 positions at 24-36
// empties, more where a solve is cheap: README.md gives the cost of each
// count of empties that chose them.
const DefaultCounts = "24:60,25:48,26:36,27:24,28:16,29:12,30:8,31:5,32:3,33:2,34-36:1"

// The commands, for their usage lines.
var (
	BuildCommand = cli.Command{Name: "solvedset build", Args: "OUT --games FILE[,FILE...] [flags]", Summary: "Pick self-play positions and solve them into the set file OUT (resumable, sharded)."}
	MergeCommand = cli.Command{Name: "solvedset merge", Args: "OUT IN...", Summary: "Join the shards of one set into OUT."}
	ScoreCommand = cli.Command{Name: "solvedset score", Args: "SET ENGINE... [flags]", Summary: "Ask each engine for its move in every position of SET and report optimal moves and discs lost."}
)

// BuildFlags are the flags of "outflank solvedset build".
type BuildFlags struct {
	games, counts, shard *string
	from                 *[]string
	seed                 *uint64
	hash                 *int
}

// AddBuildFlags declares the flags of "outflank solvedset build" on fs.
func AddBuildFlags(fs *pflag.FlagSet) *BuildFlags {
	f := &BuildFlags{
		games:  fs.String("games", "", "self-play files (comma-separated) to pick the positions from"),
		seed:   fs.Uint64("seed", 1, "seed of the pick: which games, in which order"),
		counts: fs.String("counts", DefaultCounts, "positions per count of empties: EMPTIES:COUNT or LO-HI:COUNT, comma-separated, empties 14-40"),
		shard:  fs.String("shard", "1/1", "solve only the positions of shard K/N (dealt to the N shards by estimated cost, so that they finish together)"),
		hash:   fs.Int("hash", 256, "transposition table size in MiB"),
		from:   fs.StringSlice("from", nil, "set files of the same games and seed solved before (a sample, another split's shards): their positions in this shard are taken, not solved again"),
	}
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	return f
}

// Build runs "outflank solvedset build".
func Build(e *cli.Env, f *BuildFlags, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("solvedset build: want one output file, got %d arguments", len(args))
	}
	cfg := BuildConfig{Out: args[0], Seed: *f.seed, HashMB: *f.hash, From: *f.from, Log: e.Stderr}
	if *f.games == "" {
		return errors.New("solvedset build: --games FILE: the self-play files to pick from")
	}
	cfg.Games = strings.Split(*f.games, ",")
	var err error
	if cfg.Counts, err = ParseCounts(*f.counts); err != nil {
		return fmt.Errorf("solvedset build: --%w", err)
	}
	k, n, err := cli.ParseShard(*f.shard)
	if err != nil {
		return fmt.Errorf("solvedset build: --shard %w", err)
	}
	cfg.Shard = [2]int{k, n}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := BuildSet(ctx, cfg); err != nil {
		if errors.Is(err, context.Canceled) {
			return errors.New("solvedset build: stopped; the same command resumes it")
		}
		return fmt.Errorf("solvedset build: %w", err)
	}
	return nil
}

// Merge runs "outflank solvedset merge".
func Merge(e *cli.Env, args []string) error {
	if len(args) < 2 {
		return errors.New("solvedset merge: want OUT and at least one shard file")
	}
	if err := MergeSets(args[0], args[1:], e.Stderr); err != nil {
		return fmt.Errorf("solvedset merge: %w", err)
	}
	return nil
}

// ScoreFlags are the flags of "outflank solvedset score".
type ScoreFlags struct {
	values, moveTime, bands, logFile, record *string
	hash, threads, first                     *int
	noSolve                                  *bool
}

// AddScoreFlags declares the flags of "outflank solvedset score" on fs.
func AddScoreFlags(fs *pflag.FlagSet) *ScoreFlags {
	f := &ScoreFlags{
		values:   fs.String("values", "", "the move values file, read and added to (default: SET with .values for its extension)"),
		moveTime: fs.String("time", "1s", "time per move for engines whose spec gives neither depth, time nor clock (1s, 250ms)"),
		bands:    fs.String("bands", "24-26,27-29,30-32,33-36", "the table's rows: empties N-M, comma-separated (positions outside go to \"other\")"),
		first:    fs.Int("first", 0, "score only the first N positions (0: all)"),
		hash:     fs.Int("hash", 256, "transposition table size in MiB of the solver of chosen moves"),
		threads:  fs.Int("threads", runtime.NumCPU(), "threads of the solver of chosen moves (the engines get what their specs say; self engines one)"),
		noSolve:  fs.Bool("no-solve", false, "solve no choice: one whose score is not in the values file counts 2 discs lost, the least it can lose (the table says >=)"),
		logFile:  fs.String("log", "", "write every protocol line sent and received to this file"),
		record:   fs.String("record", "", "write every choice to this file: a JSON object a position (id, empties, best score, optimal moves, each engine's move, its score and seconds)"),
	}
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(fs, "threads", 1, cli.MaxThreads)
	cli.EveryCore(fs, "threads")
	cli.Bound(fs, "first", 0, 1<<30)
	return f
}

// Score runs "outflank solvedset score".
func Score(e *cli.Env, f *ScoreFlags, args []string) error {
	if len(args) < 2 {
		return errors.New("solvedset score: want a set file and at least one engine (self:time=1s, nboard,name=X:COMMAND)")
	}
	cfg := ScoreConfig{Set: args[0], Values: *f.values, HashMB: *f.hash, Threads: *f.threads, First: *f.first, Record: *f.record, NoSolve: *f.noSolve, Out: e.Stdout, Log: e.Stderr}
	if cfg.Values == "" {
		cfg.Values = strings.TrimSuffix(cfg.Set, ".obf") + ".values"
	}
	for _, s := range args[1:] {
		sp, err := match.ParseSpec(s)
		if err != nil {
			return fmt.Errorf("solvedset score: %w", err)
		}
		cfg.Engines = append(cfg.Engines, sp)
	}
	var err error
	if cfg.MoveTime, err = match.ParseDuration(*f.moveTime); err != nil {
		return fmt.Errorf("solvedset score: --time %q: %w", *f.moveTime, err)
	}
	if cfg.Bands, err = ParseBands(*f.bands); err != nil {
		return fmt.Errorf("solvedset score: --%w", err)
	}
	if cfg.Self, err = os.Executable(); err != nil {
		return fmt.Errorf("solvedset score: cannot find this program to run it as an engine: %w", err)
	}
	if *f.logFile != "" {
		out, err := os.Create(*f.logFile)
		if err != nil {
			return fmt.Errorf("solvedset score: --log: %w", err)
		}
		defer out.Close()
		cfg.Protocol = out
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := ScoreSet(ctx, cfg); err != nil {
		return fmt.Errorf("solvedset score: %w", err)
	}
	return nil
}
