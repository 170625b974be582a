package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/eval/train"
	"github.com/outflank-othello/outflank/search"
)

func init() {
	register(&command{
		name:    "evalcheck",
		args:    "[flags]",
		summary: "Measure an evaluation against another: FFO move choice, games, solver nodes.",
		details: `Compares evaluation A (--eval, default the embedded pattern weights) with
B (--against: "simple" for the placeholder, or a weights file), one thread:

  --ffo FILE...  for each OBF position (every move's exact score known), a
                 search to --ffo-depth with no exact solve; prints the share of
                 positions where the chosen move has the optimal score and the
                 average disc loss of the choice
  --games N      N games A against B from XOT openings (each opening twice,
                 colours swapped), both at --depth plies, both solving exactly
                 from --endgame empties; prints A's score
  --exact N      with --wthor DIR: N held-out WTHOR positions (games not used
                 in training with --split-seed, 10% held out) at each of
                 --exact-empties empties, solved exactly; prints each
                 evaluation's mean absolute error in discs
  --solve N-M    solves FFO #N-#M (40-59) with each evaluation ordering the
                 moves; prints nodes and time`,
		run: runEvalCheck,
	})
}

func runEvalCheck(e *env, args []string) error {
	c := findCommand("evalcheck")
	fs := c.flags(e)
	evA := fs.String("eval", "default", "evaluation A: \"default\", \"simple\" or a weights file")
	evB := fs.String("against", "simple", "evaluation B: \"default\", \"simple\", a weights file, or \"none\" (--ffo and --solve with A alone)")
	ffo := fs.StringSlice("ffo", nil, "OBF files of positions with every move's exact score")
	ffoDepth := fs.Int("ffo-depth", 10, "search depth for --ffo")
	games := fs.Int("games", 0, "games to play A against B (even)")
	depth := fs.Int("depth", 6, "search depth in --games")
	endgame := fs.Int("endgame", 14, "empties from which both sides solve exactly in --games")
	seed := fs.Uint64("seed", 1, "seed for the choice of openings")
	solve := fs.String("solve", "", "FFO numbers to solve with each evaluation, e.g. 40-49")
	hash := fs.Int("hash", 64, "hash table size in MiB")
	exact := fs.Int("exact", 0, "positions per empties count for the exact-score error")
	exactRange := fs.String("exact-empties", "20-24", "empties counts for --exact, N or N-M")
	wthorDir := fs.String("wthor", "", "WTHOR directory for --exact")
	splitSeed := fs.Uint64("split-seed", 1, "the --seed of the training run, for its held-out games")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("evalcheck: unexpected argument %q", fs.Arg(0))
	}
	a, nameA, err := loadEvaluator(*evA)
	if err != nil {
		return fmt.Errorf("evalcheck: %w", err)
	}
	var b search.Evaluator
	nameB := "none"
	if *evB != "none" {
		if b, nameB, err = loadEvaluator(*evB); err != nil {
			return fmt.Errorf("evalcheck: %w", err)
		}
	} else if *games > 0 || *exact > 0 {
		return fmt.Errorf("evalcheck: --games and --exact need an evaluation B (--against)")
	}
	if len(*ffo) == 0 && *games == 0 && *exact == 0 && *solve == "" {
		return fmt.Errorf("evalcheck: nothing to measure: give --ffo FILE, --games N, --exact N --wthor DIR or --solve N-M (see outflank help evalcheck)")
	}
	// evals lists A and, unless --against none, B.
	type namedEval struct {
		name string
		ev   search.Evaluator
	}
	evals := []namedEval{{"A", a}}
	if b != nil {
		evals = append(evals, namedEval{"B", b})
	}
	fmt.Fprintln(e.stdout, bench.CPULine())
	fmt.Fprintf(e.stdout, "A = %s, B = %s\n", nameA, nameB)
	if len(*ffo) > 0 {
		var es []bitboard.OBFEntry
		for _, f := range *ffo {
			r, err := os.Open(f)
			if err != nil {
				return fmt.Errorf("evalcheck: %w", err)
			}
			x, err := bitboard.ReadOBF(r)
			r.Close()
			if err != nil {
				return fmt.Errorf("evalcheck: %s: %w", f, err)
			}
			es = append(es, x...)
		}
		for _, ev := range evals {
			ok, loss, unknown, t := ffoChoices(es, ev.ev, *ffoDepth, *hash)
			fmt.Fprintf(e.stdout, "FFO depth %d, %s: optimal move in %d/%d (%.1f%%), average loss %.2f discs, %d choices unscored, %s\n",
				*ffoDepth, ev.name, ok, len(es), 100*float64(ok)/float64(len(es)), loss, unknown, t.Round(time.Millisecond))
		}
	}
	if *games > 0 {
		w, d, l, margin := playGames(a, b, *games, *depth, *endgame, *seed, *hash, func(s string) { fmt.Fprintln(e.stderr, s) })
		n := w + d + l
		fmt.Fprintf(e.stdout, "games depth %d, exact from %d empties: A wins %d, draws %d, losses %d of %d: score %.1f%%, average margin %+.1f discs\n",
			*depth, *endgame, w, d, l, n, 100*(float64(w)+0.5*float64(d))/float64(n), margin)
	}
	if *exact > 0 {
		if *wthorDir == "" {
			return fmt.Errorf("evalcheck: --exact needs --wthor DIR")
		}
		lo, hi, err := parseSpan(*exactRange)
		if err != nil || lo < 1 || hi > 40 || lo > hi {
			return fmt.Errorf("evalcheck: --exact-empties %q: want N or N-M within 1-40", *exactRange)
		}
		if err := exactErrors(e, *wthorDir, *splitSeed, *exact, lo, hi, a, b, *hash); err != nil {
			return fmt.Errorf("evalcheck: %w", err)
		}
	}
	if *solve != "" {
		lo, hi, err := parseRange(*solve)
		if err != nil || lo < 40 || hi > 59 {
			return fmt.Errorf("evalcheck: --solve %q: want N-M within 40-59", *solve)
		}
		all := bench.FFO40to59()
		for _, ev := range evals {
			eng := search.New(search.Options{HashMB: *hash, Eval: ev.ev})
			var nodes uint64
			var total time.Duration
			for n := lo; n <= hi; n++ {
				ent := all[n-40]
				eng.Clear()
				info := eng.Search(context.Background(), ent.Position, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
				if len(ent.Scores) > 0 && info.Score != ent.Scores[0].Score {
					return fmt.Errorf("evalcheck: FFO #%d: solved %d, known %d", n, info.Score, ent.Scores[0].Score)
				}
				nodes += info.Nodes
				total += info.Time
				fmt.Fprintf(e.stdout, "  %s FFO #%d: %+d, %d nodes, %s\n", ev.name, n, info.Score, info.Nodes, info.Time.Round(time.Millisecond))
			}
			fmt.Fprintf(e.stdout, "FFO #%d-#%d, %s: %d nodes, %s\n", lo, hi, ev.name, nodes, total.Round(time.Millisecond))
		}
	}
	return nil
}

