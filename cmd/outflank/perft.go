package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/benchrun"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

func init() {
	register(&cli.Command{
		Name:    "perft",
		Args:    "DEPTH [flags]",
		Summary: "Count the leaves of the game tree to each depth (move generator check and speed).",
		Details: `Prints, for each depth from 1 to DEPTH, the leaf count, the time and the
leaves per second, one thread, no hash. A pass counts as a ply and a finished
game is a leaf (the standard convention: 4, 12, 56, 244, ... from the start);
--passes=free makes a pass use no ply.`,
		Run: runPerft,
	})
}

func runPerft(e *cli.Env, args []string) error {
	fs := flagSet(e, "perft")
	f := benchrun.AddPerftFlags(fs)
	if err := benchrun.CheckPerftArgs(args); err != nil {
		return err
	}
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return benchrun.Perft(e, f, fs.Args())
}
