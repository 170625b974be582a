package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/review"
)

func init() {
	register(&cli.Command{
		Name:    "review",
		Args:    "GAMES.ggf... [flags]",
		Summary: "Review finished games by the exact solver: what every move from --empties on cost its player.",
		Details: `Reads GGF game records (such as "outflank match --games-out" writes) and
solves exactly every position of each game from the first with --empties or
fewer empty squares to the end. A move's cost is the exact value of the
position before it minus that after it, for the player who made it, in
discs (empties to the winner): 0 for a perfect move. Prints a line per game
(black's exact value at --empties, black's final score, the discs each side
gave away and in how many moves) and then, for each player name (GGF PB and
PW), the games, the mean discs given away a game, and the results under
perfect play from --empties against the results played: where a match's
points were won or lost after that point, and so whether they were decided
before it.

Records that cannot be used (unreadable, stopped before the end) are
reported on stderr and skipped. The solves take about a second a game at 24
empties on one core, each empty more about twice that.`,
		Run: runReview,
	})
}

func runReview(e *cli.Env, args []string) error {
	fs := flagSet(e, "review")
	f := review.AddFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return review.Run(e, f, fs.Args())
}
