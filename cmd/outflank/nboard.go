package main

import (
	"io"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/nboard"
)

func init() {
	register(&command{
		name:    "nboard",
		args:    "[flags]",
		summary: "Speak NBoard protocol v2 on stdin/stdout (for the NBoard GUI and match tools).",
		details: `Outflank also enters NBoard mode by itself when started without arguments
and the first line it reads is "nboard N". The GUI sets the depth ("set depth")
and the game ("set game" with a GGF record whose TI[] clock is respected by
"go"); "hint N" streams "search" lines as the search deepens; "ping" stops any
search at once. Errors go to stderr as one line starting "outflank:".`,
		run: runNBoard,
	})
}

func runNBoard(e *env, args []string) error {
	st, depth, maxTime, ok, err := protocolArgs(e, findCommand("nboard"), args,
		"depth until the GUI sends \"set depth\"", "cap on the time of any move or hint, e.g. 5s (0: none)")
	if !ok {
		return err
	}
	e, done, err := withSessionLog(e, st.log, "nboard")
	if err != nil {
		return err
	}
	defer done()
	return serveNBoard(e, e.stdin, st, depth, maxTime)
}

// serveNBoard runs the protocol; the default command calls it too.
func serveNBoard(e *env, in io.Reader, st engineSetup, depth int, maxTime time.Duration) error {
	return nboard.Run(in, e.stdout, e.stderr, newSearcher(st.opts), nboard.Config{Name: "Outflank", Threads: st.opts.Threads, Depth: depth, Time: maxTime, Book: st.book})
}
