// Package trainrun is the work of "outflank train": the sample and label
// pipeline that feeds the fit of package train. It reads WTHOR, GGF and
// self-play games, labels their positions (theory, the solver's labels
// and their cache, search labels blended in, self-play labels), caches
// them, and hands the samples to train.Fit, writing the weights file.
package trainrun

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard/wthor"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/train"
	"github.com/outflank-othello/outflank/eval"
	"github.com/spf13/pflag"
)

// Config is everything a training run needs: what AddFlags reads
// from the command line, Run checks and carries out.
type Config struct {
	wthorDir       string
	ggfFiles       []string
	selfplay       []string // files of "outflank selfplay"
	selfplayWeight int      // each self-play position is trained this many times
	selfplayGames  []int    // only the games of job index below this (0 = all): one for every file, or one per file
	selfplayFrom   []int    // only the games of job index at least this: likewise
	selfplayLabel  string   // "outcome", "corrected" or "search": see spLabel
	selfplayMix    float64  // with "search": the search value's share of the label
	out            string
	samplesFile    string // label cache ("" = none)
	solveLabels    string // the solver's labels of the games ("" = none)
	maxGames       int
	labeler        train.Labeler
	relabel        train.Relabel // search labels (Depth 0: none)
	searchEval     string        // weights of the labelling search ("" = embedded)
	searchFiles    []string      // search labels cache: one file, or the N files of N shards
	labelMix       float64
	shard          string // --shard K/N: label that shard and stop
	shardSet       bool
	dropUnsearched bool
	searchPartial  bool   // a fit on the shards' labels so far (files still growing, or not begun)
	searchSpread   int    // plies over which a search label also labels its game's unsearched neighbours
	auditN         int    // solve this many searched positions and report the labels' errors, then stop
	auditEmpties   string // ... at these empties counts (N or N-M)
	auditLo        int
	auditHi        int
	searchSelfPlay bool // search the self-play positions, not WTHOR's and GGF's
	searchLimit    int  // search only the first this many picked positions (0: all)
	checkEvery     time.Duration
	initFile       string // weights the fit starts from ("" = zero)
	fit            train.Config
	quiet          bool
}

// AddFlags declares train's flags on fs, straight into a Config, in
// three groups: the data and its labels, the fit, and the search labels.
func AddFlags(fs *pflag.FlagSet) *Config {
	c := &Config{}
	c.dataFlags(fs)
	c.fitFlags(fs)
	c.searchFlags(fs)
	return c
}

// Run checks the flags together, labels the games (or reads the cached
// labels), fits the weights and writes them.
func Run(e *cli.Env, c *Config, args []string) error {
	if len(args) != 0 {
		return fmt.Errorf("train: unexpected argument %q", args[0])
	}
	// The seed and the held-out share decide the split everywhere.
	c.labeler.Seed, c.relabel.Seed, c.relabel.HoldOut = c.fit.Seed, c.fit.Seed, c.fit.HoldOut
	// The outputs first: a directory or an unwritable folder said at
	// once, not after an epoch.
	for _, out := range []string{c.out, c.fit.Checkpoint} {
		if out != "" {
			if err := atomicfile.Check(out); err != nil {
				return fmt.Errorf("train: %w", err)
			}
		}
	}
	if err := c.checkData(); err != nil {
		return err
	}
	if err := c.checkFit(); err != nil {
		return err
	}
	if err := c.checkSearch(); err != nil {
		return err
	}
	return c.run(e)
}

