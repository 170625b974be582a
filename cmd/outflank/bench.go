package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/solve"
)

func init() {
	register(&cli.Command{
		Name:    "bench",
		Args:    "[flags]",
		Summary: "Time the exact solver on the FFO endgame suite #40-#59.",
		Details: `Solves the FFO positions (built into the binary) one after another on
--threads threads (all cores unless set), clearing the hash table before
each, and prints the machine line, per-position time, nodes and nodes per
second, and the total. Every answer is checked against the known scores.
--positions picks a range, e.g. 40-44.`,
		Run: runBench,
	})
}

func runBench(e *cli.Env, args []string) error {
	fs := flagSet(e, "bench")
	f := solve.AddFlags(fs)
	rng := fs.String("positions", "40-59", "FFO numbers to solve: N or N-M within 40-59")
	prof := fs.String("cpuprofile", "", "write a CPU profile of the solves to `FILE` (for go tool pprof)")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	return solve.Bench(e, f, *rng, *prof)
}
