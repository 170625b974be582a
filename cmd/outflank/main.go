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
)

func main() {
	err := run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	if err != nil {
		var q quietError
		if !errors.As(err, &q) {
			fmt.Fprintln(os.Stderr, "outflank:", err)
		}
		os.Exit(exitCode(err))
	}
}

// env is what a command reads and writes; tests give it buffers.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// quietError ends the program with a non-zero exit status without printing
// anything more (the command already said what went wrong).
type quietError struct{ code int }

func (q quietError) Error() string { return fmt.Sprintf("exit status %d", q.code) }

func exitCode(err error) int {
	var q quietError
	if errors.As(err, &q) {
		return q.code
	}
	return 1
}

func run(args []string, e *env) error {
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
	return c.run(e, args[1:])
}

// defaultCommand runs when outflank is started without arguments: the
// shell for a person at a terminal; otherwise NBoard if the first line is
// "nboard N" (GUIs start engines without arguments), GTP if it is a GTP
// handshake command, else the shell reading a script.
func defaultCommand(e *env) error {
	st, err := defaultSetup("outflank")
	if err != nil {
		return err
	}
	if isTerminalReader(e.stdin) {
		return runShellOn(e, e.stdin, st, 12, 10*time.Second)
	}
	br := bufio.NewReader(e.stdin)
	first, _ := br.ReadString('\n')
	in := io.MultiReader(strings.NewReader(first), br)
	f := strings.Fields(first)
	if len(f) == 2 && f[0] == "nboard" {
		return serveNBoard(e, in, st, 12, 0)
	}
	if len(f) > 1 && strings.Trim(f[0], "0123456789") == "" {
		f = f[1:] // a GTP command id
	}
	if len(f) > 0 && gtpHandshake[f[0]] {
		return serveGTP(e, in, st, 12, 0)
	}
	return runShellOn(e, in, st, 12, 10*time.Second)
}

// gtpHandshake are GTP commands that a GUI sends first and that are not
// shell commands.
var gtpHandshake = map[string]bool{
	"protocol_version": true, "name": true, "version": true, "known_command": true,
	"list_commands": true, "boardsize": true, "clear_board": true, "komi": true, "set_game": true,
}
