// Command outflank is the Outflank Othello engine: one binary with
// subcommands for GUIs (NBoard, GTP), people (an interactive shell) and
// batch work (perft, solve, bench, ...). Run "outflank help" for the list.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/session"
)

func main() {
	err := run(os.Args[1:], &cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		var q cli.QuietError
		if !errors.As(err, &q) {
			fmt.Fprintln(os.Stderr, "outflank:", err)
		}
		os.Exit(cli.ExitCode(err))
	}
}

func run(args []string, e *cli.Env) error {
	if len(args) == 0 {
		return defaultCommand(e)
	}
	name := args[0]
	switch name {
	case "-h", "--help":
		name = "help"
	case "--version":
		name = "version"
	}
	c := findCommand(name)
	if c == nil {
		return fmt.Errorf("unknown command %q (run \"outflank help\" for the list)", name)
	}
	return c.Run(e, args[1:])
}

// defaultCommand runs when outflank is started without arguments: the
// shell for a person at a terminal; otherwise NBoard if the first line is
// "nboard N" (GUIs start engines without arguments), GTP if it is a GTP
// handshake command, else the shell reading a script.
func defaultCommand(e *cli.Env) error {
	st, err := engine.DefaultSetup("outflank")
	if err != nil {
		return err
	}
	if cli.IsTerminalReader(e.Stdin) {
		return session.Shell(e, e.Stdin, st, 12, 10*time.Second)
	}
	br := bufio.NewReader(e.Stdin)
	first, _ := br.ReadString('\n')
	in := io.MultiReader(strings.NewReader(first), br)
	f := strings.Fields(first)
	if len(f) == 2 && f[0] == "nboard" {
		return session.NBoard(e, in, st, 12, 0)
	}
	if len(f) > 1 && strings.Trim(f[0], "0123456789") == "" {
		f = f[1:] // a GTP command id
	}
	if len(f) > 0 && gtpHandshake[f[0]] {
		return session.GTP(e, in, st, 12, 0)
	}
	return session.Shell(e, in, st, 12, 10*time.Second)
}

// gtpHandshake are GTP commands that a GUI sends first and that are not
// shell commands.
var gtpHandshake = map[string]bool{
	"protocol_version": true, "name": true, "version": true, "known_command": true,
	"list_commands": true, "boardsize": true, "clear_board": true, "komi": true, "set_game": true,
}