// dataFlags declares the flags of the games, their labels and the output.
func (c *Config) dataFlags(fs *pflag.FlagSet) {
	fs.StringVar(&c.wthorDir, "wthor", "", "directory of WTHOR .wtb files")
	fs.StringSliceVar(&c.selfplay, "selfplay", nil, "files of \"outflank selfplay\" games (comma-separated or repeated)")
	fs.IntVar(&c.selfplayWeight, "selfplay-weight", 1, "train each self-play position this many times (weight of the self-play data against WTHOR's)")
	fs.IntSliceVar(&c.selfplayGames, "selfplay-games", nil, "use only the self-play games of job index below N (0 = all): a fit stays reproducible while the jobs' files grow; one N for every --selfplay file, or one per file in their order (comma-separated)")
	fs.IntSliceVar(&c.selfplayFrom, "selfplay-from", nil, "use only the self-play games of job index N or above (with --selfplay-games: a range); one N for every --selfplay file, or one per file")
	fs.StringVar(&c.selfplayLabel, "selfplay-label", "outcome", "label of a self-play position before the solve point: outcome (the game's score), corrected (the score with the regrets of the later searched moves given back) or search (the position's search value); the last two need games that carry their moves' evaluations, and the others keep the score")
	fs.Float64Var(&c.selfplayMix, "selfplay-search-weight", 1, "with --selfplay-label search: the label is this share of the search value plus the rest of the game's score")
	fs.StringSliceVar(&c.ggfFiles, "games", nil, "GGF files of more games, e.g. self-play from \"outflank match --games-out\" (comma-separated or repeated)")
	fs.StringVar(&c.out, "out", "outflank.weights", "weights file to write")
	fs.StringVar(&c.samplesFile, "samples", "", "cache the labelled positions in this file (reused if it exists)")
	fs.StringVar(&c.solveLabels, "solve-labels", "", "the solver's labels of the games (WTHOR's and --games'): read from this file if it exists (and checked against the solver in 64 positions), else solved and written to it; .gz compresses")
	fs.IntVar(&c.labeler.SolveEmpties, "solve-empties", 18, "label positions with at most this many empties by an exact solve")
	fs.Float64Var(&c.labeler.SolveShare, "solve-share", 1, "share of the games whose small endgames are solved (chosen from --seed)")
	fs.IntVar(&c.labeler.Workers, "workers", runtime.NumCPU(), "games labelled at once (solver labels), each with its own solver, and threads of the fit (the weights do not depend on it)")
	fs.String("solver", "search", "exact solver for the labels: the engine's (\"search\"), the only one")
	fs.MarkDeprecated("solver", "the engine's solver is the only one")
	fs.IntVar(&c.maxGames, "max-games", 0, "use only the first N games (0 = all), for quick runs")
	fs.BoolVar(&c.quiet, "quiet", false, "no progress bar")
	cli.Bound(fs, "selfplay-weight", 1, 100)
	cli.Bound(fs, "selfplay-search-weight", 0, 1)
	cli.Bound(fs, "solve-empties", 0, 60)
	cli.Bound(fs, "solve-share", 0, 1)
	cli.Bound(fs, "workers", 1, cli.MaxThreads)
	cli.EveryCore(fs, "workers")
}

// fitFlags declares the flags of the fit.
func (c *Config) fitFlags(fs *pflag.FlagSet) {
	f := &c.fit
	fs.Uint64Var(&f.Seed, "seed", 1, "random seed (hold-out split, shuffling)")
	fs.Float64Var(&f.HoldOut, "holdout", 0.1, "share of games held out to measure the error")
	fs.IntVar(&f.Epochs, "epochs", 8, "passes over the training positions")
	fs.StringVar(&c.initFile, "init", "", "start the fit from this weights `FILE` (e.g. the embedded eval/default.weights) instead of zero, the moments at zero: a few epochs with more data go on from a finished fit")
	fs.StringVar(&f.Optimizer, "optimizer", "adam", "\"adam\" (mini-batch) or \"sgd\" (per position)")
	fs.IntVar(&f.Batch, "batch", 256, "positions per Adam step")
	fs.Float64Var(&f.Rate, "rate", 0.03, "initial step size (Adam: discs per step)")
	fs.Float64Var(&f.FinalRate, "final-rate", 0.001, "step size at the last epoch (geometric decay)")
	fs.Float64Var(&f.L2, "l2", 0.0001, "L2 regularisation")
	fs.IntVar(&f.Overlap, "overlap", 1, "positions within this many empties of a stage's edge also train the neighbouring stage (0 = off)")
	fs.Float64Var(&f.Smooth, "smooth", 0, "pull each weight towards the same weight of the neighbouring stages (Adam)")
	fs.IntVar(&f.StageTie, "stage-tie", 1, "train groups of this many neighbouring stages as one (ablations; Adam)")
	fs.IntVar(&f.Stages, "stages", eval.DefaultStages, "weight stages by empties: a divisor of 60 (15: 4 empties each; 30: 2, the embedded weights'; 60: 1)")
	fs.StringSliceVar(&f.Disable, "disable", nil, "feature families to leave out (weights 0), e.g. row2,parity (ablations; Adam)")
	fs.StringVar(&f.Checkpoint, "checkpoint", "", "save the training state here after each epoch")
	fs.BoolVar(&f.Resume, "resume", false, "continue from --checkpoint if it exists")
	cli.Share(fs, "holdout")
	cli.Bound(fs, "epochs", 1, math.Inf(1))
	cli.Bound(fs, "batch", 1, math.Inf(1))
	cli.Positive(fs, "rate")
	cli.Positive(fs, "final-rate")
	cli.Bound(fs, "overlap", 0, 2)
	cli.Bound(fs, "stages", 1, 60)
	cli.Bound(fs, "stage-tie", 1, 60)
}

