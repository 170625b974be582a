package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/benchrun"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

func init() {
	register(&cli.Command{
		Name:    "bench-midgame",
		Args:    "[flags]",
		Summary: "Time the midgame search on 24 tournament positions (48, 40, 32 empties).",
		Details: `Searches the midgame benchmark's positions (built into the binary: eight
tournament boards each at 48, 40 and 32 empties) one after another, one
thread unless --threads says otherwise, clearing the hash table before each,
with no exact solve, and prints the machine line, then per position the
depth reached, nodes and nodes per second, and the totals. With --time (the
default, 1s) every position gets that much time and the depth reached is
the figure of merit; with --depth every position is searched to that depth
and the node count is deterministic (with one thread).`,
		Run: runBenchMidgame,
	})
}

func runBenchMidgame(e *cli.Env, args []string) error {
	fs := flagSet(e, "bench-midgame")
	f := benchrun.AddMidgameFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return benchrun.Midgame(e, f, fs.Args())
}
