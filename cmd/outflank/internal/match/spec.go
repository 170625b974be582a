package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Spec names one engine of a match: this binary in NBoard mode with some
// options ("self:depth=8"), or an external command that speaks NBoard
// ("nboard:edax -q", "nboard,depth=12,dir=/opt/edax:./edax").
type Spec struct {
	Text  string        // the spec as written
	Self  bool          // this binary ("outflank nboard")
	Name  string        // name= option; "" when not given
	Depth int           // depth= option: sent as "set depth N"; 0 = not given
	Time  time.Duration // time= option: per-move time; 0 = not given
	Clock time.Duration // clock= option: time for the whole game (GGF TI); 0 = not given
	Dir   string        // dir= option: working directory of the process
	// Flags are the extra command-line flags of a self engine
	// ("--eval=FILE", "--hash=64"); Command is an external engine's program
	// and arguments.
	Flags   []string
	Command []string
}

// selfFlags maps self options to the flags of "outflank nboard". Keys not
// listed are passed through as --key=value, so new engine flags work
// without changing this file.
var selfFlags = map[string]string{
	"eval":    "--eval",
	"hash":    "--hash",
	"threads": "--threads",
	"book":    "--book",
}

// ParseSpec reads an engine spec:
//
//	self                          this binary, default limits
//	self:depth=8,eval=w.bin       this binary with options
//	nboard:CMD ARGS…              an external NBoard engine
//	nboard,depth=12,dir=D:CMD…    the same with options
//
// Options common to both kinds: depth=N (1–60), time=DUR (per move, "1s",
// "250ms" or seconds "1.5"), clock=DUR (for the whole game, as a GGF clock:
// the engine loses when it thinks longer), name=NAME (label in reports). External engines
// also take dir=PATH; every other self option becomes an "outflank nboard"
// flag (eval=FILE → --eval=FILE, hash=MB, threads=N, a bare key → --key).
func ParseSpec(s string) (Spec, error) {
	sp := Spec{Text: s}
	kind, rest, _ := strings.Cut(s, ":")
	kind, opts, _ := strings.Cut(kind, ",")
	switch strings.TrimSpace(kind) {
	case "self":
		sp.Self = true
		if opts != "" {
			return sp, fmt.Errorf("engine %q: self options go after the colon (self:depth=8)", s)
		}
		opts = rest
	case "nboard":
		args, err := splitCommand(rest)
		if err != nil {
			return sp, fmt.Errorf("engine %q: %w", s, err)
		}
		if len(args) == 0 {
			return sp, fmt.Errorf("engine %q: no command after \"nboard:\"", s)
		}
		sp.Command = args
	default:
		return sp, fmt.Errorf("engine %q: want self[:OPTIONS] or nboard[,OPTIONS]:COMMAND", s)
	}
	for _, o := range strings.Split(opts, ",") {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		key, val, hasVal := strings.Cut(o, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		val = strings.TrimSpace(val)
		if key == "" || strings.ContainsAny(key, " \t") {
			return sp, fmt.Errorf("engine %q: option %q: want KEY=VALUE", s, o)
		}
		switch key {
		case "depth":
			d, err := strconv.Atoi(val)
			if err != nil || d < 1 || d > 60 {
				return sp, fmt.Errorf("engine %q: depth=%q: want a number from 1 to 60", s, val)
			}
			sp.Depth = d
		case "time":
			t, err := ParseDuration(val)
			if err != nil {
				return sp, fmt.Errorf("engine %q: time=%q: %w", s, val, err)
			}
			sp.Time = t
		case "clock":
			t, err := ParseDuration(val)
			if err != nil {
				return sp, fmt.Errorf("engine %q: clock=%q: %w", s, val, err)
			}
			sp.Clock = t
		case "name":
			if val == "" || strings.ContainsAny(val, " \t[]") {
				return sp, fmt.Errorf("engine %q: name=%q: want one word without brackets", s, val)
			}
			sp.Name = val
		case "dir":
			if val == "" {
				return sp, fmt.Errorf("engine %q: dir= needs a directory", s)
			}
			sp.Dir = val
		default:
			if !sp.Self {
				return sp, fmt.Errorf("engine %q: unknown option %q for an external engine (depth, time, name, dir)", s, key)
			}
			flag := selfFlags[key]
			if flag == "" {
				flag = "--" + key
			}
			if hasVal {
				flag += "=" + val
			}
			sp.Flags = append(sp.Flags, flag)
		}
	}
	if sp.Clock > 0 && (sp.Time > 0 || sp.Depth > 0) {
		return sp, fmt.Errorf("engine %q: clock= goes alone: the clock decides the time of each move", s)
	}
	return sp, nil
}

// Label is the name reports use for the engine: name= if given, else the spec.
func (sp Spec) Label() string {
	if sp.Name != "" {
		return sp.Name
	}
	return sp.Text
}

// Argv returns the command line that starts the engine; self is the path of
// this binary.
func (sp Spec) Argv(self string) []string {
	if sp.Self {
		return append([]string{self, "nboard"}, sp.Flags...)
	}
	return append([]string(nil), sp.Command...)
}

// ParseDuration reads a time limit: a Go duration ("1s", "250ms", "1m30s")
// or a plain number of seconds ("1.5").
func ParseDuration(s string) (time.Duration, error) {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f <= 0 || f > 1e6 {
			return 0, fmt.Errorf("want a positive number of seconds")
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("want a positive duration such as 1s or 250ms")
	}
	return d, nil
}

// splitCommand splits a command line into words the way a POSIX shell
// would for simple cases: blanks separate words, single quotes keep text
// as is, double quotes and backslashes escape.
func splitCommand(s string) ([]string, error) {
	var out []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in command")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				w.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unclosed \" in command")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, w.String())
	}
	return out, nil
}
