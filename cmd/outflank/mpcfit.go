package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/mpcfit"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

func init() {
	register(&command{
		name:    "mpcfit",
		args:    "collect|fit [flags]",
		summary: "Fit the Multi-ProbCut model of the selective search.",
		details: `"mpcfit collect --wthor DIR --out FILE" samples positions from WTHOR games
(or, with --selfplay FILE instead, from self-play games: "outflank selfplay")
(a random game, a random number of empties in --min-empties..--max-empties,
from a fixed seed), searches each without selectivity to every depth up to
--depth and, at --exact-max-empties or fewer empties, solves it, appending
one line per position to FILE. It resumes: positions already in FILE are not
measured again.

"mpcfit fit FILE" regresses deep on shallow scores per stage and depth pair,
prints the cells (a, b, sigma, count), fits the smooth error model the search
uses and, with --table, writes it as Go source (search/mpc_table.go).`,
		run: runMPCFit,
	})
}

func runMPCFit(e *env, args []string) error {
	if len(args) == 0 || (args[0] != "collect" && args[0] != "fit") {
		if ok, err := parse(findCommand("mpcfit").flags(e), args); !ok {
			return err // --help, or a bad flag
		}
		return fmt.Errorf("mpcfit: want \"collect\" or \"fit\" (see outflank help mpcfit)")
	}
	if args[0] == "collect" {
		return mpcCollect(e, args[1:])
	}
	return mpcFit(e, args[1:])
}

func mpcCollect(e *env, args []string) error {
	fs := findCommand("mpcfit").flags(e)
	dir := fs.String("wthor", "", "folder of WTHOR .wtb files to sample from")
	spFile := fs.String("selfplay", "", "self-play games file (outflank selfplay) to sample from, instead of --wthor")
	out := fs.String("out", "", "samples file (appended to; resumed)")
	n := fs.Int("positions", 100, "number of positions wanted in the file")
	depth := fs.Int("depth", 10, "deepest search")
	lo := fs.Int("min-empties", 14, "fewest empties of a sampled position")
	hi := fs.Int("max-empties", 58, "most empties of a sampled position")
	exactMax := fs.Int("exact-max-empties", 22, "solve positions with this many empties or fewer")
	seed := fs.Uint64("seed", 1, "sampling seed")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	switch {
	case (*dir == "") == (*spFile == "") || *out == "":
		return fmt.Errorf("mpcfit collect: want --out and one of --wthor, --selfplay")
	case *depth < 1 || *depth > 20:
		return fmt.Errorf("mpcfit collect: --depth %d: want 1 to 20", *depth)
	case *lo < 2 || *hi > 59 || *lo > *hi:
		return fmt.Errorf("mpcfit collect: empties %d..%d: want 2 <= min <= max <= 59", *lo, *hi)
	case *exactMax > 30:
		return fmt.Errorf("mpcfit collect: --exact-max-empties %d: at most 30", *exactMax)
	}
	src, err := gameSource(*dir, *spFile)
	if err != nil {
		return fmt.Errorf("mpcfit collect: %w", err)
	}
	have := 0
	if data, err := os.ReadFile(*out); err == nil {
		ss, err := mpcfit.Read(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("mpcfit collect: %w", bitboard.InFile(*out, err))
		}
		have = len(ss)
	}
	// Appended, not written whole: the run resumes from what it holds, and
	// each sample is one write of a whole line, so a kill loses at most the
	// sample being measured.
	f, err := os.OpenFile(*out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("mpcfit collect: %w", err)
	}
	defer f.Close()
	ev := eval.Default()
	eng := search.New(search.Options{HashMB: 16, Eval: ev})
	r := rand.New(rand.NewPCG(*seed, 0x6d7063))
	start := time.Now()
	for k := 0; k < *n; k++ {
		pos := samplePosition(r, src, *lo, *hi)
		if k < have {
			continue // measured by an earlier run; the draw above keeps the sequence
		}
		s := mpcfit.Measure(eng, ev, pos, *depth, pos.Empties() <= *exactMax)
		if err := s.Write(f); err != nil {
			return fmt.Errorf("mpcfit collect: %w", err)
		}
		if (k+1)%50 == 0 {
			fmt.Fprintf(e.stderr, "%d positions, %v\n", k+1, time.Since(start).Round(time.Second))
		}
	}
	return nil
}

