package main

import (
	"fmt"
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
showboard final_score time_settings time_left set_game list_games, and
GoGui's "# interrupt" to cut a genmove short.`,
		run: runGTP,
	})
}

func runGTP(e *env, args []string) error {
	c := findCommand("gtp")
	fs := c.flags(e)
	ef := addEngineFlags(fs)
	depth := fs.Int("depth", 12, "midgame depth of genmove")
	maxTime := fs.Duration("time", 0, "cap on the time of one move, e.g. 5s (0: the clock or the depth decides)")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("gtp: unexpected argument %q", fs.Arg(0))
	}
	if *depth < 1 || *depth > 60 {
		return fmt.Errorf("gtp: --depth %d: want 1 to 60", *depth)
	}
	st, err := ef.setup("gtp")
	if err != nil {
		return err
	}
	return serveGTP(e, e.stdin, st, *depth, *maxTime)
}

// serveGTP runs the protocol; the default command calls it too.
func serveGTP(e *env, in io.Reader, st engineSetup, depth int, maxTime time.Duration) error {
	return gtp.Run(in, e.stdout, st.factory(st.opts), gtp.Config{Name: "Outflank", Version: version(), Depth: depth, Time: maxTime, Book: st.book})
}