// searchFlags declares the flags of the search labels.
func (c *Config) searchFlags(fs *pflag.FlagSet) {
	r := &c.relabel
	r.Shard, r.Of = 1, 1
	fs.IntVar(&r.Depth, "search-depth", 0, "blend a search value of this depth (plies) into the labels of positions with --search-min-empties or more (0 = off)")
	fs.IntVar(&r.Selectivity, "search-selectivity", 73, "Multi-ProbCut confidence of the labelling search: 73, 87, 95, 98, 99 or 100 (none)")
	fs.IntVar(&r.MinEmpties, "search-min-empties", 25, "search only positions with at least this many empties (below, labels are exact or near-exact)")
	fs.IntVar(&r.MaxEmpties, "search-max-empties", 60, "... and at most this many")
	fs.BoolVar(&c.searchSelfPlay, "search-selfplay", false, "search the --selfplay positions (WTHOR's and the --games' keep their game labels); --selfplay-games keeps the selection, and so the labels files, the same while a job's files grow")
	fs.IntVar(&r.Every, "search-every", 1, "search every N-th eligible training position (the others keep their game label)")
	fs.StringVar(&c.searchEval, "search-eval", "", "weights file for the labelling search (default: the embedded weights)")
	fs.StringSliceVar(&c.searchFiles, "search-labels", nil, "cache of the search labels (resumed if it exists); with N files, the N shards' files, merged")
	fs.Float64Var(&c.labelMix, "label-mix", 0.5, "λ: a searched position's label is λ·search + (1−λ)·game label")
	fs.StringVar(&c.shard, "shard", "", "K/N: search only shard K of N of the positions into --search-labels, then stop (no fit)")
	fs.BoolVar(&c.dropUnsearched, "search-only", false, "leave out the positions --search-depth could have searched but did not (--search-every > 1), rather than train them on the game label")
	fs.BoolVar(&c.searchPartial, "search-partial", false, "with the N shards' files, fit on the labels each holds so far (a missing file: none) rather than refuse a shard not finished: a trial fit while the job runs")
	fs.IntVar(&c.searchSpread, "search-spread", 0, "an eligible position not searched takes the search label of the nearest searched position of its game within this many plies (negated when the other side is to move there); 0: none")
	fs.IntVar(&c.auditN, "search-audit", 0, "solve this many of the searched positions exactly (at --search-audit-empties, drawn by --seed) and report the game label's, the search label's, the evaluation's and the blend's errors and the least-squares λ, then stop (no fit)")
	fs.StringVar(&c.auditEmpties, "search-audit-empties", "24-26", "... positions with this many empties, N or N-M (each empty more about doubles a solve)")
	fs.IntVar(&c.searchLimit, "search-limit", 0, "search only the first N positions of the selection (0 = all): a run cut short for time is reproduced by this flag")
	fs.DurationVar(&c.checkEvery, "search-checkpoint", time.Minute, "save the search labels this often")
	cli.Bound(fs, "search-depth", 0, 30)
	cli.Bound(fs, "search-selectivity", 0, 100)
	cli.Bound(fs, "search-min-empties", 1, 60)
	cli.Bound(fs, "search-max-empties", 1, 60)
	cli.Bound(fs, "search-every", 1, math.Inf(1))
	cli.Bound(fs, "label-mix", 0, 1)
	cli.Bound(fs, "search-audit", 0, math.Inf(1))
	cli.Bound(fs, "search-spread", 0, 60)
	cli.Positive(fs, "search-checkpoint")
}

// checkData checks that there are games to train on.
func (c *Config) checkData() error {
	if c.wthorDir == "" && len(c.ggfFiles) == 0 && len(c.selfplay) == 0 {
		return fmt.Errorf("train: want --wthor DIR (e.g. the WTHOR database directory), --selfplay FILE and/or --games FILE.ggf")
	}
	// Game indices, one for every --selfplay file or one per file.
	for _, f := range []struct {
		flag, zero string
		v          []int
	}{{"--selfplay-games", "0 (all)", c.selfplayGames}, {"--selfplay-from", "0", c.selfplayFrom}} {
		if n := len(f.v); n > 1 && n != len(c.selfplay) {
			return fmt.Errorf("train: %s has %d values for %d --selfplay files: give one for all or one per file", f.flag, n, len(c.selfplay))
		}
		for _, n := range f.v {
			if n < 0 || n > 1<<24 {
				return fmt.Errorf("train: %s %d: want %s to %d", f.flag, n, f.zero, 1<<24)
			}
		}
	}
	switch c.selfplayLabel {
	case "outcome", "corrected", "search":
	default:
		return fmt.Errorf("train: --selfplay-label %q: want outcome, corrected or search", c.selfplayLabel)
	}
	if c.selfplayMix != 1 && c.selfplayLabel != "search" {
		return fmt.Errorf("train: --selfplay-search-weight %g needs --selfplay-label search", c.selfplayMix)
	}
	return nil
}

