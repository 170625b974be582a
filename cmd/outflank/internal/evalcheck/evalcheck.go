// Package evalcheck is the work of "outflank evalcheck": it measures an
// evaluation against another by FFO move choice, games from XOT openings,
// the error against exact scores of WTHOR positions, solver nodes, and the
// error on a test set of labelled positions (which it also builds).
package evalcheck

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/train"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// Flags are evalcheck's flags; Run checks them together.
type Flags struct {
	evA        *string
	evB        *string
	ffo        *[]string
	ffoDepth   *int
	games      *int
	depth      *int
	endgame    *int
	seed       *uint64
	solve      *string
	hash       *int
	exact      *int
	exactRange *string
	wthorDir   *string
	splitSeed  *uint64
	testset    *string
	tsDepth    *int
	testsetOut *string
	tsGames    *int
	tsSolved   *int
	tsExact    *string
}

// Run carries out the measurements the flags ask for.
func Run(e *cli.Env, f *Flags, args []string) error {
	cfg, err := f.config(args)
	if err != nil {
		return err
	}
	return cfg.run(e)
}

// namedEval is an evaluation with the name the report gives it.
type namedEval struct {
	name string
	ev   search.Evaluator
}

// config is a checked evalcheck command line.
type config struct {
	evals        []namedEval // A, then B unless --against none
	nameA, nameB string
	ffo          []bitboard.OBFEntry
	ffoDepth     int
	games        int
	depth        int
	endgame      int
	seed         uint64
	hash         int
	exact        int // positions per empties count for --exact
	exactLo      int
	exactHi      int
	wthorDir     string
	splitSeed    uint64
	solveLo      int // FFO range for --solve; 0 = none
	solveHi      int
	testset      string
	testsetOut   string
	tsDepth      int // > 0: score test positions by a search of this depth
	tsGames      int
	tsSolved     int
	tsExact      [61]bool // empties counts solved exactly in --testset-out
}

// AddFlags declares evalcheck's flags on fs.
func AddFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{
		evA:        fs.String("eval", "default", "evaluation A: \"default\", \"simple\" or a weights file"),
		evB:        fs.String("against", "simple", "evaluation B: \"default\", \"simple\", a weights file, or \"none\" (--ffo, --solve and --testset with A alone)"),
		ffo:        fs.StringSlice("ffo", nil, "OBF files of positions with every move's exact score"),
		ffoDepth:   fs.Int("ffo-depth", 10, "search depth for --ffo"),
		games:      fs.Int("games", 0, "games to play A against B (even)"),
		depth:      fs.Int("depth", 6, "search depth in --games"),
		endgame:    fs.Int("endgame", 14, "empties from which both sides solve exactly in --games"),
		seed:       fs.Uint64("seed", 1, "seed for the choice of openings"),
		solve:      fs.String("solve", "", "FFO numbers to solve with each evaluation, e.g. 40-49"),
		hash:       fs.Int("hash", 64, "hash table size in MiB"),
		exact:      fs.Int("exact", 0, "positions per empties count for the exact-score error"),
		exactRange: fs.String("exact-empties", "20-24", "empties counts for --exact, N or N-M"),
		wthorDir:   fs.String("wthor", "", "WTHOR directory for --exact and --testset-out"),
		splitSeed:  fs.Uint64("split-seed", 1, "the --seed of the training run, for its held-out games"),
		testset:    fs.String("testset", "", "test set file to measure each evaluation's error on"),
		tsDepth:    fs.Int("testset-depth", 0, "with --testset: score each position by a search of this depth (plies, Multi-ProbCut 73%) with each evaluation, not by the evaluation alone"),
		testsetOut: fs.String("testset-out", "", "build the test set into this file (needs --wthor)"),
		tsGames:    fs.Int("testset-games", 1000, "held-out games in --testset-out"),
		tsSolved:   fs.Int("testset-solved", 100, "of those, games whose positions at --testset-exact empties are solved"),
		tsExact:    fs.String("testset-exact", "20-22", "empties counts solved exactly in --testset-out: N or N-M, comma-separated, within 14-23 and 25-30 (above 24 beside the theory label)"),
	}
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(fs, "depth", 1, 60)
	cli.Bound(fs, "ffo-depth", 1, 60)
	cli.Bound(fs, "endgame", 0, 60)
	return f
}

