package main

import (
	"fmt"
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
	c := findCommand("nboard")
	fs := c.flags(e)
	ef := addEngineFlags(fs)
	depth := fs.Int("depth", 12, "depth until the GUI sends \"set depth\"")
	maxTime := fs.Duration("time", 0, "cap on the time of any move or hint, e.g. 5s (0: none)")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("nboard: unexpected argument %q", fs.Arg(0))
	}
	st, err := ef.setup("nboard")
	if err != nil {
		return err
	}
	if *depth < 1 || *depth > 60 {
		return fmt.Errorf("nboard: --depth %d: want 1 to 60", *depth)
	}
	return serveNBoard(e, e.stdin, st, *depth, *maxTime)
}

// serveNBoard runs the protocol; the default command calls it too.
func serveNBoard(e *env, in io.Reader, st engineSetup, depth int, maxTime time.Duration) error {
	return nboard.Run(in, e.stdout, e.stderr, st.factory(st.opts), nboard.Config{Name: "Outflank", Depth: depth, Time: maxTime, Book: st.book})
}
