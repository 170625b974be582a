// Package selfplayrun is the work of "outflank selfplay": it builds the
// generator's configuration from the command line (the level, the
// evaluation's identity, the openings, the engine that scores and solves),
// runs a job with its progress lines, and merges and checks the files.
// Package selfplay is the generator and the file format.
package selfplayrun

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// Run plays the self-play games of the flags f into the file args names
// (one argument).
func Run(e *cli.Env, r *Flags, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("selfplay: want one output file, got %d arguments (see outflank selfplay --help)", len(args))
	}
	out := args[0]
	cfg, err := r.config()
	if err != nil {
		return err
	}
	cpu0 := cli.CPUTime()
	if !r.quiet {
		cfg.Progress = selfplayProgress(e, out, cpu0)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p, err := selfplay.Run(ctx, cfg, out)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("selfplay: stopped with %d of %d games in %s; run the same command to continue", p.Done, p.Total, out)
		}
		return fmt.Errorf("selfplay: %w", err)
	}
	if !r.quiet {
		fmt.Fprintf(e.Stderr, "selfplay: %s complete: %d games (%d played now, %.3f CPU-hours)\n", out, p.Done, p.Done-p.Resumed, (cli.CPUTime()-cpu0)/3600)
	}
	return nil
}

// Flags are the command line of a self-play run.
type Flags struct {
	games, first, seed                   uint64
	shard, openings, evalFile            string
	workers, depth, random, solve, block int
	hash                                 int
	temp                                 float64
	quiet, bounded, finalPV              bool
}

// AddFlags declares the flags of a self-play run on fs.
func AddFlags(fs *pflag.FlagSet) *Flags {
	r := &Flags{}
	fs.Uint64Var(&r.games, "games", 1000, "games in the whole job (all shards)")
	fs.Uint64Var(&r.first, "first", 0, "index of the job's first game (extend a job with a new --first)")
	fs.Uint64Var(&r.seed, "seed", 1, "seed of the job; game i is played from (seed, i)")
	fs.StringVar(&r.shard, "shard", "1/1", "this run's part K/N of the job: the games i with i mod N = K-1")
	fs.IntVar(&r.workers, "workers", runtime.NumCPU(), "games played at once, one search thread each")
	fs.IntVar(&r.depth, "depth", 6, "midgame search depth for the move scores")
	fs.Float64Var(&r.temp, "temperature", 1, "softmax temperature in discs over the root moves' scores (0: always the best move)")
	fs.IntVar(&r.random, "random", 4, "after the opening, up to this many uniformly random moves (the count is uniform too)")
	fs.IntVar(&r.solve, "solve", 20, "empties from which the solver plays the game out exactly (each empty more costs about twice the time)")
	fs.IntVar(&r.block, "block", 8, "games per checkpoint block")
	fs.StringVar(&r.openings, "openings", "xot", "\"xot\" (the built-in 10,784 openings), \"start\", or a file of move lists")
	fs.IntVar(&r.hash, "hash", search.DefaultHashMB, "transposition table size per worker in MiB")
	fs.StringVar(&r.evalFile, "eval", "", engine.EvalFlagHelp)
	fs.BoolVar(&r.quiet, "quiet", false, "no progress lines")
	fs.BoolVar(&r.bounded, "bounded", false, "score exactly only the root moves the softmax can choose (those within its reach of the best: 14 discs at temperature 1); the others get an upper bound. The same choices for less search; part of the job's level, so a job keeps it or not for good")
	fs.BoolVar(&r.finalPV, "final-multipv", false, "score every root move in the last iteration only; the shallower ones look for the best move alone. Faster, but other games than without it (the table fills differently); part of the job's level")
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(fs, "depth", 1, 60)
	cli.Bound(fs, "workers", 1, cli.MaxThreads)
	cli.EveryCore(fs, "workers")
	cli.Bound(fs, "block", 1, math.Inf(1))
	cli.Bound(fs, "temperature", 0, 64)
	cli.Bound(fs, "solve", 0, 60)
	cli.Bound(fs, "random", 0, 60)
	return r
}