// config checks the flags together and builds the configuration: the
// evaluations loaded, the FFO positions read, the ranges parsed.
func (f *Flags) config(args []string) (*config, error) {
	if len(args) != 0 {
		return nil, fmt.Errorf("evalcheck: unexpected argument %q", args[0])
	}
	cfg := &config{ffoDepth: *f.ffoDepth, games: *f.games, depth: *f.depth, endgame: *f.endgame, seed: *f.seed, hash: *f.hash,
		exact: *f.exact, wthorDir: *f.wthorDir, splitSeed: *f.splitSeed, testset: *f.testset, testsetOut: *f.testsetOut, tsDepth: *f.tsDepth,
		tsGames: *f.tsGames, tsSolved: *f.tsSolved}
	a, nameA, err := engine.LoadEvaluator(*f.evA)
	if err != nil {
		return nil, fmt.Errorf("evalcheck: %w", err)
	}
	cfg.evals, cfg.nameA, cfg.nameB = []namedEval{{"A", a}}, nameA, "none"
	if *f.evB != "none" {
		b, nameB, err := engine.LoadEvaluator(*f.evB)
		if err != nil {
			return nil, fmt.Errorf("evalcheck: %w", err)
		}
		cfg.evals, cfg.nameB = append(cfg.evals, namedEval{"B", b}), nameB
	} else if *f.games > 0 || *f.exact > 0 {
		return nil, fmt.Errorf("evalcheck: --games and --exact need an evaluation B (--against)")
	}
	if len(*f.ffo) == 0 && *f.games == 0 && *f.exact == 0 && *f.solve == "" && *f.testset == "" && *f.testsetOut == "" {
		return nil, fmt.Errorf("evalcheck: nothing to measure: give --ffo FILE, --games N, --exact N --wthor DIR, --solve N-M, --testset FILE or --testset-out FILE (see outflank help evalcheck)")
	}
	for _, name := range *f.ffo {
		x, err := cli.ReadFile(name, bitboard.ReadOBF)
		if err != nil {
			return nil, fmt.Errorf("evalcheck: %w", err)
		}
		cfg.ffo = append(cfg.ffo, x...)
	}
	if *f.exact > 0 {
		if *f.wthorDir == "" {
			return nil, fmt.Errorf("evalcheck: --exact needs --wthor DIR")
		}
		lo, hi, err := cli.ParseSpan(*f.exactRange)
		if err != nil || lo < 1 || hi > 40 || lo > hi {
			return nil, fmt.Errorf("evalcheck: --exact-empties %q: want N or N-M within 1-40", *f.exactRange)
		}
		cfg.exactLo, cfg.exactHi = lo, hi
	}
	if *f.solve != "" {
		lo, hi, err := cli.ParseFFORange(*f.solve)
		if err != nil || lo < 40 || hi > 59 {
			return nil, fmt.Errorf("evalcheck: --solve %q: want N-M within 40-59", *f.solve)
		}
		cfg.solveLo, cfg.solveHi = lo, hi
	}
	if *f.testsetOut != "" {
		for _, span := range strings.Split(*f.tsExact, ",") {
			lo, hi, err := cli.ParseSpan(span)
			if err != nil || lo < 14 || hi > 30 || lo > hi || (lo <= 24 && hi >= 24) {
				return nil, fmt.Errorf("evalcheck: --testset-exact %q: want N or N-M, comma-separated, within 14-23 and 25-30 (24's label is exact already)", *f.tsExact)
			}
			for n := lo; n <= hi; n++ {
				cfg.tsExact[n] = true
			}
		}
		if *f.wthorDir == "" || *f.tsGames < 1 || *f.tsSolved < 0 || *f.tsSolved > *f.tsGames {
			return nil, fmt.Errorf("evalcheck: --testset-out needs --wthor DIR, --testset-games >= 1 and 0 <= --testset-solved <= --testset-games")
		}
	}
	return cfg, nil
}

