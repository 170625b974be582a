package main

import (
	"io"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/session"
)

// runProtocol is the one set-up of the protocol commands, nboard and gtp:
// the engine flags, --depth, --time and --log, no arguments; then serve
// speaks the protocol on stdin and stdout, recorded in the session log.
func runProtocol(e *cli.Env, args []string, name string,
	serve func(e *cli.Env, in io.Reader, st engine.Setup, depth int, maxTime time.Duration) error,
	depthHelp, timeHelp string) error {
	fs := flagSet(e, name)
	ef := engine.AddFlags(fs)
	depth := fs.Int("depth", 12, depthHelp)
	maxTime := cli.TimeFlag(fs, "time", 0, timeHelp)
	logPath := fs.String("log", "", cli.LogFlagHelp)
	// Off by default: GUIs and match tools often run two engines on one
	// machine, where thinking on the opponent's time takes its cores.
	ponder := fs.Bool("ponder", false, "think on the opponent's time: after each move, search the position after it until the next command (nboard: always; gtp: when time_settings keeps a clock). Give each engine its own cores")
	cli.Bound(fs, "depth", 1, 60)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	st, err := ef.Setup(name)
	if err != nil {
		return err
	}
	st.Log, st.Ponder = *logPath, *ponder
	return session.Logged(e, name, st, func(e *cli.Env) error {
		return serve(e, e.Stdin, st, *depth, *maxTime)
	})
}
