package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/solve"
)

func init() {
	register(&cli.Command{
		Name:    "solve",
		Args:    "FILE.obf|BOARD [flags]",
		Summary: "Solve endgame positions exactly and check them against known scores.",
		Details: `Solves every position of an OBF file (one position a line: 64 squares
X/O/- a1..h8, the side to move, then optional "MOVE:SCORE;" fields), or one
board given on the command line, printing a line per position as it finishes:
number, empties, best move, score (final disc difference for the side to
move, empties to the winner), principal variation, nodes, time and nodes per
second; then a total line. Positions are numbered from 1, or by the range in
the file's name (fforum-20-39.obf: #20-#39). Where the file lists move scores
the answer is checked (the score must equal the best listed score, the move
must be one having it) and a wrong answer is marked; the exit status is 1 if
any is. A board no game can reach (fewer than 4 discs, an empty centre
square) is refused.

From 26 empties, or under --time, a progress line per search depth goes to
stderr. Beyond 30 empties an exact solve would take hours to centuries: the
position gets an estimate and 30 s of deepening search instead (--time to
change, --time 0 to solve anyway); a score the time limit cut short is marked
"not exact". Flags may follow the board; a board starting with "-" needs "--"
before it, e.g.
  outflank solve -- "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--" X --wld`,
		Run: runSolve,
	})
}

func runSolve(e *cli.Env, args []string) error {
	fs := flagSet(e, "solve")
	f := solve.AddFlags(fs)
	f.AddTimeFlag(fs)
	boards, rest := solve.SplitBoardArgs(args)
	if ok, err := cli.Parse(fs, rest); !ok {
		return err
	}
	return solve.Run(e, f, boards, fs.Args())
}
