package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

// numericFlag matches a numeric flag in a command's --help.
var numericFlag = regexp.MustCompile(`^\s+(?:-\w, )?--([a-z0-9-]+) (int|int64|uint|uint64|float|float64|duration|time)\b`)

// mayBeNegative lists the numeric flags with negative values in range;
// they are tried with a value far outside it instead.
var mayBeNegative = map[string]bool{"parity-offset": true}

// zeroRefused lists flags for which 0 makes no sense, by command.
var zeroRefused = map[string][]string{
	"train":         {"batch", "epochs", "rate", "final-rate", "holdout", "workers", "stage-tie", "search-every"},
	"selfplay":      {"block", "workers", "hash", "depth"},
	"match":         {"concurrency"},
	"nboard":        {"hash", "threads", "depth"},
	"gtp":           {"hash", "threads", "depth"},
	"shell":         {"hash", "threads"},
	"web":           {"hash", "threads"},
	"solve":         {"hash", "threads"},
	"bench":         {"hash", "threads"},
	"bench-midgame": {"hash", "threads", "positions"},
	"book grow":     {"hash", "depth"},
	"evalcheck":     {"hash", "ffo-depth", "depth"},
	"puzzle":        {"hash"},
}

// TestNumericFlags walks every command's flags and gives each numeric
// flag NaN, Inf, -Inf and a negative number (and 0 where 0 makes no
// sense): each must be refused in one line naming the flag, before the
// command does anything.
func TestNumericFlags(t *testing.T) {
	tried := 0
	for _, c := range commands {
		for _, name := range commandNames(c) {
			words := strings.Fields(name)
			help, _ := runFlagCheck(t, append(words, "--help")...)
			_, flagsPart, _ := strings.Cut(help, "\nFlags:\n")
			for _, l := range strings.Split(flagsPart, "\n") {
				m := numericFlag.FindStringSubmatch(l)
				if m == nil {
					continue
				}
				flag := m[1]
				vals := []string{"NaN", "Inf", "-Inf", "+Inf", "-5"}
				if mayBeNegative[flag] {
					vals[4] = "-1000000"
				}
				for _, z := range zeroRefused[name] {
					if z == flag {
						vals = append(vals, "0")
					}
				}
				for _, v := range vals {
					tried++
					_, err := runFlagCheck(t, append(words, "--"+flag+"="+v)...)
					if err == nil || !strings.Contains(err.Error(), "--"+flag) || strings.Contains(err.Error(), "\n") {
						t.Errorf("%s --%s=%s: %v", name, flag, v, err)
					}
				}
			}
		}
	}
	t.Logf("%d values tried", tried)
	if tried < 300 {
		t.Errorf("tried only %d values: the help format changed?", tried)
	}
}

// commandNames returns c's name and its subcommands' ("book grow", from
// "grow|learn|... [flags]"; "selfplay merge", from "OUT | merge OUT IN...").
func commandNames(c *cli.Command) []string {
	var names []string
	for _, alt := range strings.Split(c.Args, " | ") {
		first, _, _ := strings.Cut(alt, " ")
		if first == "" || strings.ToLower(first) != first || strings.HasPrefix(first, "[") || strings.HasPrefix(first, "-") {
			names = append(names, c.Name)
			continue
		}
		for _, sub := range strings.Split(first, "|") {
			names = append(names, c.Name+" "+sub)
		}
	}
	return names
}

// runFlagCheck runs outflank in this process with no input, failing the
// test if it does not end (a flag let through to a server or a search).
func runFlagCheck(t *testing.T, args ...string) (string, error) {
	t.Helper()
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		err := run(args, &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		done <- result{out.String(), err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(20 * time.Second):
		t.Fatalf("%q still running after 20s", args)
	}
	return "", nil
}
