package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"golang.org/x/term"

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
	moveTime := timeFlag(fs, "time", 10*time.Second, "time limit per engine move and per solve: 5 or 5s, 500ms, 1m (0: none)")
	logPath := fs.String("log", "", logFlagHelp)
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
	st.log = *logPath
	return runShellOn(e, e.stdin, st, *level, *moveTime)
}

// runShellOn runs the shell on in; the default command calls it too. A
// script (input not a terminal) with a failed command ends with exit
// status 1, each error having been printed already.
func runShellOn(e *env, in io.Reader, st engineSetup, level int, moveTime time.Duration) error {
	cfg := shell.Config{Name: "Outflank", Version: version(), Interactive: isTerminalReader(e.stdin),
		Level: level, Time: moveTime, Options: st.opts, Book: st.book}
	// With --log, the streams are recorded; at a terminal the line
	// editor's output is (it echoes what is typed), not its raw keys.
	le, done, err := withSessionLog(e, st.log, "shell")
	if err != nil {
		return err
	}
	defer done()
	if in == e.stdin {
		in = le.stdin
	}
	if cfg.Interactive {
		restore, ed := lineEditor(e, le.stdout)
		if ed != nil {
			defer restore()
			cfg.Editor = ed
		} else {
			intr, stop := interrupts()
			defer stop()
			cfg.Interrupt = intr
		}
	}
	err = shell.Run(in, le.stdout, le.stderr, newSearcher, cfg)
	if errors.Is(err, shell.ErrScript) {
		return quietError{1}
	}
	return err
}

// lineEditor puts a terminal on stdin and stdout into raw mode and returns
// a line editor on it (arrow keys, history) and the function that restores
// the terminal; nil when either is not a terminal, or raw mode fails (then
// the shell reads plain lines). The editor writes through w (stdout, or
// stdout recorded in a session log).
func lineEditor(e *env, w io.Writer) (restore func(), ed *shell.Editor) {
	in, ok1 := e.stdin.(*os.File)
	out, ok2 := e.stdout.(*os.File)
	if !ok1 || !ok2 || !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, nil
	}
	old, err := term.MakeRaw(int(in.Fd()))
	if err != nil {
		return nil, nil
	}
	width, _, err := term.GetSize(int(out.Fd()))
	if err != nil {
		width = 0
	}
	return func() { term.Restore(int(in.Fd()), old) }, shell.NewEditor(in, w, width)
}

// interrupts turns Ctrl-C (SIGINT) into a stop for the running search
// instead of killing the program.
func interrupts() (intr <-chan struct{}, stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	ch := make(chan struct{}, 1)
	go func() {
		for range sig {
			select {
			case ch <- struct{}{}:
			default: // one pending interrupt is enough
			}
		}
	}()
	return ch, func() { signal.Stop(sig) }
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
