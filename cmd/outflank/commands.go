package main

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
)

// helpWidth is the width help text is wrapped to: a terminal's 80 columns.
const helpWidth = 80

// command is one subcommand. Each lives in its own file and adds itself to
// the list from an init function, so commands can be added without touching
// a shared table.
type command struct {
	name    string
	args    string // synopsis of the arguments, e.g. "DEPTH [flags]"
	summary string // one line for "outflank help"
	details string // extra paragraphs for "outflank CMD --help"
	run     func(e *env, args []string) error
}

var commands []*command // filled by init functions, read-only afterwards

func register(c *command) { commands = append(commands, c) }

func findCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// flags returns a flag set for c whose --help prints the command's usage
// on stdout (asked-for help is output, not an error).
func (c *command) flags(e *env) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "Usage: outflank %s %s\n\n%s\n", c.name, c.args, strings.Join(textio.Wrap(c.summary, helpWidth), "\n"))
		if c.details != "" {
			fmt.Fprintf(e.stdout, "\n%s\n", strings.TrimSpace(c.details))
		}
		if fs.HasFlags() {
			fmt.Fprintf(e.stdout, "\nFlags:\n%s", fs.FlagUsagesWrapped(helpWidth))
		}
	}
	return fs
}

// parse parses flags; --help prints usage and ends the command without error.
func parse(fs *pflag.FlagSet, args []string) (ok bool, err error) {
	err = fs.Parse(args)
	if err == pflag.ErrHelp {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", fs.Name(), err)
	}
	return true, nil
}

func init() {
	register(&command{
		name:    "help",
		args:    "[COMMAND]",
		summary: "List the commands, or explain one.",
		run: func(e *env, args []string) error {
			if len(args) > 0 {
				if args[0] == "--help" || args[0] == "-h" {
					args[0] = "help"
				}
				c := findCommand(args[0])
				if c == nil {
					return fmt.Errorf("help: unknown command %q (run \"outflank help\" for the list)", args[0])
				}
				if c.name == "help" {
					c.flags(e).Usage()
					return nil
				}
				// Exactly what "outflank CMD --help" prints: the command's
				// own flag set knows its flags.
				return c.run(e, []string{"--help"})
			}
			fmt.Fprintln(e.stdout, "Outflank, an Othello engine and exact endgame solver.")
			fmt.Fprintln(e.stdout, "\nUsage: outflank COMMAND [arguments]\n\nCommands:")
			sorted := append([]*command(nil), commands...)
			sort.Slice(sorted, func(i, j int) bool { return sorted[i].name < sorted[j].name })
			col := 0 // the summaries' column: after the longest name
			for _, c := range sorted {
				col = max(col, len(c.name))
			}
			for _, c := range sorted {
				// The summary wrapped beside the name, to fit a terminal.
				for i, l := range textio.Wrap(c.summary, helpWidth-col-3) {
					name := ""
					if i == 0 {
						name = c.name
					}
					fmt.Fprintf(e.stdout, "  %-*s %s\n", col, name, l)
				}
			}
			fmt.Fprintln(e.stdout, "\nRun \"outflank help COMMAND\" (or \"outflank COMMAND --help\") for the\narguments and flags of a command.")
			return nil
		},
	})
}

// timeValue is a --time flag that takes both forms people write: seconds
// ("5", "2.5") and durations with a unit ("5s", "500ms"), as the shell's
// "time" command does (play.ParseTime).
type timeValue time.Duration

func (t *timeValue) String() string { return time.Duration(*t).String() }
func (t *timeValue) Type() string   { return "time" }
func (t *timeValue) Set(s string) error {
	d, err := play.ParseTime(s)
	if err != nil {
		return err
	}
	*t = timeValue(d)
	return nil
}

// timeFlag defines a time flag on fs (see timeValue).
func timeFlag(fs *pflag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	p := new(time.Duration)
	*p = value
	fs.Var((*timeValue)(p), name, usage)
	return p
}
