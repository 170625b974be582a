package main

import (
	"fmt"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/solvedset"
)

func init() {
	register(&cli.Command{
		Name:    "solvedset",
		Args:    "build OUT --games FILE [flags] | merge OUT IN... | score SET ENGINE... [flags]",
		Summary: "Build a set of self-play positions with exactly solved best moves, and score engines' move choices on it.",
		Details: `The set measures late midgame move choice: positions at 24-36 empties
whose optimal moves are known exactly. "outflank solvedset CMD --help"
gives each form's flags.

  outflank solvedset build OUT --games FILE[,FILE...]
        picks positions from the self-play games (--counts per count of
        empties, each from a game of its own, in an order shuffled by
        --seed) and solves each on one thread: its exact score and which
        moves reach it. Every position is written to OUT as it is solved
        (OBF, with every optimal move and its score); stop it at any time,
        the same command resumes it. --shard K/N solves the K-th of N
        shares of about equal cost (dealt by empties), for a job spread
        over processes or machines; --from SET... takes the positions that
        other jobs of the same games and seed solved.
  outflank solvedset merge OUT IN...
        joins the shards of one set into OUT (the file an unsharded build
        writes, up to the CPU seconds recorded for each position).
  outflank solvedset score SET ENGINE...
        asks each engine (match specs: self:time=1s, nboard,name=X:COMMAND;
        without a limit --time a move, on the GGF clock a game would leave
        it) for its move in every position, the engines in turn, then
        prints per engine and band of empties: optimal moves, discs lost
        (best score minus the chosen move's) and seconds a move. The exact
        score of a non-optimal choice is looked up in the values file
        (--values), or solved and added to it, so it is solved once.

The committed set, its cost and the commands that rebuild and score it:
cmd/outflank/internal/solvedset/README.md.`,
		Run: runSolvedSet,
	})
}

func runSolvedSet(e *cli.Env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "build":
			fs := solvedset.BuildCommand.FlagSet(e)
			f := solvedset.AddBuildFlags(fs)
			if ok, err := cli.Parse(fs, args[1:]); !ok {
				return err
			}
			return solvedset.Build(e, f, fs.Args())
		case "merge":
			fs := solvedset.MergeCommand.FlagSet(e)
			if ok, err := cli.Parse(fs, args[1:]); !ok {
				return err
			}
			return solvedset.Merge(e, fs.Args())
		case "score":
			fs := solvedset.ScoreCommand.FlagSet(e)
			f := solvedset.AddScoreFlags(fs)
			if ok, err := cli.Parse(fs, args[1:]); !ok {
				return err
			}
			return solvedset.Score(e, f, fs.Args())
		}
	}
	fs := flagSet(e, "solvedset")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return fmt.Errorf("solvedset: want build, merge or score (see outflank help solvedset)")
}
