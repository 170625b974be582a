// Package mpcrun is the work of "outflank mpcfit": collecting shallow
// and deep search scores of sampled positions, and fitting the selective
// search's Multi-ProbCut model to them (package mpcfit does the
// statistics).
package mpcrun

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/mpcfit"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// CollectFlags are the flags of "outflank mpcfit collect".
type CollectFlags struct {
	dir      *string
	spFile   *string
	out      *string
	n        *int
	depth    *int
	lo       *int
	hi       *int
	exactMax *int
	seed     *uint64
	fs       *pflag.FlagSet
}

// AddCollectFlags declares the flags of "outflank mpcfit collect" on fs.
func AddCollectFlags(fs *pflag.FlagSet) *CollectFlags {
	return &CollectFlags{
		dir:      fs.String("wthor", "", "folder of WTHOR .wtb files to sample from"),
		spFile:   fs.String("selfplay", "", "self-play games file (outflank selfplay) to sample from, instead of --wthor"),
		out:      fs.String("out", "", "samples file (appended to; resumed)"),
		n:        fs.Int("positions", 100, "number of positions wanted in the file"),
		depth:    fs.Int("depth", 10, "deepest search"),
		lo:       fs.Int("min-empties", 14, "fewest empties of a sampled position"),
		hi:       fs.Int("max-empties", 58, "most empties of a sampled position"),
		exactMax: fs.Int("exact-max-empties", 22, "solve positions with this many empties or fewer"),
		seed:     fs.Uint64("seed", 1, "sampling seed"),
		fs:       fs,
	}
}

// Collect runs "outflank mpcfit collect" with the parsed flags.
func Collect(e *cli.Env, fl *CollectFlags, args []string) error {
	switch {
	case (*fl.dir == "") == (*fl.spFile == "") || *fl.out == "":
		return fmt.Errorf("mpcfit collect: want --out and one of --wthor, --selfplay")
	case *fl.depth < 1 || *fl.depth > 20:
		return fmt.Errorf("mpcfit collect: --depth %d: want 1 to 20", *fl.depth)
	case *fl.lo < 2 || *fl.hi > 59 || *fl.lo > *fl.hi:
		return fmt.Errorf("mpcfit collect: empties %d..%d: want 2 <= min <= max <= 59", *fl.lo, *fl.hi)
	case *fl.exactMax > 30:
		return fmt.Errorf("mpcfit collect: --exact-max-empties %d: at most 30", *fl.exactMax)
	}
	src, err := gameSource(*fl.dir, *fl.spFile)
	if err != nil {
		return fmt.Errorf("mpcfit collect: %w", err)
	}
	have := 0
	data, err := bitboard.ReadRegular(*fl.out)
	switch {
	case err == nil:
		ss, err := mpcfit.Read(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("mpcfit collect: %w", bitboard.InFile(*fl.out, err))
		}
		have = len(ss)
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("mpcfit collect: %w", err) // a directory, a pipe: not appended to
	}
	// Appended, not written whole: the run resumes from what it holds, and
	// each sample is one write of a whole line, so a kill loses at most the
	// sample being measured.
	f, err := os.OpenFile(*fl.out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("mpcfit collect: %w", err)
	}
	defer f.Close()
	ev := eval.Default()
	eng := search.New(search.Options{HashMB: 16, Eval: ev})
	r := rand.New(rand.NewPCG(*fl.seed, 0x6d7063))
	start := time.Now()
	for k := 0; k < *fl.n; k++ {
		pos := samplePosition(r, src, *fl.lo, *fl.hi)
		if k < have {
			continue // measured by an earlier run; the draw above keeps the sequence
		}
		s := mpcfit.Measure(eng, ev, pos, *fl.depth, pos.Empties() <= *fl.exactMax)
		if err := s.Write(f); err != nil {
			return fmt.Errorf("mpcfit collect: %w", err)
		}
		if (k+1)%50 == 0 {
			fmt.Fprintf(e.Stderr, "%d positions, %v\n", k+1, time.Since(start).Round(time.Second))
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

// FitFlags are the flags of "outflank mpcfit fit".
type FitFlags struct {
	table *string
	minN  *int
	fs    *pflag.FlagSet
}

// AddFitFlags declares the flags of "outflank mpcfit fit" on fs.
func AddFitFlags(fs *pflag.FlagSet) *FitFlags {
	return &FitFlags{
		table: fs.String("table", "", "write the fitted model as Go source to this file (search/mpc_table.go)"),
		minN:  fs.Int("min-count", mpcfit.DefaultMinCount, "fewest samples of a cell used in the fit"),
		fs:    fs,
	}
}

// Fit runs "outflank mpcfit fit" with the parsed flags (args: the whole command line after the action, which the table's header repeats).
func Fit(e *cli.Env, f *FitFlags, args []string) error {
	if f.fs.NArg() == 0 {
		return fmt.Errorf("mpcfit fit: want one or more samples files")
	}
	samples, err := mpcfit.ReadFiles(f.fs.Args()...)
	if err != nil {
		return fmt.Errorf("mpcfit fit: %w", err)
	}
	cells := mpcfit.Cells(samples, *f.minN)
	m, err := mpcfit.Fit(cells)
	if err != nil {
		return fmt.Errorf("mpcfit fit: %w", err)
	}
	fmt.Fprintf(e.Stdout, "%d samples, %d cells\n", len(samples), len(cells))
	fmt.Fprintln(e.Stdout, "| empties | shallow | deep | n | a | b | sigma | sigma (a=1,b=0) | model |")
	fmt.Fprintln(e.Stdout, "|---|---|---|---|---|---|---|---|---|")
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
		fmt.Fprintf(e.Stdout, "| %d-%d | %d | %s | %d | %.3f | %+.2f | %.2f | %.2f | %.2f |\n",
			c.Lo, c.Hi, c.Shallow, deep, c.N, c.A, c.B, c.Sigma, c.Sigma1, model)
	}
	fmt.Fprintf(e.Stdout, "midgame: deep = shallow, sigma = %.4f %+.4f·empties %+.4f·shallow %+.4f·depth\n", m.Mid[0], m.Mid[1], m.Mid[2], m.Mid[3])
	fmt.Fprintf(e.Stdout, "endgame: exact = %.4f·shallow %+.4f, sigma = %.4f %+.4f·e %+.4f·shallow (e: empties clamped to %d..%d)\n",
		m.EndA, m.EndB, m.End[0], m.End[1], m.End[2], m.EndLo, m.EndHi)
	if *f.table != "" {
		cmd := "outflank mpcfit fit"
		for _, a := range args {
			cmd += " " + a
		}
		if err := atomicfile.WriteFile(*f.table, m.Source(cmd)); err != nil {
			return fmt.Errorf("mpcfit fit: %w", err)
		}
	}
	return nil
}
