package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/trainrun"
)

func init() {
	register(&cli.Command{
		Name:    "train",
		Args:    "--wthor DIR [--selfplay FILE] [--games FILE.ggf] [flags]",
		Summary: "Fit the pattern evaluation's weights to game records.",
		Details: `Reads the WTHOR database (every .wtb file of DIR), files of "outflank selfplay"
games (--selfplay: every position labelled with the game's final score, exact
from the game's solve point on; --selfplay-label corrected or search label the
positions before it by the moves' evaluations the games carry) and/or GGF game records
(--games: e.g. the engine's own games, written by
"outflank match self:depth=6 self:depth=6 --games-out self.ggf"), labels their positions,
holds out a share of the games (chosen from --seed), fits the weights by
mini-batch Adam (or SGD) with L2 regularisation, and writes the weights file
(--out). Labels: the theoretical score up to the theory point (24 empties in
WTHOR); after it an exact solve at --solve-empties or fewer in --solve-share
of the games (by the engine's solver), or else the final score of games that ended with
their theoretical score (GGF games have none: their final score labels
every position the solver does not). Prints the mean absolute error, in discs, per stage
on training and held-out positions. Bad records are reported with their file
and record number and skipped. Runs are reproducible: the same data and
flags give the same file, whatever --workers. --checkpoint saves the state
after each epoch and --resume continues an interrupted run; --samples caches
the labels; --solve-labels keeps the solver's labels in a small file that can
be committed (WTHOR's: eval/data/wthor-solve18.labels.gz), read in seconds.

Search labels (--search-depth D): every --search-every-th training position
of WTHOR and --games with --search-min-empties to --search-max-empties empties
(labelled by the noisy theoretical score; self-play positions take
--selfplay-label), or with --search-selfplay of the self-play games instead, is
searched to depth D by the engine, with --search-eval's weights, and
labelled --label-mix·search + (1−--label-mix)·game label. The labels are
cached in --search-labels (saved every --search-checkpoint, resumed if the file
exists); --shard K/N searches one part into its own file and stops, and
--search-labels A,B,... (the N shards' files, in order) merges them for the fit.`,
		Run: runTrain,
	})
}

func runTrain(e *cli.Env, args []string) error {
	fs := flagSet(e, "train")
	f := trainrun.AddFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return trainrun.Run(e, f, fs.Args())
}
