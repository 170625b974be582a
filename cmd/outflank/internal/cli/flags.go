// Package cli is what every command of outflank shares: its streams (Env),
// the flag set of a command with numeric ranges checked as flags are
// parsed, the --time flag, progress displays, the session log, the
// version line and the small helpers that two commands need (move names,
// terminal checks, shard and range arguments). It sits below every
// command's package and above the engine.
package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
)

// HelpWidth is the width help text is wrapped to: a terminal's 80 columns.
const HelpWidth = 80

// Env is what a command reads and writes; tests give it buffers.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// QuietError ends the program with a non-zero exit status without printing
// anything more (the command already said what went wrong).
type QuietError struct{ Code int }

func (q QuietError) Error() string { return fmt.Sprintf("exit status %d", q.Code) }

// ExitCode is the exit status for err: a QuietError's code, else 1.
func ExitCode(err error) int {
	var q QuietError
	if errors.As(err, &q) {
		return q.Code
	}
	return 1
}

// Command is one subcommand of outflank: its name, the synopsis of its
// arguments ("DEPTH [flags]"), one line for "outflank help", extra
// paragraphs for "outflank CMD --help", and what it does.
type Command struct {
	Name    string
	Args    string
	Summary string
	Details string
	Run     func(e *Env, args []string) error
}

// FlagSet returns a flag set for c whose --help prints the command's usage
// on stdout (asked-for help is output, not an error).
func (c *Command) FlagSet(e *Env) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.Name, pflag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.SortFlags = false
	fs.Usage = func() {
		fmt.Fprintf(e.Stdout, "Usage: outflank %s %s\n\n%s\n", c.Name, c.Args, strings.Join(textio.Wrap(c.Summary, HelpWidth), "\n"))
		if c.Details != "" {
			fmt.Fprintf(e.Stdout, "\n%s\n", strings.TrimSpace(c.Details))
		}
		if fs.HasFlags() {
			fmt.Fprintf(e.Stdout, "\nFlags:\n%s", fs.FlagUsagesWrapped(HelpWidth))
		}
	}
	return fs
}

// Parse parses flags; --help prints usage and ends the command without
// error (ok false, err nil).
func Parse(fs *pflag.FlagSet, args []string) (ok bool, err error) {
	err = fs.Parse(args)
	if err == pflag.ErrHelp {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", fs.Name(), badNumber(fs, err))
	}
	if err := checkNumbers(fs); err != nil {
		return false, fmt.Errorf("%s: %w", fs.Name(), err)
	}
	return true, nil
}

// Numeric flags are checked in one place, as they are parsed: every
// number given must be finite and within its flag's range, which is 0 and
// up unless the flag sets its own (Bound, Positive, Share). So NaN, Inf or
// a negative count is refused with the flag's name before any work starts,
// whatever the command checks later.

// badArgument is pflag's error for a value its flag cannot hold.
var badArgument = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-., )?--([^"]+)" flag: `)

// badNumber says what a numeric flag wants when its value is not a number
// of its kind ("--depth NaN: want 1 to 60"), as checkNumber does for a
// number out of range, instead of the parser's own words.
func badNumber(fs *pflag.FlagSet, err error) error {
	m := badArgument.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	f := fs.Lookup(m[2])
	if f == nil {
		return err
	}
	switch f.Value.Type() {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float32", "float64":
		return fmt.Errorf("--%s %s: want %s", f.Name, m[1], flagRange(f))
	}
	return err
}

// EveryCore marks a flag whose default is the machine's core count: its
// help says "(default every core)", the same on every machine, instead of
// this machine's count.
func EveryCore(fs *pflag.FlagSet, name string) {
	fs.Lookup(name).DefValue = "every core"
}

// MaxHashMB and MaxThreads are the largest --hash and --threads (and
// --workers, --concurrency): every command's thread count is bounded by
// this one figure.
const (
	MaxHashMB  = 1 << 16
	MaxThreads = 1024
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

// Bound sets the range of the numeric flag name of fs to lo..hi, both
// included (math.Inf(1) for no upper limit).
func Bound(fs *pflag.FlagSet, name string, lo, hi float64) {
	setRange(fs, name, numRange{lo: lo, hi: hi})
}

// Positive bounds a flag to values above 0.
func Positive(fs *pflag.FlagSet, name string) {
	setRange(fs, name, numRange{lo: 0, hi: math.Inf(1), loOpen: true})
}

// Share bounds a flag to a fraction: above 0 and below 1.
func Share(fs *pflag.FlagSet, name string) {
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

// TimeFlag defines a time flag on fs (see timeValue).
func TimeFlag(fs *pflag.FlagSet, name string, value time.Duration, usage string) *time.Duration {
	p := new(time.Duration)
	*p = value
	fs.Var((*timeValue)(p), name, usage)
	return p
}
