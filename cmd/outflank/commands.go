package main

import (
	"fmt"
	"math"
	"sort"
	"strconv"
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
	if err := checkNumbers(fs); err != nil {
		return false, fmt.Errorf("%s: %w", fs.Name(), err)
	}
	return true, nil
}

// Numeric flags are checked in one place, as they are parsed: every
// number given must be finite and within its flag's range, which is 0 and
// up unless the flag sets its own (bound, positive, share). So NaN, Inf or
// a negative count is refused with the flag's name before any work starts,
// whatever the command checks later.

// maxHashMB and maxThreads are the largest --hash and --threads.
const (
	maxHashMB  = 1 << 16
	maxThreads = 1024
)

// numRange is the range of a numeric flag; an open end excludes its value.
type numRange struct {
	lo, hi         float64
	loOpen, hiOpen bool
}

// annRange is the flag annotation that holds a numRange.
const annRange = "outflank-range"

func setRange(fs *pflag.FlagSet, name string, r numRange) {
	a := []string{strconv.FormatFloat(r.lo, 'g', -1, 64), strconv.FormatFloat(r.hi, 'g', -1, 64),
		strconv.FormatBool(r.loOpen), strconv.FormatBool(r.hiOpen)}
	if err := fs.SetAnnotation(name, annRange, a); err != nil {
		panic(err) // a misspelt flag name: a programming error
	}
}

// bound sets the range of the numeric flag name of fs to lo..hi, both
// included (math.Inf(1) for no upper limit).
func bound(fs *pflag.FlagSet, name string, lo, hi float64) {
	setRange(fs, name, numRange{lo: lo, hi: hi})
}

// positive bounds a flag to values above 0.
func positive(fs *pflag.FlagSet, name string) {
	setRange(fs, name, numRange{lo: 0, hi: math.Inf(1), loOpen: true})
}

// share bounds a flag to a fraction: above 0 and below 1.
func share(fs *pflag.FlagSet, name string) {
	setRange(fs, name, numRange{lo: 0, hi: 1, loOpen: true, hiOpen: true})
}

func flagRange(f *pflag.Flag) numRange {
	a := f.Annotations[annRange]
	if len(a) != 4 {
		return numRange{lo: 0, hi: math.Inf(1)}
	}
	var r numRange
	r.lo, _ = strconv.ParseFloat(a[0], 64)
	r.hi, _ = strconv.ParseFloat(a[1], 64)
	r.loOpen, _ = strconv.ParseBool(a[2])
	r.hiOpen, _ = strconv.ParseBool(a[3])
	return r
}

func (r numRange) contains(v float64) bool {
	return (v > r.lo || !r.loOpen && v == r.lo) && (v < r.hi || !r.hiOpen && v == r.hi)
}

func (r numRange) String() string {
	lo := fmt.Sprintf("at least %g", r.lo)
	if r.loOpen {
		lo = fmt.Sprintf("more than %g", r.lo)
	}
	switch {
	case math.IsInf(r.hi, 1):
		return lo
	case !r.loOpen && !r.hiOpen:
		return fmt.Sprintf("%g to %g", r.lo, r.hi)
	case r.hiOpen:
		return fmt.Sprintf("%s and less than %g", lo, r.hi)
	}
	return fmt.Sprintf("%s and at most %g", lo, r.hi)
}

// checkNumbers checks the numeric flags given on the command line.
func checkNumbers(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if err == nil {
			err = checkNumber(f)
		}
	})
	return err
}

func checkNumber(f *pflag.Flag) error {
	var v float64
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
		x, err := strconv.ParseFloat(f.Value.String(), 64)
		if err != nil {
			return fmt.Errorf("--%s %s: not a number", f.Name, f.Value)
		}
		v = x
	case "duration", "time":
		d, err := time.ParseDuration(f.Value.String())
		if err != nil {
			return fmt.Errorf("--%s %s: not a duration", f.Name, f.Value)
		}
		v = d.Seconds()
	default:
		return nil
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("--%s %s: want a finite number", f.Name, f.Value)
	}
	if r := flagRange(f); !r.contains(v) {
		return fmt.Errorf("--%s %s: want %s", f.Name, f.Value, r)
	}
	return nil
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
