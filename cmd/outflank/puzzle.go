package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/puzzle"
)

func init() {
	register(&command{
		name:    "puzzle",
		args:    "FILE... [flags]",
		summary: "Check puzzle files: solve each puzzle and compare with the stated answers.",
		details: `A puzzle file is OBF with goal fields: a board and the side to move, then
facts such as "moves c4 d3 e6 f5", "flips c4: d4", "corner-exactly b6",
"after b6: moves b7 g1", "line h2 h7! h8", "result 54-10", "score +12",
"best c4 d3" or "wld win" (see testdata/rulebook/README.md). Each fact is
checked and printed with the expected answer beside the engine's; the exit
status is 1 when any fact is missed or a position is impossible.

--reconstruct writes the rulebook's five Strategy puzzles and its Diagrams 1-5,
reconstructed by a seeded search (their diagrams were lost), as a puzzle
file: testdata/rulebook/strategy.puz is the output of --seed 1.`,
		run: runPuzzle,
	})
}

func runPuzzle(e *env, args []string) error {
	c := findCommand("puzzle")
	fs := c.flags(e)
	asJSON := fs.Bool("json", false, "print the results as one JSON object")
	quiet := fs.BoolP("quiet", "q", false, "print only missed facts and the summary (with --json: only the puzzles with a miss)")
	hashMB := fs.Int("hash", 64, "transposition table size in MiB for the exact solver")
	limit := timeFlag(fs, "time", 0, "most time for each exact solve, e.g. 30s or 30 (0: no limit); a fact not solved in time is a miss")
	reconstruct := fs.Bool("reconstruct", false, "write the reconstructed Strategy puzzles instead of checking files")
	seed := fs.Uint64("seed", 1, "random seed for --reconstruct")
	games := fs.Int("games", 20_000_000, "most random games --reconstruct tries per puzzle")
	bound(fs, "hash", 1, maxHashMB)
	if ok, err := parse(fs, args); !ok {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	solver := newPuzzleSolver(*hashMB, *limit)
	if *reconstruct {
		if fs.NArg() != 0 {
			return fmt.Errorf("puzzle: --reconstruct takes no FILE")
		}
		return puzzle.WriteStrategy(ctx, e.stdout, e.stderr, *seed, *games, solver)
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("puzzle: want at least one FILE")
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
	for _, name := range fs.Args() {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("puzzle: %w", err)
		}
		ps, err := puzzle.Read(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("puzzle: %w", bitboard.InFile(name, err))
		}
		fr := fileResult{File: name}
		for _, p := range ps {
			r := p.Check(ctx, solver)
			if ctx.Err() != nil {
				return fmt.Errorf("puzzle: interrupted")
			}
			if !*quiet || !r.OK {
				fr.Puzzles = append(fr.Puzzles, r) // -q: only the misses, in JSON too
			}
			out.Puzzles++
			for _, o := range r.Outcomes {
				out.Facts++
				if !o.OK {
					out.Missed++
				}
			}
			if !*asJSON {
				printReport(e, name, r, *quiet)
			}
		}
		out.Files = append(out.Files, fr)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(e.stdout, "%d puzzles, %d facts, %d missed\n", out.Puzzles, out.Facts, out.Missed)
	}
	if out.Missed > 0 {
		return quietError{1}
	}
	return nil
}

func printReport(e *env, file string, r puzzle.Report, quiet bool) {
	if quiet && r.OK {
		return
	}
	status := "ok"
	if !r.OK {
		status = "MISSED"
	}
	fmt.Fprintf(e.stdout, "%s:%d %s: %s\n", file, r.Line, r.ID, status)
	for _, o := range r.Outcomes {
		if quiet && o.OK {
			continue
		}
		mark := "ok  "
		if !o.OK {
			mark = "MISS"
		}
		fmt.Fprintf(e.stdout, "  %s %4d %s\n", mark, o.Line, o.Goal)
		if !o.OK || o.Expected != o.Got {
			fmt.Fprintf(e.stdout, "            expected: %s\n            got:      %s\n", o.Expected, o.Got)
		} else {
			fmt.Fprintf(e.stdout, "            %s\n", o.Got)
		}
	}
}