// config checks the flags together and builds the generator's
// configuration: the shard, the evaluation and the openings.
func (r *Flags) config() (selfplay.Config, error) {
	k, n, err := cli.ParseShard(r.shard)
	if err != nil {
		return selfplay.Config{}, fmt.Errorf("selfplay: --shard: %w", err)
	}
	switch {
	case r.workers < 1 || r.workers > cli.MaxThreads:
		return selfplay.Config{}, fmt.Errorf("selfplay: --workers %d: want 1 to %d", r.workers, cli.MaxThreads)
	case r.depth < 1 || r.depth > 30:
		return selfplay.Config{}, fmt.Errorf("selfplay: --depth %d: want 1 to 30", r.depth)
	case r.hash < 1 || r.hash > cli.MaxHashMB:
		return selfplay.Config{}, fmt.Errorf("selfplay: --hash %d: want 1 to 65536 MiB", r.hash)
	case r.block < 1 || r.block > 1<<16:
		return selfplay.Config{}, fmt.Errorf("selfplay: --block %d: want 1 to 65536", r.block)
	case r.games == 0:
		return selfplay.Config{}, errors.New("selfplay: --games 0: nothing to play")
	}
	ev, _, err := engine.LoadEvaluator(r.evalFile)
	if err != nil {
		return selfplay.Config{}, fmt.Errorf("selfplay: --eval: %w", err)
	}
	evalID, err := evalIdentity(r.evalFile, ev)
	if err != nil {
		return selfplay.Config{}, fmt.Errorf("selfplay: --eval: %w", err)
	}
	ops, opsName, err := loadOpenings(r.openings)
	if err != nil {
		return selfplay.Config{}, fmt.Errorf("selfplay: --openings: %w", err)
	}
	depth, hash := r.depth, r.hash
	level := fmt.Sprintf("depth:%d,multipv,selectivity:100,hash:%d,eval:%s", depth, hash, evalID)
	margin := 0
	if r.bounded {
		// A move further below the best than the softmax's reach has
		// weight 0, so an upper bound decides its (nil) chance as well
		// as its exact score would.
		margin = selfplay.Config{Temperature: r.temp}.Reach()
		level += fmt.Sprintf(",margin:%d", margin)
	}
	if r.finalPV {
		level += ",multipv-final"
	}
	finalPV := r.finalPV
	return selfplay.Config{
		Seed: r.seed, First: r.first, Count: r.games, Shard: k, Shards: n,
		Openings: ops, OpeningsName: opsName,
		RandomMoves: r.random, Temperature: r.temp, SolveEmpties: r.solve,
		// The hash size is part of the level: it changes which of equal
		// moves the search prefers, so resumes and shards must share it.
		Level:   level,
		Block:   r.block,
		Workers: r.workers,
		NewEngine: func() selfplay.Engine {
			return &selfplayEngine{e: search.New(search.Options{HashMB: hash, Eval: ev}), depth: depth, margin: margin, finalPV: finalPV}
		},
	}, nil
}

// selfplayProgress prints a run's progress after each block: games and
// positions in the file, this run's rate per CPU-hour since cpu0 and the
// time left.
func selfplayProgress(e *cli.Env, out string, cpu0 float64) func(selfplay.Progress) {
	return func(p selfplay.Progress) {
		if p.Note != "" {
			fmt.Fprintf(e.Stderr, "selfplay: %s\n", p.Note)
		}
		played := p.Done - p.Resumed
		cpuh := (cli.CPUTime() - cpu0) / 3600
		eta := time.Duration(float64(p.Elapsed) / float64(played) * float64(p.Total-p.Done))
		fmt.Fprintf(e.Stderr, "selfplay: %s %d/%d games, %d positions; this run %d in %s, %.1f games per CPU-hour; %s to go\n",
			out, p.Done, p.Total, p.Positions, played, p.Elapsed.Round(time.Second), float64(played)/max(cpuh, 1e-9), eta.Round(time.Minute))
	}
}

// loadOpenings returns the move lists a --openings flag names.
func loadOpenings(name string) ([][]bitboard.Square, string, error) {
	var ops []match.Opening
	switch name {
	case "xot":
		ops = match.XOT()
	case "start":
		return nil, "start", nil
	default:
		f, err := bitboard.Open(name)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		ops, err = match.ReadOpenings(f)
		if err != nil {
			return nil, "", bitboard.InFile(name, err)
		}
		if len(ops) == 0 {
			return nil, "", fmt.Errorf("%s: no openings", name)
		}
		name = "file"
	}
	out := make([][]bitboard.Square, len(ops))
	for i, o := range ops {
		out[i] = o.Moves
	}
	return out, name, nil
}

