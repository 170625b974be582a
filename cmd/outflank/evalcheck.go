package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/eval"
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
  --solve N-M    solves FFO #N-#M (40-59) with each evaluation ordering the
                 moves; prints nodes and time`,
		run: runEvalCheck,
	})
}

func loadEval(spec string) (search.Evaluator, string, error) {
	switch spec {
	case "", "default":
		return eval.Default(), "pattern (embedded)", nil
	case "simple":
		return eval.Simple{}, "simple (placeholder)", nil
	}
	ev, err := eval.Load(spec)
	return ev, spec, err
}

func runEvalCheck(e *env, args []string) error {
	c := findCommand("evalcheck")
	fs := c.flags(e)
	evA := fs.String("eval", "default", "evaluation A: \"default\", \"simple\" or a weights file")
	evB := fs.String("against", "simple", "evaluation B: \"default\", \"simple\" or a weights file")
	ffo := fs.StringSlice("ffo", nil, "OBF files of positions with every move's exact score")
	ffoDepth := fs.Int("ffo-depth", 10, "search depth for --ffo")
	games := fs.Int("games", 0, "games to play A against B (even)")
	depth := fs.Int("depth", 6, "search depth in --games")
	endgame := fs.Int("endgame", 14, "empties from which both sides solve exactly in --games")
	seed := fs.Uint64("seed", 1, "seed for the choice of openings")
	solve := fs.String("solve", "", "FFO numbers to solve with each evaluation, e.g. 40-49")
	hash := fs.Int("hash", 64, "hash table size in MiB")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("evalcheck: unexpected argument %q", fs.Arg(0))
	}
	a, nameA, err := loadEval(*evA)
	if err != nil {
		return fmt.Errorf("evalcheck: %w", err)
	}
	b, nameB, err := loadEval(*evB)
	if err != nil {
		return fmt.Errorf("evalcheck: %w", err)
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
		for _, ev := range []struct {
			name string
			ev   search.Evaluator
		}{{"A", a}, {"B", b}} {
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
	if *solve != "" {
		lo, hi, err := parseRange(*solve)
		if err != nil || lo < 40 || hi > 59 {
			return fmt.Errorf("evalcheck: --solve %q: want N-M within 40-59", *solve)
		}
		all := bench.FFO40to59()
		for _, ev := range []struct {
			name string
			ev   search.Evaluator
		}{{"A", a}, {"B", b}} {
			eng := search.New(search.Options{HashMB: *hash, Eval: ev.ev})
			var nodes uint64
			var total time.Duration
			for n := lo; n <= hi; n++ {
				ent := all[n-40]
				eng.Clear()
				info := eng.Search(context.Background(), ent.Position, search.Limits{EndgameEmpties: 60}, nil)
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
