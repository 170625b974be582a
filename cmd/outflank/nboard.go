package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/session"
)

func init() {
	register(&cli.Command{
		Name:    "nboard",
		Args:    "[flags]",
		Summary: "Speak NBoard protocol v2 on stdin/stdout (for the NBoard GUI and match tools).",
		Details: `Outflank also enters NBoard mode by itself when started without arguments
and the first line it reads is "nboard N". The GUI sets the depth ("set depth")
and the game ("set game" with a GGF record whose TI[] clock is respected by
"go"); "hint N" streams "search" lines as the search deepens; "ping" stops any
search at once. Errors go to stderr as one line starting "outflank:".`,
		Run: runNBoard,
	})
}

func runNBoard(e *cli.Env, args []string) error {
	return runProtocol(e, args, "nboard", session.NBoard,
		"depth until the GUI sends \"set depth\"", "cap on the time of any move or hint, e.g. 5s (0: none)")
}