// evalIdentity names the evaluation by a checksum of its weights, so that
// a run cannot be continued or merged with games of other weights.
func evalIdentity(name string, ev search.Evaluator) (string, error) {
	switch p := ev.(type) {
	case *eval.Pattern:
		var b []byte
		for _, w := range p.Packed() {
			b = binary.LittleEndian.AppendUint16(b, uint16(w))
		}
		return fmt.Sprintf("pattern-%08x", crc32.ChecksumIEEE(b)), nil
	case eval.Simple:
		return "simple", nil
	}
	return "", fmt.Errorf("%q: unknown evaluation type %T", name, ev)
}

// selfplayEngine gives the generator the scores of a depth-limited search
// of every root move, and exact solves.
type selfplayEngine struct {
	e             *search.Engine
	depth, margin int  // margin: Limits.MultiPVMargin (0: every move exact)
	finalPV       bool // Limits.MultiPVFinal
}

func (s *selfplayEngine) NewGame() { s.e.Clear() }

func (s *selfplayEngine) Scores(ctx context.Context, pos bitboard.Position) ([]bitboard.MoveScore, error) {
	// EndgameEmpties 1: the generator solves from its own threshold; the
	// midgame scores stay depth-limited searches whatever that is.
	info := s.e.Search(ctx, pos, search.Limits{Depth: s.depth, MultiPV: 64, MultiPVMargin: s.margin, MultiPVFinal: s.finalPV, EndgameEmpties: 1, Selectivity: 100}, nil)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return info.Moves, nil
}

func (s *selfplayEngine) Solve(ctx context.Context, pos bitboard.Position) (bitboard.Square, int, error) {
	info := s.e.Search(ctx, pos, search.Limits{EndgameEmpties: 60, Selectivity: 100}, nil)
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	if !info.Exact {
		return 0, 0, fmt.Errorf("solve of %s not exact", pos)
	}
	return info.Best, info.Score, nil
}

// MergeCommand is "outflank selfplay merge", for its usage.
var MergeCommand = cli.Command{Name: "selfplay merge", Args: "OUT IN... [flags]", Summary: "Join self-play files of one job (its shards, or runs of other --first ranges) into OUT."}

// MergeFlags are the flags of "outflank selfplay merge".
type MergeFlags struct {
	partial, unfinished *bool
	block               *int
}

// AddMergeFlags declares the flags of "outflank selfplay merge" on fs.
func AddMergeFlags(fs *pflag.FlagSet) *MergeFlags {
	f := &MergeFlags{
		partial:    fs.Bool("partial", false, "allow inputs that do not make up a whole job (the output's set is then marked partial)"),
		unfinished: fs.Bool("unfinished", false, "also take inputs whose run was stopped before its end (their games read so far)"),
		block:      fs.Int("block", 8, "games per block of the output"),
	}
	cli.Bound(fs, "block", 1, math.Inf(1))
	return f
}

// Merge joins the self-play files args[1:] into args[0].
func Merge(e *cli.Env, fl *MergeFlags, args []string) error {
	if len(args) < 2 {
		return errors.New("selfplay merge: want OUT IN..., at least one input")
	}
	out, ins := args[0], args[1:]
	for _, in := range ins {
		if in == out {
			return fmt.Errorf("selfplay merge: %s is both the output and an input", out)
		}
	}
	if _, err := os.Stat(out); err == nil {
		return fmt.Errorf("selfplay merge: %s exists; give a new file", out)
	}
	var inputs []selfplay.Input
	for _, in := range ins {
		f, err := bitboard.Open(in)
		if err != nil {
			return fmt.Errorf("selfplay merge: %w", err)
		}
		defer f.Close()
		rd, err := selfplay.NewReader(f)
		if err != nil {
			return fmt.Errorf("selfplay merge: %s: %w", in, err)
		}
		inputs = append(inputs, selfplay.Input{Name: in, Reader: rd})
	}
	// Written whole or not at all: a killed merge leaves no partial OUT that
	// a later merge would refuse to replace, or a reader take for a shard.
	f, err := atomicfile.Create(out)
	if err != nil {
		return fmt.Errorf("selfplay merge: %w", err)
	}
	defer f.Discard()
	h, n, err := selfplay.Merge(f, inputs, selfplay.MergeOptions{Block: *fl.block, Partial: *fl.partial, Unfinished: *fl.unfinished})
	if err == nil {
		err = f.Commit()
	}
	if err != nil {
		if errors.Is(err, selfplay.ErrUnfinished) {
			err = fmt.Errorf("%w (finish the run, or merge with --unfinished)", err)
		}
		return fmt.Errorf("selfplay merge: %w", err)
	}
	fmt.Fprintf(e.Stdout, "%s: %d games, seed %d, games [%d,%d), shard %s\n", out, n, h.Seed, h.First, h.First+h.Count, h.ShardString())
	return nil
}

