package main

import (
	"fmt"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/mpcrun"
)

func init() {
	register(&cli.Command{
		Name:    "mpcfit",
		Args:    "collect|fit [flags]",
		Summary: "Fit the Multi-ProbCut model of the selective search.",
		Details: `"mpcfit collect --wthor DIR --out FILE" samples positions from WTHOR games
(or, with --selfplay FILE instead, from self-play games: "outflank selfplay")
(a random game, a random number of empties in --min-empties..--max-empties,
from a fixed seed), searches each without selectivity to every depth up to
--depth and, at --exact-max-empties or fewer empties, solves it, appending
one line per position to FILE. It resumes: positions already in FILE are not
measured again.

"mpcfit fit FILE" regresses deep on shallow scores per stage and depth pair,
prints the cells (a, b, sigma, count), fits the smooth error model the search
uses and, with --table, writes it as Go source (search/mpc_table.go).`,
		Run: runMPCFit,
	})
}

func runMPCFit(e *cli.Env, args []string) error {
	fs := flagSet(e, "mpcfit")
	switch {
	case len(args) > 0 && args[0] == "collect":
		f := mpcrun.AddCollectFlags(fs)
		if ok, err := cli.Parse(fs, args[1:]); !ok {
			return err
		}
		return mpcrun.Collect(e, f, fs.Args())
	case len(args) > 0 && args[0] == "fit":
		f := mpcrun.AddFitFlags(fs)
		if ok, err := cli.Parse(fs, args[1:]); !ok {
			return err
		}
		return mpcrun.Fit(e, f, args[1:])
	}
	if ok, err := cli.Parse(fs, args); !ok {
		return err // --help, or a bad flag
	}
	return fmt.Errorf("mpcfit: want \"collect\" or \"fit\" (see outflank help mpcfit)")
}