// exactErrors solves n held-out positions at each of 20-24 empties and
// prints the mean absolute error of both evaluations against the exact
// scores.
func exactErrors(e *env, dir string, seed uint64, n, lo, hi int, a, b search.Evaluator, hash int) error {
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
		fmt.Fprintf(e.stdout, "exact scores at %d empties, %d held-out positions: MAE A %.2f, B %.2f discs (solved in %s)\n",
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
	ea := search.New(search.Options{HashMB: hash, Eval: a})
	eb := search.New(search.Options{HashMB: hash, Eval: b})
	lim := search.Limits{Depth: depth, EndgameEmpties: endgame}
	for g := 0; g < games; g++ {
		pos := ops[g/2].Position()
		aColor := bitboard.Color(g % 2) // A plays black in even games
		ea.Clear()
		eb.Clear()
		for !pos.GameOver() {
			if pos.MustPass() {
				pos = pos.Pass()
				continue
			}
			eng := eb
			if pos.ToMove == aColor {
				eng = ea
			}
			info := eng.Search(context.Background(), pos, lim, nil)
			pos = pos.Play(info.Best)
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

// parseSpan reads "N" or "N-M".
func parseSpan(s string) (lo, hi int, err error) {
	a, b, found := strings.Cut(s, "-")
	if lo, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	hi = lo
	if found {
		hi, err = strconv.Atoi(b)
	}
	return lo, hi, err
}
