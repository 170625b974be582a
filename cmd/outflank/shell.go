package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/shell"
)

func init() {
	register(&command{
		name:    "shell",
		args:    "[flags]",
		summary: "Play and analyse at the terminal (also reads scripts from stdin).",
		details: `The shell shows the board after each move with the legal moves marked.
Type moves (f5, or a transcript such as f5d6c3), "go" for an engine move,
"engine white" to play black against it, "hint 3", "solve", "undo", "new",
"board <OBF>", "load"/"save" (GGF or transcript), "level N", "help" for all.
Outflank starts the shell by itself when run without arguments at a terminal.
Ctrl-C stops a search; at the prompt it leaves.`,
		run: runShell,
	})
}

func runShell(e *env, args []string) error {
	c := findCommand("shell")
	fs := c.flags(e)
	ef := addEngineFlags(fs)
	level := fs.Int("level", 12, "strength: midgame depth N, exact endgame from 2N empties (up to 24)")
	moveTime := fs.Duration("time", 10*time.Second, "time limit per engine move (0: none)")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("shell: unexpected argument %q", fs.Arg(0))
	}
	if *level < 1 || *level > 60 {
		return fmt.Errorf("shell: --level %d: want 1 to 60", *level)
	}
	st, err := ef.setup("shell")
	if err != nil {
		return err
	}
	return runShellOn(e, e.stdin, st, *level, *moveTime)
}

// runShellOn runs the shell on in; the default command calls it too.
func runShellOn(e *env, in io.Reader, st engineSetup, level int, moveTime time.Duration) error {
	cfg := shell.Config{Name: "Outflank", Version: version(), Interactive: isTerminalReader(e.stdin),
		Level: level, Time: moveTime, Options: st.opts, Book: st.book}
	if cfg.Interactive {
		// Ctrl-C stops a search instead of killing the program.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		defer signal.Stop(sig)
		intr := make(chan struct{}, 1)
		go func() {
			for range sig {
				select {
				case intr <- struct{}{}:
				default: // one pending interrupt is enough
				}
			}
		}()
		cfg.Interrupt = intr
	}
	return shell.Run(in, e.stdout, e.stderr, newSearcher, cfg)
}

// isTerminalReader reports whether r is a terminal: a character device
// other than the null device (which programs that start outflank without
// input give it).
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}
