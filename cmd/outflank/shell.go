package main

import (
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/session"
)

func init() {
	register(&cli.Command{
		Name:    "shell",
		Args:    "[flags]",
		Summary: "Play and analyse at the terminal (also reads scripts from stdin).",
		Details: `The shell shows the board after each move with the legal moves marked.
Type moves (f5, or a transcript such as f5d6c3), "go" for an engine move,
"engine white" to play black against it, "hint 3", "solve", "undo", "new",
"board <OBF>", "load"/"save" (GGF or transcript), "level N", "help" for all.
Outflank starts the shell by itself when run without arguments at a terminal.
Ctrl-C stops a search; at the prompt it leaves.`,
		Run: runShell,
	})
}

func runShell(e *cli.Env, args []string) error {
	fs := flagSet(e, "shell")
	ef := engine.AddFlags(fs)
	level := fs.Int("level", 12, "strength: midgame depth N, exact endgame from 2N empties (up to 24)")
	moveTime := cli.TimeFlag(fs, "time", 10*time.Second, "time limit per engine move and per solve: 5 or 5s, 500ms, 1m (0: none)")
	logPath := fs.String("log", "", cli.LogFlagHelp)
	cli.Bound(fs, "level", 1, 60)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	st, err := ef.Setup("shell")
	if err != nil {
		return err
	}
	st.Log = *logPath
	return session.Shell(e, e.Stdin, st, *level, *moveTime)
}
