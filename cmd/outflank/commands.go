package main

import (
	"fmt"
	"sort"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
)

// Each command lives in its own file and adds itself to the list from an
// init function, so commands can be added without touching a shared
// table. A command file parses its flags and hands over to the internal
// package that does the work.
var commands []*cli.Command // filled by init functions, read-only afterwards

func register(c *cli.Command) { commands = append(commands, c) }

func findCommand(name string) *cli.Command {
	for _, c := range commands {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// flagSet is the flag set of the registered command name.
func flagSet(e *cli.Env, name string) *pflag.FlagSet { return findCommand(name).FlagSet(e) }

// noArgs refuses arguments left after the flags.
func noArgs(fs *pflag.FlagSet) error {
	if fs.NArg() != 0 {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

func init() {
	register(&cli.Command{
		Name:    "help",
		Args:    "[COMMAND]",
		Summary: "List the commands, or explain one.",
		Run:     runHelp,
	})
}

func runHelp(e *cli.Env, args []string) error {
	if len(args) > 0 {
		if args[0] == "--help" || args[0] == "-h" {
			args[0] = "help"
		}
		c := findCommand(args[0])
		if c == nil {
			return fmt.Errorf("help: unknown command %q (run \"outflank help\" for the list)", args[0])
		}
		if c.Name == "help" {
			c.FlagSet(e).Usage()
			return nil
		}
		// Exactly what "outflank CMD --help" prints: the command's
		// own flag set knows its flags.
		return c.Run(e, []string{"--help"})
	}
	fmt.Fprintln(e.Stdout, "Outflank, an Othello engine and exact endgame solver.")
	fmt.Fprintln(e.Stdout, "\nUsage: outflank COMMAND [arguments]\n\nCommands:")
	sorted := append([]*cli.Command(nil), commands...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	col := 0 // the summaries' column: after the longest name
	for _, c := range sorted {
		col = max(col, len(c.Name))
	}
	for _, c := range sorted {
		// The summary wrapped beside the name, to fit a terminal.
		for i, l := range textio.Wrap(c.Summary, cli.HelpWidth-col-3) {
			name := ""
			if i == 0 {
				name = c.Name
			}
			fmt.Fprintf(e.Stdout, "  %-*s %s\n", col, name, l)
		}
	}
	fmt.Fprintln(e.Stdout, "\nRun \"outflank help COMMAND\" (or \"outflank COMMAND --help\") for the\narguments and flags of a command. Without a command, outflank opens the\nshell at a terminal, and speaks NBoard or GTP to a GUI that starts it.")
	return nil
}