// checkFit checks the fit's settings together.
func (c *Config) checkFit() error {
	f := c.fit
	if f.Optimizer != "adam" && f.Optimizer != "sgd" {
		return fmt.Errorf("train: --optimizer %q: want adam or sgd", f.Optimizer)
	}
	if f.L2 < 0 || f.Smooth < 0 {
		return fmt.Errorf("train: --l2 and --smooth must be >= 0")
	}
	if !eval.ValidStages(f.Stages) {
		return fmt.Errorf("train: --stages %d: want a divisor of 60 (15, 20, 30 or 60)", f.Stages)
	}
	if f.Stages%f.StageTie != 0 {
		return fmt.Errorf("train: --stage-tie %d: want a divisor of the %d stages", f.StageTie, f.Stages)
	}
	if f.Optimizer == "sgd" && (f.Smooth > 0 || f.StageTie > 1 || len(f.Disable) > 0) {
		return fmt.Errorf("train: --smooth, --stage-tie and --disable need --optimizer adam")
	}
	if c.initFile != "" {
		// Read before the data, which takes minutes.
		e, err := eval.Load(c.initFile)
		if err != nil {
			return fmt.Errorf("train: --init: %w", err)
		}
		if e.Stages() != f.Stages {
			return fmt.Errorf("train: --init %s has %d stages, the fit %d (--stages)", c.initFile, e.Stages(), f.Stages)
		}
		c.fit.Init = e
	}
	return nil
}

// checkSearch checks the search labels' settings together and sets the
// shard.
func (c *Config) checkSearch() error {
	r := &c.relabel
	switch r.Selectivity {
	case 73, 87, 95, 98, 99, 100:
	default:
		return fmt.Errorf("train: --search-selectivity %d: want 73, 87, 95, 98, 99 or 100", r.Selectivity)
	}
	if c.searchLimit < 0 || (c.searchLimit > 0 && (c.shard != "" || len(c.searchFiles) > 1)) {
		return fmt.Errorf("train: --search-limit must be >= 0, and does not go with shards")
	}
	c.shardSet = c.shard != ""
	if c.shardSet {
		k, n, err := cli.ParseShard(c.shard)
		if err != nil {
			return fmt.Errorf("train: --shard: %w", err)
		}
		if r.Depth == 0 || len(c.searchFiles) != 1 {
			return fmt.Errorf("train: --shard labels one shard: it needs --search-depth and one --search-labels file")
		}
		r.Shard, r.Of = k, n
	} else if len(c.searchFiles) > 1 {
		r.Of = len(c.searchFiles) // merging shard files
	}
	if c.auditN > 0 && (c.shardSet || r.Depth == 0) {
		return fmt.Errorf("train: --search-audit measures the search labels of a fit: it needs --search-depth and no --shard")
	}
	lo, hi, err := cli.ParseSpan(c.auditEmpties)
	if err != nil || lo < 1 || hi > 60 || lo > hi {
		return fmt.Errorf("train: --search-audit-empties %q: want N or N-M within 1-60", c.auditEmpties)
	}
	c.auditLo, c.auditHi = lo, hi
	if c.searchPartial && (c.shardSet || len(c.searchFiles) < 2) {
		return fmt.Errorf("train: --search-partial fits on the shards' files: it needs two or more --search-labels files and no --shard")
	}
	if len(c.searchFiles) > 0 && r.Depth == 0 {
		return fmt.Errorf("train: --search-labels needs --search-depth")
	}
	if r.MaxEmpties < r.MinEmpties {
		return fmt.Errorf("train: --search-max-empties %d is below --search-min-empties %d", r.MaxEmpties, r.MinEmpties)
	}
	if c.searchSelfPlay {
		if r.Depth == 0 || len(c.selfplay) == 0 {
			return fmt.Errorf("train: --search-selfplay needs --search-depth and --selfplay")
		}
		// The self-play positions' repeats (--selfplay-weight) are ranges
		// of the samples, which leaving positions out would shift.
		if c.dropUnsearched {
			return fmt.Errorf("train: --search-only does not go with --search-selfplay")
		}
		r.MinGame = selfPlayGameBase
	}
	return nil
}