// run carries out every measurement the command line asked for.
func (c *config) run(e *cli.Env) error {
	fmt.Fprintln(e.Stdout, bench.CPULine())
	fmt.Fprintf(e.Stdout, "A = %s, B = %s\n", c.nameA, c.nameB)
	if len(c.ffo) > 0 {
		for _, ev := range c.evals {
			ok, loss, unknown, t := ffoChoices(c.ffo, ev.ev, c.ffoDepth, c.hash)
			fmt.Fprintf(e.Stdout, "FFO depth %d, %s: optimal move in %d/%d (%.1f%%), average loss %.2f discs, %d choices unscored, %s\n",
				c.ffoDepth, ev.name, ok, len(c.ffo), 100*float64(ok)/float64(len(c.ffo)), loss, unknown, t.Round(time.Millisecond))
		}
	}
	if c.games > 0 {
		w, d, l, margin := playGames(c.evals[0].ev, c.evals[1].ev, c.games, c.depth, c.endgame, c.seed, c.hash, func(s string) { fmt.Fprintln(e.Stderr, s) })
		n := w + d + l
		fmt.Fprintf(e.Stdout, "games depth %d, exact from %d empties: A wins %d, draws %d, losses %d of %d: score %.1f%%, average margin %+.1f discs\n",
			c.depth, c.endgame, w, d, l, n, 100*(float64(w)+0.5*float64(d))/float64(n), margin)
	}
	if c.exact > 0 {
		if err := exactErrors(e, c.wthorDir, c.splitSeed, c.exact, c.exactLo, c.exactHi, c.evals[0].ev, c.evals[1].ev, c.hash); err != nil {
			return fmt.Errorf("evalcheck: %w", err)
		}
	}
	if c.solveLo > 0 {
		if err := c.solveFFO(e); err != nil {
			return err
		}
	}
	if c.testsetOut != "" {
		if err := c.buildTestSet(e); err != nil {
			return fmt.Errorf("evalcheck: %w", err)
		}
	}
	if c.testset != "" {
		if err := c.testSetErrors(e); err != nil {
			return fmt.Errorf("evalcheck: %w", err)
		}
	}
	return nil
}

