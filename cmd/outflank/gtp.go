package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/session"
)

func init() {
	register(&cli.Command{
		Name:    "gtp",
		Args:    "[flags]",
		Summary: "Speak GTP v2 on stdin/stdout (for Quarry and other GTP GUIs).",
		Details: `Moves are in Othello notation (a1 top left), "pass" when there is none.
Supported: protocol_version name version known_command list_commands quit
boardsize (8) clear_board komi (ignored) play genmove reg_genmove undo
showboard final_score time_settings time_left set_game list_games loadsgf,
and GoGui's "# interrupt" to cut a genmove short. "loadsgf FILE [N]" sets the
game from an Othello SGF (GM[2]; points "fe" or "f5") or a GGF record, up to
the position before move N. genmove for the side not to move, and
final_score before the game is over, are refused with the reason.`,
		Run: runGTP,
	})
}

func runGTP(e *cli.Env, args []string) error {
	return runProtocol(e, args, "gtp", session.GTP,
		"midgame depth of genmove", "cap on the time of one move, e.g. 5s (0: the clock or the depth decides)")
}
