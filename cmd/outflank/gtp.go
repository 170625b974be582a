package main

import (
	"io"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/gtp"
)

func init() {
	register(&command{
		name:    "gtp",
		args:    "[flags]",
		summary: "Speak GTP v2 on stdin/stdout (for Quarry and other GTP GUIs).",
		details: `Moves are in Othello notation (a1 top left), "pass" when there is none.
Supported: protocol_version name version known_command list_commands quit
boardsize (8) clear_board komi (ignored) play genmove reg_genmove undo
showboard final_score time_settings time_left set_game list_games loadsgf,
and GoGui's "# interrupt" to cut a genmove short. "loadsgf FILE [N]" sets the
game from an Othello SGF (GM[2]; points "fe" or "f5") or a GGF record, up to
the position before move N. genmove for the side not to move, and
final_score before the game is over, are refused with the reason.`,
		run: runGTP,
	})
}

func runGTP(e *env, args []string) error {
	st, depth, maxTime, ok, err := protocolArgs(e, findCommand("gtp"), args,
		"midgame depth of genmove", "cap on the time of one move, e.g. 5s (0: the clock or the depth decides)")
	if !ok {
		return err
	}
	e, done, err := withSessionLog(e, st.log, "gtp")
	if err != nil {
		return err
	}
	defer done()
	return serveGTP(e, e.stdin, st, depth, maxTime)
}

// serveGTP runs the protocol; the default command calls it too.
func serveGTP(e *env, in io.Reader, st engineSetup, depth int, maxTime time.Duration) error {
	return gtp.Run(in, e.stdout, newSearcher(st.opts), gtp.Config{Name: "Outflank", Version: version(), Threads: st.opts.Threads, Depth: depth, Time: maxTime, Book: st.book})
}
