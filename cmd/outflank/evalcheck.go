package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/evalcheck"
)

func init() {
	register(&cli.Command{
		Name:    "evalcheck",
		Args:    "[flags]",
		Summary: "Measure an evaluation against another: FFO move choice, games, solver nodes.",
		Details: `Compares evaluation A (--eval, default the embedded pattern weights) with
B (--against: "simple" for the placeholder, or a weights file), one thread:

  --ffo FILE...  for each OBF position (every move's exact score known), a
                 search to --ffo-depth with no exact solve; prints the share of
                 positions where the chosen move has the optimal score and the
                 average disc loss of the choice
  --games N      N games A against B from XOT openings (each opening twice,
                 colours swapped), both at --depth plies, both solving exactly
                 from --endgame empties; prints A's score
  --exact N      with --wthor DIR: N held-out WTHOR positions (games not used
                 in training with --split-seed, 10% held out) at each of
                 --exact-empties empties, solved exactly; prints each
                 evaluation's mean absolute error in discs
  --solve N-M    solves FFO #N-#M (40-59) with each evaluation ordering the
                 moves; prints nodes and time
  --testset FILE the mean absolute error of each evaluation, by empties, on
                 a test set of labelled positions (eval/testdata/heldout.samples;
                 eval/README.md says what its labels are)
  --testset-out FILE  with --wthor DIR: builds that test set from the games
                 held out of training (--split-seed): every position at 25-40
                 empties and the one at 24 of the first --testset-games held-out
                 games, labelled with the game's theoretical score, and the
                 positions at --testset-exact empties of the first
                 --testset-solved of them, solved exactly (from 25 empties
                 on a solved position is in the set twice, a row for each
                 kind of label)`,
		Run: runEvalCheck,
	})
}

func runEvalCheck(e *cli.Env, args []string) error {
	fs := flagSet(e, "evalcheck")
	f := evalcheck.AddFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return evalcheck.Run(e, f, fs.Args())
}