// games is a source of game records for sampling: n games, the positions
// of game i.
type games struct {
	n         int
	positions func(i int) ([]bitboard.Position, error)
}

// gameSource reads the games of a WTHOR folder or of a self-play file.
func gameSource(dir, spFile string) (games, error) {
	if spFile != "" {
		_, gs, err := selfplay.ReadFile(spFile)
		if err != nil && !errors.Is(err, selfplay.ErrUnfinished) {
			return games{}, err
		}
		if len(gs) == 0 {
			return games{}, fmt.Errorf("%s: no games", spFile)
		}
		return games{len(gs), func(i int) ([]bitboard.Position, error) { return gs[i].Positions() }}, nil
	}
	files, err := wthor.Files(dir)
	if err != nil {
		return games{}, err
	}
	var gs []wthor.Game
	for _, f := range files {
		_, g, _, err := wthor.ReadFile(f)
		if err != nil {
			return games{}, err
		}
		gs = append(gs, g...)
	}
	if len(gs) == 0 {
		return games{}, fmt.Errorf("no games in %s", dir)
	}
	return games{len(gs), func(i int) ([]bitboard.Position, error) {
		_, ps, err := gs[i].Replay()
		return ps, err
	}}, nil
}

// samplePosition draws a game and a number of empties until the game has a
// position with that many empties where the side to move can play.
func samplePosition(r *rand.Rand, src games, lo, hi int) bitboard.Position {
	for {
		i := r.IntN(src.n)
		want := lo + r.IntN(hi-lo+1)
		ps, err := src.positions(i)
		if err != nil {
			continue
		}
		for _, p := range ps {
			if p.Empties() == want && p.Moves() != 0 {
				return p
			}
		}
	}
}

func mpcFit(e *env, args []string) error {
	fs := findCommand("mpcfit").flags(e)
	table := fs.String("table", "", "write the fitted model as Go source to this file (search/mpc_table.go)")
	minN := fs.Int("min-count", mpcfit.DefaultMinCount, "fewest samples of a cell used in the fit")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("mpcfit fit: want one or more samples files")
	}
	samples, err := mpcfit.ReadFiles(fs.Args()...)
	if err != nil {
		return fmt.Errorf("mpcfit fit: %w", err)
	}
	cells := mpcfit.Cells(samples, *minN)
	m, err := mpcfit.Fit(cells)
	if err != nil {
		return fmt.Errorf("mpcfit fit: %w", err)
	}
	fmt.Fprintf(e.stdout, "%d samples, %d cells\n", len(samples), len(cells))
	fmt.Fprintln(e.stdout, "| empties | shallow | deep | n | a | b | sigma | sigma (a=1,b=0) | model |")
	fmt.Fprintln(e.stdout, "|---|---|---|---|---|---|---|---|---|")
	for _, c := range cells {
		deep := fmt.Sprint(c.Deep)
		model := m.EndSigma((c.Lo+c.Hi)/2, c.Shallow)
		if c.Deep == 0 {
			deep = "exact"
		} else if c.Shallow == search.ProbCutDepth(c.Deep) {
			model = m.MidSigma((c.Lo+c.Hi)/2, c.Shallow, c.Deep)
		} else {
			continue // a pair the search does not use
		}
		fmt.Fprintf(e.stdout, "| %d-%d | %d | %s | %d | %.3f | %+.2f | %.2f | %.2f | %.2f |\n",
			c.Lo, c.Hi, c.Shallow, deep, c.N, c.A, c.B, c.Sigma, c.Sigma1, model)
	}
	fmt.Fprintf(e.stdout, "midgame: deep = shallow, sigma = %.4f %+.4f·empties %+.4f·shallow %+.4f·depth\n", m.Mid[0], m.Mid[1], m.Mid[2], m.Mid[3])
	fmt.Fprintf(e.stdout, "endgame: exact = %.4f·shallow %+.4f, sigma = %.4f %+.4f·e %+.4f·shallow (e: empties clamped to %d..%d)\n",
		m.EndA, m.EndB, m.End[0], m.End[1], m.End[2], m.EndLo, m.EndHi)
	if *table != "" {
		cmd := "outflank mpcfit fit"
		for _, a := range args {
			cmd += " " + a
		}
		if err := atomicfile.WriteFile(*table, m.Source(cmd)); err != nil {
			return fmt.Errorf("mpcfit fit: %w", err)
		}
	}
	return nil
}
