// Package puzzlerun is the work of "outflank puzzle": it checks puzzle
// files (package puzzle reads and checks them) with the engine's exact
// solver, prints or writes as JSON what each fact expected and got, and
// writes the reconstructed rulebook puzzles.
package puzzlerun

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/puzzle"
	"github.com/spf13/pflag"
)

// Flags are the flags of "outflank puzzle".
type Flags struct {
	asJSON      *bool
	quiet       *bool
	hashMB      *int
	limit       *time.Duration
	reconstruct *bool
	seed        *uint64
	games       *int
}

// AddFlags declares the flags of "outflank puzzle" on fs.
func AddFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{
		asJSON:      fs.Bool("json", false, "print the results as JSON: one object, on one line (JSON Lines, as every --json)"),
		quiet:       fs.BoolP("quiet", "q", false, "print only missed facts and the summary (with --json: only the puzzles with a miss)"),
		hashMB:      fs.Int("hash", 64, "transposition table size in MiB for the exact solver"),
		limit:       cli.TimeFlag(fs, "time", 0, "most time for each exact solve, e.g. 30s or 30 (0: no limit); a fact not solved in time is a miss"),
		reconstruct: fs.Bool("reconstruct", false, "write the reconstructed Strategy puzzles instead of checking files"),
		seed:        fs.Uint64("seed", 1, "random seed for --reconstruct"),
		games:       fs.Int("games", 20_000_000, "most random games --reconstruct tries per puzzle"),
	}
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	return f
}

// rulebook is the rulebook suite, testdata/rulebook's puzzle files (a
// test keeps the copies the same), so that an installed binary has it.
//
//go:embed rulebook/*.puz
var rulebook embed.FS

// Run checks the puzzle files args, or with none the built-in rulebook
// suite (or, with --reconstruct, writes the reconstructed Strategy
// puzzles).
func Run(e *cli.Env, fl *Flags, args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	solver := newPuzzleSolver(*fl.hashMB, *fl.limit)
	if *fl.reconstruct {
		if len(args) != 0 {
			return fmt.Errorf("puzzle: --reconstruct takes no FILE")
		}
		return puzzle.WriteStrategy(ctx, e.Stdout, e.Stderr, *fl.seed, *fl.games, solver)
	}
	open := func(name string) (io.ReadCloser, error) { return bitboard.Open(name) }
	if len(args) == 0 {
		// No files: the rulebook suite built into the binary.
		args = []string{"rulebook/rules.puz", "rulebook/strategy.puz"}
		open = func(name string) (io.ReadCloser, error) { return rulebook.Open(name) }
	}
	type fileResult struct {
		File    string          `json:"file"`
		Puzzles []puzzle.Report `json:"puzzles"`
	}
	var out struct {
		Files   []fileResult `json:"files"`
		Puzzles int          `json:"puzzles"`
		Facts   int          `json:"facts"`
		Missed  int          `json:"missed"`
	}
	for _, name := range args {
		f, err := open(name)
		if err != nil {
			return fmt.Errorf("puzzle: %w", err)
		}
		ps, err := puzzle.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("puzzle: %w", bitboard.InFile(name, err))
		}
		if len(ps) == 0 {
			// As solve says of a file with no positions: nothing was
			// checked, which is not a pass.
			return fmt.Errorf("puzzle: %s: no puzzles", name)
		}
		fr := fileResult{File: name, Puzzles: []puzzle.Report{}} // [] in JSON when -q leaves none
		for _, p := range ps {
			r := p.Check(ctx, solver)
			if ctx.Err() != nil {
				return fmt.Errorf("puzzle: interrupted")
			}
			if !*fl.quiet || !r.OK {
				fr.Puzzles = append(fr.Puzzles, r) // -q: only the misses, in JSON too
			}
			out.Puzzles++
			for _, o := range r.Outcomes {
				out.Facts++
				if !o.OK {
					out.Missed++
				}
			}
			if !*fl.asJSON {
				printReport(e, name, r, *fl.quiet)
			}
		}
		out.Files = append(out.Files, fr)
	}
	if *fl.asJSON {
		// One line: every --json of outflank writes JSON Lines (README).
		if err := json.NewEncoder(e.Stdout).Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.Stdout, "%d puzzles, %d facts, %d missed\n", out.Puzzles, out.Facts, out.Missed)
	}
	if out.Missed > 0 {
		return cli.QuietError{Code: 1}
	}
	return nil
}

func printReport(e *cli.Env, file string, r puzzle.Report, quiet bool) {
	if quiet && r.OK {
		return
	}
	status := "ok"
	if !r.OK {
		status = "MISSED"
	}
	fmt.Fprintf(e.Stdout, "%s:%d %s: %s\n", file, r.Line, r.ID, status)
	for _, o := range r.Outcomes {
		if quiet && o.OK {
			continue
		}
		mark := "ok  "
		if !o.OK {
			mark = "MISS"
		}
		fmt.Fprintf(e.Stdout, "  %s %4d %s\n", mark, o.Line, o.Goal)
		if !o.OK || o.Expected != o.Got {
			fmt.Fprintf(e.Stdout, "            expected: %s\n            got:      %s\n", o.Expected, o.Got)
		} else {
			fmt.Fprintf(e.Stdout, "            %s\n", o.Got)
		}
	}
}
