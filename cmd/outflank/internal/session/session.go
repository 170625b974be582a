// Package session starts the front ends on an engine set-up: the shell,
// NBoard and GTP on a stream, and the web board on a listener. The
// protocols themselves are packages shell, nboard, gtp and web; this
// package gives them the engine, the book, the session log and, at a
// terminal, the line editor and Ctrl-C, so that outflank's commands and
// its default command start them the same way.
package session

import (
	"errors"
	"io"
	"os"
	"os/signal"
	"time"

	"golang.org/x/term"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/gtp"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/nboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/shell"
)

// Name is the engine's name as the front ends give it.
const Name = "Outflank"

// GTP speaks GTP on in and e's output.
func GTP(e *cli.Env, in io.Reader, st engine.Setup, depth int, maxTime time.Duration) error {
	return gtp.Run(in, e.Stdout, engine.NewSearcher(st.Opts), gtp.Config{Name: Name, Version: cli.Version(), Threads: st.Opts.Threads, Depth: depth, Time: maxTime, Book: st.Book, Ponder: st.Ponder})
}

// NBoard speaks the NBoard protocol on in and e's output.
func NBoard(e *cli.Env, in io.Reader, st engine.Setup, depth int, maxTime time.Duration) error {
	return nboard.Run(in, e.Stdout, e.Stderr, engine.NewSearcher(st.Opts), nboard.Config{Name: Name, Threads: st.Opts.Threads, Depth: depth, Time: maxTime, Book: st.Book, Ponder: st.Ponder})
}

// Logged runs serve on e's streams recorded in the session log st.Log
// (none when it is ""): the protocol commands' one set-up.
func Logged(e *cli.Env, what string, st engine.Setup, serve func(e *cli.Env) error) error {
	le, done, err := cli.WithSessionLog(e, st.Log, what)
	if err != nil {
		return err
	}
	defer done()
	return serve(le)
}

// Shell runs the shell on in; the default command calls it too. A
// script (input not a terminal) with a failed command ends with exit
// status 1, each error having been printed already.
func Shell(e *cli.Env, in io.Reader, st engine.Setup, level int, moveTime time.Duration) error {
	cfg := shell.Config{Name: Name, Version: cli.Version(), Interactive: cli.IsTerminalReader(e.Stdin),
		Level: level, Time: moveTime, Options: st.Opts, Book: st.Book}
	// With --log, the streams are recorded; at a terminal the line
	// editor's output is (it echoes what is typed), not its raw keys.
	le, done, err := cli.WithSessionLog(e, st.Log, "shell")
	if err != nil {
		return err
	}
	defer done()
	if in == e.Stdin {
		in = le.Stdin
	}
	if cfg.Interactive {
		restore, ed := lineEditor(e, le.Stdout)
		if ed != nil {
			defer restore()
			cfg.Editor = ed
		} else {
			intr, stop := interrupts()
			defer stop()
			cfg.Interrupt = intr
		}
	}
	err = shell.Run(in, le.Stdout, le.Stderr, engine.NewSearcher, cfg)
	if errors.Is(err, shell.ErrScript) {
		return cli.QuietError{Code: 1}
	}
	return err
}

// lineEditor puts a terminal on stdin and stdout into raw mode and returns
// a line editor on it (arrow keys, history) and the function that restores
// the terminal; nil when either is not a terminal, or raw mode fails (then
// the shell reads plain lines). The editor writes through w (stdout, or
// stdout recorded in a session log).
func lineEditor(e *cli.Env, w io.Writer) (restore func(), ed *shell.Editor) {
	in, ok1 := e.Stdin.(*os.File)
	out, ok2 := e.Stdout.(*os.File)
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
