package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/puzzlerun"
)

func init() {
	register(&cli.Command{
		Name:    "puzzle",
		Args:    "[FILE...] [flags]",
		Summary: "Check puzzle files: solve each puzzle and compare with the stated answers.",
		Details: `A puzzle file is OBF with goal fields: a board and the side to move, then
facts such as "moves c4 d3 e6 f5", "flips c4: d4", "corner-exactly b6",
"after b6: moves b7 g1", "line h2 h7! h8", "result 54-10", "score +12",
"best c4 d3" or "wld win" (see testdata/rulebook/README.md). Each fact is
checked and printed with the expected answer beside the engine's; the exit
status is 1 when any fact is missed or a position is impossible.
With no FILE, the rulebook suite built into the binary is checked (the
files of testdata/rulebook).

--reconstruct writes the rulebook's five Strategy puzzles and its Diagrams 1-5,
reconstructed by a seeded search (their diagrams were lost), as a puzzle
file: testdata/rulebook/strategy.puz is the output of --seed 1.`,
		Run: runPuzzle,
	})
}

func runPuzzle(e *cli.Env, args []string) error {
	fs := flagSet(e, "puzzle")
	f := puzzlerun.AddFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return puzzlerun.Run(e, f, fs.Args())
}