// run labels the games (or reads the cached labels), fits the weights and
// writes them.
func (c *Config) run(e *cli.Env) error {
	bar := cli.NewProgressBar(e.Stderr, c.quiet)
	t0 := time.Now()
	samples, err := c.samples(e, bar)
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	// The self-play positions join after the search labels unless those
	// are theirs (--search-selfplay): they carry their own
	// (--selfplay-label), and a search-labels cache keyed by the WTHOR and
	// GGF positions alone stays valid as the self-play files grow.
	var copies []train.Copies
	if c.searchSelfPlay {
		if samples, copies, err = c.withSelfPlay(e, samples); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	if c.relabel.Depth > 0 {
		blended, err := c.searchLabels(e, bar, samples)
		if err != nil {
			return fmt.Errorf("train: %w", err)
		}
		if blended == nil { // a shard labelled, or the labels audited: nothing to fit
			return nil
		}
		samples = blended
	}
	if !c.searchSelfPlay {
		if samples, copies, err = c.withSelfPlay(e, samples); err != nil {
			return fmt.Errorf("train: %w", err)
		}
	}
	fit := c.fit
	fit.Copies = copies
	fit.Workers = c.labeler.Workers
	fit.Progress = bar.Show
	fit.EpochReport = func(r train.Report) {
		bar.Clear()
		fmt.Fprintf(e.Stdout, "epoch %d: train MAE %.3f, held-out MAE %.3f (%s)\n",
			r.Epoch, r.TrainAll.MAE, r.TestAll.MAE, time.Since(t0).Round(time.Second))
	}
	ev, reports, err := train.Fit(samples, fit)
	bar.Clear()
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if len(reports) > 0 {
		train.WriteReport(e.Stdout, reports[len(reports)-1])
	}
	data := ev.Encode()
	if err := atomicfile.WriteFile(c.out, data); err != nil {
		return fmt.Errorf("train: %w", err)
	}
	if _, err := eval.Parse(data); err != nil {
		return fmt.Errorf("train: the written file does not read back: %w", err)
	}
	fmt.Fprintf(e.Stdout, "wrote %s (%d bytes) in %s\n", c.out, len(data), time.Since(t0).Round(time.Second))
	return nil
}

// samples returns the labelled positions of WTHOR and the --games files
// (the self-play ones join in run, after the search labels): from the
// cache file if it holds labels made from the same data and options, else
// by reading and labelling the games (and then filling the cache).
func (c *Config) samples(e *cli.Env, bar *cli.ProgressBar) ([]train.Sample, error) {
	lb := c.labeler
	// "solver=search": the key of caches made when there were two solvers.
	key := fmt.Sprintf("labels=2 solver=search wthor=%s games=%s max-games=%d solve-empties=%d solve-share=%g seed=%d",
		c.wthorDir, strings.Join(c.ggfFiles, ","), c.maxGames, lb.SolveEmpties, lb.SolveShare, lb.Seed)
	// The cache holds the labels that cost solving (WTHOR's, GGF's); the
	// self-play games carry theirs and are read after it, so that a growing
	// self-play file never stales the cache nor costs a new labelling.
	if c.samplesFile != "" {
		samples, err := train.LoadSamples(c.samplesFile, key)
		if err == nil {
			fmt.Fprintf(e.Stdout, "positions: %d, read from %s\n", len(samples), c.samplesFile)
			return samples, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	nbad := 0
	bad := func(err error) {
		bar.Clear()
		if errors.Is(err, wthor.ErrTruncated) {
			fmt.Fprintln(e.Stderr, "note:", err) // its whole games are used
			return
		}
		nbad++
		fmt.Fprintln(e.Stderr, "skipped:", err)
	}
	var games []train.Game
	if c.wthorDir != "" {
		g, err := train.ReadWTHOR(c.wthorDir, bad)
		if err != nil {
			return nil, err
		}
		games = g
	}
	for _, f := range c.ggfFiles {
		g, err := train.ReadGGF(f, bad)
		if err != nil {
			return nil, fmt.Errorf("--games: %w", err)
		}
		games = append(games, g...)
	}
	if c.maxGames > 0 && c.maxGames < len(games) {
		games = games[:c.maxGames]
	}
	var solved []int8
	var labelsKey string
	labelsDone := func() error { return nil }
	if lb.SolveEmpties > 0 && lb.SolveShare > 0 {
		lb.Solve = train.SolvePool(max(lb.Workers, 1), 16)
		if c.solveLabels != "" {
			labelsKey = fmt.Sprintf("solve-labels=1 %s solve-empties=%d solve-share=%g seed=%d", train.GamesKey(games), lb.SolveEmpties, lb.SolveShare, lb.Seed)
			stored, err := train.LoadSolveLabels(c.solveLabels, labelsKey)
			switch {
			case err == nil:
				// One worker asks in game order; 64 labels spread over
				// the file are solved again, so a damaged or foreign file
				// is an error, not a fit on wrong labels.
				lb.Solve, labelsDone = train.Replayer(stored, lb.Solve, max(len(stored)/64, 1))
				lb.Workers = 1
				fmt.Fprintf(e.Stdout, "solver labels: %d read from %s\n", len(stored), c.solveLabels)
			case errors.Is(err, os.ErrNotExist):
				lb.Solved = &solved
			default:
				return nil, err
			}
		}
	}
	samples, st := lb.Extract(games, bad, func(d, t int) { bar.Show("reading games", d, t) })
	bar.Clear()
	if err := labelsDone(); err != nil {
		return nil, fmt.Errorf("--solve-labels %s: %w", c.solveLabels, err)
	}
	if lb.Solved != nil {
		if err := train.SaveSolveLabels(c.solveLabels, labelsKey, solved); err != nil {
			return nil, err
		}
		fmt.Fprintf(e.Stdout, "solver labels: %d written to %s\n", len(solved), c.solveLabels)
	}
	fmt.Fprintf(e.Stdout, "games: %d used, %d unfinished, %d bad records skipped\n", st.Games, st.Unfinished, nbad)
	fmt.Fprintf(e.Stdout, "positions: %d labelled by the theoretical score %d, the final score of a perfect end %d, the solver %d; %d later positions of imperfect ends left out; %d games end with their theoretical score\n",
		len(samples), st.Theory, st.Final, st.Solved, st.Dropped, st.PerfectEnd)
	if c.samplesFile != "" {
		if err := train.SaveSamples(c.samplesFile, key, samples); err != nil {
			return nil, err
		}
	}
	return samples, nil
}

// selfPlayGameBase is the first game number of self-play positions, far
// above WTHOR's (about 140,000 games).
const selfPlayGameBase = 1 << 28

// withSelfPlay adds the positions of the --selfplay files to samples and
// says which --selfplay-weight trains more than once. Their games are
// numbered apart from the others for the held-out split: file k's game i is selfPlayGameBase + k<<24 + i, so that a game's side
// of the split depends on the job's index of the game, not on how many
// games the file held when it was read.
func (c *Config) withSelfPlay(e *cli.Env, samples []train.Sample) ([]train.Sample, []train.Copies, error) {
	perFile := func(v []int, k int) int {
		switch len(v) {
		case 1:
			return v[0]
		case len(c.selfplay):
			return v[k]
		}
		return 0
	}
	var copies []train.Copies
	for k, f := range c.selfplay {
		sel := spSelect{from: perFile(c.selfplayFrom, k), below: perFile(c.selfplayGames, k), label: c.selfplayLabel, mix: c.selfplayMix}
		got, err := appendSelfPlay(&samples, f, selfPlayGameBase+int32(k)<<24, sel, func(err error) {
			fmt.Fprintln(e.Stderr, "skipped:", err)
		})
		if err != nil {
			return nil, nil, fmt.Errorf("--selfplay: %w", err)
		}
		note := ""
		switch {
		case sel.from > 0 && sel.below > 0:
			note = fmt.Sprintf(" (job indices %d to %d)", sel.from, sel.below-1)
		case sel.from > 0:
			note = fmt.Sprintf(" (job indices from %d)", sel.from)
		case sel.below > 0:
			note = fmt.Sprintf(" (job indices below %d)", sel.below)
		case got.unfinished:
			note = " (a job still running: its whole games so far)"
		}
		n := got.positions
		kind := c.selfplayLabel
		if kind == "search" && c.selfplayMix < 1 {
			kind = fmt.Sprintf("%g search + %g score", c.selfplayMix, 1-c.selfplayMix)
		}
		if c.selfplayLabel != "outcome" {
			// Games written before evaluations were kept have none: say
			// how many positions the label applies to.
			note += fmt.Sprintf(", %d of them labelled %s", got.relabelled, kind)
		}
		if w := c.selfplayWeight; w > 1 {
			// The fit trains them w times, as it would w copies of them
			// (with their game numbers, so the held-out split keeps a
			// game's copies on one side), without making the copies.
			copies = append(copies, train.Copies{From: len(samples) - n, To: len(samples), Times: w})
			note += fmt.Sprintf(", each trained %d times", w)
		}
		fmt.Fprintf(e.Stdout, "self-play %s: %d games, %d positions%s\n", f, got.games, n, note)
	}
	return samples, copies, nil
}

// searchLabels searches the positions c.relabel picks (or reads their
// labels from the cache files) and returns samples with the blended labels;
// nil when this run labels one shard only.
func (c *Config) searchLabels(e *cli.Env, bar *cli.ProgressBar, samples []train.Sample) ([]train.Sample, error) {
	var ev *eval.Pattern
	if c.searchEval == "" {
		ev = eval.Default()
	} else {
		var err error
		if ev, err = eval.Load(c.searchEval); err != nil {
			return nil, fmt.Errorf("--search-eval: %w", err)
		}
	}
	rl := c.relabel
	// The key names everything the labels depend on: the samples (their
	// count and a checksum), the selection and the search, its weights
	// included (by checksum, not file name).
	sum := crc32.NewIEEE()
	for _, s := range samples {
		var b [17]byte
		binary.LittleEndian.PutUint64(b[:], s.Player)
		binary.LittleEndian.PutUint64(b[8:], s.Opponent)
		b[16] = byte(s.Score)
		sum.Write(b[:])
	}
	// The weights by their digest: checksumming the encoded file would
	// compress all of them first, about 12 s a run. search-labels=2 is
	// the pick of train.Relabel.Pick by empties and game (files of the
	// earlier pick, every Every-th position in order, are refused).
	selfPlay := 0
	if c.searchSelfPlay {
		selfPlay = 1
	}
	base := fmt.Sprintf("search-labels=2 samples=%d/%08x depth=%d selectivity=%d min-empties=%d max-empties=%d every=%d seed=%d holdout=%g selfplay=%d eval=%s",
		len(samples), sum.Sum32(), rl.Depth, rl.Selectivity, rl.MinEmpties, rl.MaxEmpties, rl.Every, rl.Seed, rl.HoldOut, selfPlay, ev.Digest())
	var labels []train.SearchLabel
	if len(c.searchFiles) > 1 { // the shards' files, merged
		for k, f := range c.searchFiles {
			r := rl
			r.Shard = k + 1
			idx := r.Pick(samples)
			ls, err := train.LoadSearchLabels(f, base+fmt.Sprintf(" shard=%d/%d", k+1, rl.Of))
			if err != nil && !(c.searchPartial && errors.Is(err, os.ErrNotExist)) {
				return nil, err
			}
			if err := train.CheckPrefix(ls, idx); err != nil {
				return nil, fmt.Errorf("search labels file %s: %w", f, err)
			}
			if len(ls) < len(idx) && !c.searchPartial {
				return nil, fmt.Errorf("search labels file %s: %d of its shard's %d positions searched (finish it with --shard %d/%d, or fit on it as it is with --search-partial)", f, len(ls), len(idx), k+1, rl.Of)
			}
			if c.searchPartial {
				fmt.Fprintf(e.Stdout, "search labels: shard %d/%d, %d of its %d positions searched so far (--search-partial)\n", k+1, rl.Of, len(ls), len(idx))
			}
			labels = append(labels, ls...)
		}
	} else {
		idx := rl.Pick(samples)
		if c.searchLimit > 0 && c.searchLimit < len(idx) {
			idx = idx[:c.searchLimit] // a prefix: the labels file of a longer run holds them
		}
		key := base + fmt.Sprintf(" shard=%d/%d", rl.Shard, rl.Of)
		var save func([]train.SearchLabel) error
		if len(c.searchFiles) == 1 {
			f := c.searchFiles[0]
			ls, err := train.LoadSearchLabels(f, key)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, err
			}
			labels = ls[:min(len(ls), len(idx))]
			if len(ls) < len(idx) { // else nothing to search, and the file may hold more (--search-limit)
				save = func(ls []train.SearchLabel) error { return train.SaveSearchLabels(f, key, ls) }
			}
		}
		fmt.Fprintf(e.Stdout, "search labels: %d positions to search (depth %d, selectivity %d), %d already searched\n", len(idx), rl.Depth, rl.Selectivity, len(labels))
		t0 := time.Now()
		n0 := len(labels)
		var err error
		labels, err = train.NewSearcher(ev, rl).Label(context.Background(), samples, idx, labels, c.checkEvery, save,
			func(d, t int) { bar.Show("searching", d, t) })
		bar.Clear()
		if err != nil {
			return nil, err
		}
		if n := len(labels) - n0; n > 0 {
			el := time.Since(t0)
			fmt.Fprintf(e.Stdout, "searched %d positions in %s (%.2f ms each)\n", n, el.Round(time.Second), float64(el.Microseconds())/1000/float64(n))
		}
		if c.shardSet {
			fmt.Fprintf(e.Stdout, "shard %d/%d: %d search labels in %s\n", rl.Shard, rl.Of, len(labels), c.searchFiles[0])
			return nil, nil
		}
	}
	if c.searchSpread > 0 {
		spread := rl.Spread(samples, labels, c.searchSpread)
		fmt.Fprintf(e.Stdout, "search labels spread: %d unsearched positions within %d plies of a searched one take its label\n", len(spread), c.searchSpread)
		if c.auditN > 0 { // the audit measures what the spread adds
			return nil, c.audit(e, bar, ev, samples, spread, "spread")
		}
		labels = append(labels, spread...)
	}
	if c.auditN > 0 {
		return nil, c.audit(e, bar, ev, samples, labels, "search")
	}
	var diff float64
	for _, l := range labels {
		diff += math.Abs(float64(l.Score) - float64(samples[l.Index].Score))
	}
	if len(labels) > 0 {
		fmt.Fprintf(e.Stdout, "search labels: %d positions, mean |search - game label| %.2f discs, blended with λ = %g\n", len(labels), diff/float64(len(labels)), c.labelMix)
	}
	blended, err := train.Blend(samples, labels, c.labelMix)
	if err != nil || !c.dropUnsearched {
		return blended, err
	}
	blended = rl.DropUnsearched(blended, labels)
	fmt.Fprintf(e.Stdout, "--search-only: %d positions left\n", len(blended))
	return blended, nil
}

// audit solves --search-audit of the searched positions exactly and
// reports how far each label is from the truth.
func (c *Config) audit(e *cli.Env, bar *cli.ProgressBar, ev *eval.Pattern, samples []train.Sample, labels []train.SearchLabel, what string) error {
	pick := train.AuditPick(samples, labels, c.auditN, c.auditLo, c.auditHi, c.relabel.Seed)
	if len(pick) == 0 {
		return fmt.Errorf("--search-audit: no %s label of a position with %s empties", what, c.auditEmpties)
	}
	t0 := time.Now()
	rows, err := train.Audit(context.Background(), ev, samples, labels, pick, c.labelMix, c.labeler.Workers,
		func(d, t int) { bar.Show("solving", d, t) })
	bar.Clear()
	if err != nil {
		return err
	}
	// The positions the audit draws from: all the labels, by empties.
	var by [61]int
	for _, l := range labels {
		by[samples[l.Index].Empties()]++
	}
	fmt.Fprintf(e.Stdout, "%s labels by empties:", what)
	for n, k := range by {
		if k > 0 {
			fmt.Fprintf(e.Stdout, " %d:%d", n, k)
		}
	}
	fmt.Fprintln(e.Stdout)
	fmt.Fprintf(e.Stdout, "%s labels audited: %d positions solved exactly in %s (errors in discs against the exact score)\n",
		what, len(pick), time.Since(t0).Round(time.Second))
	train.WriteAudit(e.Stdout, rows, c.labelMix, what)
	return nil
}

// spSelect picks a self-play file's games and their labels: the games of
// job index in [from, below) (below 0: no end), labelled by spLabel.
type spSelect struct {
	from, below int
	label       string
	mix         float64 // "search": the search value's share of the label
}

// spLabel is a self-play position's label from the side to move's view:
// the game's score ("outcome": exact from the solve point on, the WTHOR
// convention before it), that score corrected for the later searched
// moves' regrets ("corrected"), or the position's own search value
// ("search", bootstrapping; mix < 1 blends it with the score, rounding
// half away from zero). Positions without evaluations (the opening, the
// random moves, the solver's moves, games of files written before
// evaluations were kept) keep the score.
func spLabel(s selfplay.Sample, sel spSelect) int {
	switch {
	case sel.label == "corrected":
		return s.Corrected
	case sel.label == "search" && s.Searched:
		if sel.mix == 1 {
			return s.Search
		}
		return int(math.Round(sel.mix*float64(s.Search) + (1-sel.mix)*float64(s.Score)))
	}
	return s.Score
}

// appendSelfPlay adds the positions of a self-play file's games to samples,
// numbering game i of the job first + i: every position before a move,
// labelled as sel.label says. A damaged file is refused; a file without
// its end record (unfinished: a job still running) gives its whole games;
// a game that does not replay is reported and skipped. sel's index range
// keeps only some of the games, so that a fit names exactly the games it
// learnt from while the job goes on.
func appendSelfPlay(samples *[]train.Sample, path string, first int32, sel spSelect, bad func(error)) (spCount, error) {
	var c spCount
	_, gs, err := selfplay.ReadFile(path)
	switch {
	case errors.Is(err, selfplay.ErrUnfinished):
		// A job still running (or its committed part): every game read is
		// whole and checked.
		c.unfinished = true
	case err != nil:
		return c, err
	}
	for _, g := range gs {
		if (sel.below > 0 && g.Index >= uint64(sel.below)) || g.Index < uint64(sel.from) {
			continue
		}
		c.games++
		k := g.Index % (1 << 24)
		ss, err := g.Samples()
		if err != nil {
			bad(fmt.Errorf("%s: game %d: %w", path, g.Index, err))
			continue
		}
		for _, s := range ss {
			*samples = append(*samples, train.Sample{Player: s.Pos.Player, Opponent: s.Pos.Opponent,
				Score: int8(spLabel(s, sel)), Exact: s.Exact, Game: first + int32(k)})
			c.positions++
			if g.Evals != nil && !s.Exact && (sel.label == "corrected" || (sel.label == "search" && s.Searched)) {
				c.relabelled++
			}
		}
	}
	return c, nil
}

// spCount is what appendSelfPlay added: positions, games, and the
// positions labelled other than by the score (their games carry
// evaluations); unfinished says the file has no end record yet.
type spCount struct {
	positions, games, relabelled int
	unfinished                   bool
}