// solveFFO solves FFO #solveLo-#solveHi with each evaluation ordering the
// moves and prints the nodes.
func (c *config) solveFFO(e *cli.Env) error {
	all := bench.FFO40to59()
	for _, ev := range c.evals {
		eng := search.New(search.Options{HashMB: c.hash, Eval: ev.ev})
		var nodes uint64
		var total time.Duration
		for n := c.solveLo; n <= c.solveHi; n++ {
			ent := all[n-40]
			eng.Clear()
			info := eng.Search(context.Background(), ent.Position, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
			if len(ent.Scores) > 0 && info.Score != ent.Scores[0].Score {
				return fmt.Errorf("evalcheck: FFO #%d: solved %d, known %d", n, info.Score, ent.Scores[0].Score)
			}
			nodes += info.Nodes
			total += info.Time
			fmt.Fprintf(e.Stdout, "  %s FFO #%d: %+d, %d nodes, %s\n", ev.name, n, info.Score, info.Nodes, info.Time.Round(time.Millisecond))
		}
		fmt.Fprintf(e.Stdout, "FFO #%d-#%d, %s: %d nodes, %s\n", c.solveLo, c.solveHi, ev.name, nodes, total.Round(time.Millisecond))
	}
	return nil
}

// TestSetKey names the test set format in its file (train's samples file).
const TestSetKey = "outflank eval test set 1"

// buildTestSet writes the test set: see the command's help and
// eval/README.md.
func (c *config) buildTestSet(e *cli.Env) error {
	games, err := train.ReadWTHOR(c.wthorDir, func(error) {})
	if err != nil {
		return err
	}
	eng := search.New(search.Options{HashMB: c.hash, Eval: eval.Default()})
	var set []train.Sample
	used, solved := 0, 0
	t0 := time.Now()
	for gi := 0; gi < len(games) && used < c.tsGames; gi++ {
		g := games[gi]
		if !train.Split(c.splitSeed, int32(gi), 0.1) || g.TheoryEmpties != 24 {
			continue
		}
		_, pos, err := bitboard.Replay(bitboard.Start(), g.Moves)
		if err != nil || !pos[len(pos)-1].GameOver() {
			continue
		}
		used++
		for _, p := range pos {
			n := p.Empties()
			if p.MustPass() || p.GameOver() || n > 40 {
				continue
			}
			s := train.Sample{Player: p.Player, Opponent: p.Opponent, Game: int32(gi)}
			if n >= 24 {
				black := 2*g.TheoryScore - 64
				if p.ToMove == bitboard.White {
					black = -black
				}
				s.Score, s.Exact = int8(black), n == 24
				set = append(set, s)
			}
			// Above 24 empties a solved position is a second sample beside
			// its theory-labelled one, so that the theory rows stay the same
			// positions whatever is solved.
			if c.tsExact[n] && used <= c.tsSolved {
				eng.Clear()
				info := eng.Search(context.Background(), p, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
				s.Score, s.Exact = int8(info.Score), true
				set = append(set, s)
				solved++
			}
		}
	}
	if err := train.SaveSamples(c.testsetOut, TestSetKey, set); err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "test set %s: %d positions from %d held-out games (split seed %d), %d solved exactly, in %s\n",
		c.testsetOut, len(set), used, c.splitSeed, solved, time.Since(t0).Round(time.Second))
	return nil
}

// testSetErrors prints each evaluation's mean absolute error on the test
// set, by empties.
func (c *config) testSetErrors(e *cli.Env) error {
	set, err := train.LoadSamples(c.testset, TestSetKey)
	if err != nil {
		return err
	}
	type acc struct {
		n   int
		sum [2]float64
	}
	if c.tsDepth < 0 || c.tsDepth > 20 {
		return fmt.Errorf("evalcheck: --testset-depth %d: want 0..20", c.tsDepth)
	}
	score := make([]func(p, o uint64) int, len(c.evals))
	for k, ev := range c.evals {
		score[k] = ev.ev.Evaluate
		if c.tsDepth > 0 {
			sr := train.NewSearcher(ev.ev, train.Relabel{Depth: c.tsDepth, Selectivity: 73})
			score[k] = func(p, o uint64) int { return int(sr.Score(p, o)) }
		}
	}
	// A row per count of empties and kind of label: from 25 empties on a
	// position may be in the set twice, by its game's theory score and
	// solved.
	type row struct {
		empties int
		exact   bool
	}
	by := map[row]*acc{}
	for _, s := range set {
		n := s.Empties()
		a := by[row{n, s.Exact}]
		if a == nil {
			a = &acc{}
			by[row{n, s.Exact}] = a
		}
		a.n++
		for k := range c.evals {
			a.sum[k] += math.Abs(float64(score[k](s.Player, s.Opponent) - int(s.Score)))
		}
	}
	how := "the evaluation"
	if c.tsDepth > 0 {
		how = fmt.Sprintf("a depth-%d search", c.tsDepth)
	}
	fmt.Fprintf(e.Stdout, "test set %s: %d positions; mean absolute error in discs by empties, scores of %s\n", c.testset, len(set), how)
	fmt.Fprintf(e.Stdout, "%7s %6s %-7s %7s", "empties", "n", "labels", "A")
	if len(c.evals) > 1 {
		fmt.Fprintf(e.Stdout, " %7s %7s", "B", "A/B")
	}
	fmt.Fprintln(e.Stdout)
	for n := 60; n >= 0; n-- {
		for _, exact := range []bool{false, true} {
			a := by[row{n, exact}]
			if a == nil {
				continue
			}
			lab := "theory"
			if exact {
				lab = "exact"
			}
			ma := a.sum[0] / float64(a.n)
			fmt.Fprintf(e.Stdout, "%7d %6d %-7s %7.2f", n, a.n, lab, ma)
			if len(c.evals) > 1 {
				mb := a.sum[1] / float64(a.n)
				fmt.Fprintf(e.Stdout, " %7.2f %7.3f", mb, ma/mb)
			}
			fmt.Fprintln(e.Stdout)
		}
	}
	return nil
}

// exactErrors solves n held-out positions at each of 20-24 empties and
// prints the mean absolute error of both evaluations against the exact
// scores.
func exactErrors(e *cli.Env, dir string, seed uint64, n, lo, hi int, a, b search.Evaluator, hash int) error {
	games, err := train.ReadWTHOR(dir, func(error) {})
	if err != nil {
		return err
	}
	eng := search.New(search.Options{HashMB: hash, Eval: a})
	for empties := lo; empties <= hi; empties++ {
		var errA, errB float64
		k := 0
		var t time.Duration
		for gi := 0; gi < len(games) && k < n; gi++ {
			if !train.Split(seed, int32(gi), 0.1) {
				continue
			}
			_, pos, err := bitboard.Replay(bitboard.Start(), games[gi].Moves)
			if err != nil {
				continue
			}
			for _, p := range pos {
				if p.Empties() != empties || p.MustPass() || p.GameOver() {
					continue
				}
				eng.Clear()
				info := eng.Search(context.Background(), p, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
				t += info.Time
				errA += math.Abs(float64(a.Evaluate(p.Player, p.Opponent) - info.Score))
				errB += math.Abs(float64(b.Evaluate(p.Player, p.Opponent) - info.Score))
				k++
				break
			}
		}
		fmt.Fprintf(e.Stdout, "exact scores at %d empties, %d held-out positions: MAE A %.2f, B %.2f discs (solved in %s)\n",
			empties, k, errA/float64(max(k, 1)), errB/float64(max(k, 1)), t.Round(time.Millisecond))
	}
	return nil
}

// ffoChoices searches each position to depth without an exact solve and
// scores the chosen move with the file's exact scores.
func ffoChoices(es []bitboard.OBFEntry, ev search.Evaluator, depth, hash int) (ok int, avgLoss float64, unknown int, t time.Duration) {
	eng := search.New(search.Options{HashMB: hash, Eval: ev})
	scored := 0
	for _, ent := range es {
		eng.Clear()
		info := eng.Search(context.Background(), ent.Position, search.Limits{Depth: depth, EndgameEmpties: 1}, nil)
		t += info.Time
		best, found, v := ent.Scores[0].Score, false, 0
		for _, ms := range ent.Scores {
			if ms.Move == info.Best {
				found, v = true, ms.Score
			}
		}
		if !found {
			unknown++
			continue
		}
		scored++
		if v == best {
			ok++
		}
		avgLoss += float64(best - v)
	}
	if scored > 0 {
		avgLoss /= float64(scored)
	}
	return ok, avgLoss, unknown, t
}

// playGames plays A against B from XOT openings, each opening twice with
// colours swapped, and returns A's wins, draws, losses and average margin.
func playGames(a, b search.Evaluator, games, depth, endgame int, seed uint64, hash int, progress func(string)) (w, d, l int, margin float64) {
	ops := match.XOT()
	rng := rand.New(rand.NewPCG(seed, 0))
	rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	// Both sides choose their moves as every front end does (the play
	// layer's Go: forced moves and passes, the search, always legal), at
	// the same depth and without a book.
	set := play.Settings{Depth: depth, Endgame: endgame, NoBook: true}
	pa := &play.Player{Engine: search.New(search.Options{HashMB: hash, Eval: a}), Settings: set}
	pb := &play.Player{Engine: search.New(search.Options{HashMB: hash, Eval: b}), Settings: set}
	for g := 0; g < games; g++ {
		pos := ops[g/2].Position()
		aColor := bitboard.Color(g % 2) // A plays black in even games
		pa.NewGame()
		pb.NewGame()
		for !pos.GameOver() {
			p := pb
			if pos.ToMove == aColor {
				p = pa
			}
			m, _ := p.Go(context.Background(), pos, nil, nil)
			if m.Square == bitboard.PassMove {
				pos = pos.Pass()
				continue
			}
			pos = pos.Play(m.Square)
		}
		s := pos.BlackScoreEmptiesToWinner()*2 - 64
		if aColor == bitboard.White {
			s = -s
		}
		margin += float64(s)
		switch {
		case s > 0:
			w++
		case s == 0:
			d++
		default:
			l++
		}
		if progress != nil && (g+1)%20 == 0 {
			progress(fmt.Sprintf("evalcheck: %d games: A %d-%d-%d", g+1, w, d, l))
		}
	}
	return w, d, l, margin / float64(games)
}