// CheckCommand is "outflank selfplay check", for its usage.
var CheckCommand = cli.Command{Name: "selfplay check", Args: "FILE...", Summary: "Verify self-play files (every block, game and score) and print their totals."}

// CheckFlags are the flags of "outflank selfplay check".
type CheckFlags struct {
	labels *bool
}

// AddCheckFlags declares the flags of "outflank selfplay check" on fs.
func AddCheckFlags(fs *pflag.FlagSet) *CheckFlags {
	return &CheckFlags{labels: fs.Bool("labels", false, "also tabulate, by empties, how far the corrected and search labels are from the game's score (games with evaluations)")}
}

// Check verifies the self-play files args and prints their totals.
func Check(e *cli.Env, fl *CheckFlags, args []string) error {
	if len(args) == 0 {
		return errors.New("selfplay check: want FILE...")
	}
	bad := 0
	for _, name := range args {
		h, games, err := selfplay.ReadFile(name)
		st, serr := os.Stat(name)
		if err != nil && !errors.Is(err, selfplay.ErrUnfinished) {
			fmt.Fprintf(e.Stdout, "BAD: %v\n", err)
			bad++
			continue
		}
		state := "complete"
		if err != nil {
			state = "unfinished"
		}
		moves, exact, withEvals, searched, regret := 0, 0, 0, 0, 0
		for _, g := range games {
			moves += len(g.Moves)
			exact += len(g.Moves) - g.Solved
			if g.Evals != nil {
				withEvals++
				for _, m := range g.Evals {
					searched++
					regret += int(m.Best) - int(m.Played)
				}
			}
		}
		per := 0.0
		if serr == nil && len(games) > 0 {
			per = float64(st.Size()) / float64(len(games))
		}
		count := fmt.Sprintf("%d of %d games", len(games), h.Size())
		if h.Shards == 0 {
			count = fmt.Sprintf("%d games (a partial set)", len(games))
		}
		fmt.Fprintf(e.Stdout, "%s: %s, %s, %d positions (%d at or after the solve point), %.1f bytes per game; seed %d, games [%d,%d), shard %s\n  %s\n",
			name, state, count, moves, exact, per, h.Seed, h.First, h.First+h.Count, h.ShardString(), h.Params)
		if withEvals > 0 {
			// The mean regret is what softmax play gives away a move, as
			// the search sees it: the noise --selfplay-label corrected takes out.
			fmt.Fprintf(e.Stdout, "  %d games carry their searched moves' evaluations: %d moves, mean regret %.2f discs a move\n",
				withEvals, searched, float64(regret)/float64(max(searched, 1)))
			if *fl.labels {
				writeLabelSpread(e.Stdout, games)
			}
		}
	}
	if bad > 0 {
		return cli.QuietError{Code: 1}
	}
	return nil
}

// writeLabelSpread tabulates, over the searched positions of games with
// evaluations, in bands of 5 empties, how far train's --selfplay-label
// choices are apart: corrected against the score (mean and root mean
// square), search against the score and against corrected (means of the
// absolute differences, in discs).
func writeLabelSpread(w io.Writer, games []selfplay.Game) {
	type band struct{ n, corr, corr2, search, searchCorr float64 }
	var bands [12]band // 1-5, 6-10, ..., 56-60 empties
	for _, g := range games {
		if g.Evals == nil {
			continue
		}
		ss, err := g.Samples()
		if err != nil {
			continue
		}
		for _, s := range ss {
			if !s.Searched {
				continue
			}
			b := &bands[min(max(s.Pos.Empties()-1, 0)/5, len(bands)-1)]
			d := math.Abs(float64(s.Corrected - s.Score))
			b.n++
			b.corr += d
			b.corr2 += d * d
			b.search += math.Abs(float64(s.Search - s.Score))
			b.searchCorr += math.Abs(float64(s.Search - s.Corrected))
		}
	}
	fmt.Fprintln(w, "  empties  positions  |corrected-score| (rms)  |search-score|  |search-corrected|")
	for k, b := range bands {
		if b.n == 0 {
			continue
		}
		fmt.Fprintf(w, "  %2d-%-2d    %9.0f  %10.2f (%.2f)  %14.2f  %18.2f\n", 5*k+1, 5*k+5, b.n,
			b.corr/b.n, math.Sqrt(b.corr2/b.n), b.search/b.n, b.searchCorr/b.n)
	}
}
