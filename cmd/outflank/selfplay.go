package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplayrun"
)

func init() {
	register(&cli.Command{
		Name:    "selfplay",
		Args:    "OUT [flags] | merge OUT IN... | check FILE...",
		Summary: "Generate training games by self-play, finished by the exact solver; merge and check the files.",
		Details: `Each game starts from an XOT opening (or --openings), plays 0..--random
uniformly random moves, then midgame moves drawn by a softmax (--temperature,
in discs) over the scores of every root move at --depth, and from --solve
empties on the solver's perfect play, so every game's final score is the
exact value of its position at the solve point (the WTHOR convention).
With --bounded only the moves the softmax can choose get exact scores
(the same games, about 20% faster); with --final-multipv only the last
iteration scores every move (other games, about 12% faster again).

Game i is decided by (--seed, i) and the settings alone. A run plays the
games [--first, --first+--games) of its shard (--shard K/N: indices with
i mod N = K-1) on --workers goroutines and appends them to OUT in index
order, one checked block per --block games. Stop it at any time (Ctrl-C,
SIGTERM, or kill); the same command continues it. A finished OUT ends with
an end record; "outflank selfplay check OUT" verifies a file.

  outflank selfplay merge OUT IN...   joins shards (same seed and settings,
                                      no game twice) into one file
  outflank selfplay check FILE...     verifies files and prints their totals

The format and a Slurm array example: cmd/outflank/internal/selfplay/README.md.`,
		Run: runSelfplay,
	})
}

func runSelfplay(e *cli.Env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "merge":
			fs := selfplayrun.MergeCommand.FlagSet(e)
			f := selfplayrun.AddMergeFlags(fs)
			if ok, err := cli.Parse(fs, args[1:]); !ok {
				return err
			}
			return selfplayrun.Merge(e, f, fs.Args())
		case "check":
			fs := selfplayrun.CheckCommand.FlagSet(e)
			f := selfplayrun.AddCheckFlags(fs)
			if ok, err := cli.Parse(fs, args[1:]); !ok {
				return err
			}
			return selfplayrun.Check(e, f, fs.Args())
		}
	}
	fs := flagSet(e, "selfplay")
	f := selfplayrun.AddFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return selfplayrun.Run(e, f, fs.Args())
}
