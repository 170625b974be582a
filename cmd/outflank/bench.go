package main

import (
	"encoding/json"
	"fmt"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
)

func init() {
	register(&command{
		name:    "bench",
		args:    "[flags]",
		summary: "Time the exact solver on the FFO endgame suite #40-#59.",
		details: `Solves the FFO positions (built into the binary) one after another on
--threads threads (all cores unless set), clearing the hash table before
each, and prints the machine line, per-position time, nodes and nodes per
second, and the total. Every answer is checked against the known scores.
--positions picks a range, e.g. 40-44.`,
		run: runBench,
	})
}

func runBench(e *env, args []string) error {
	c := findCommand("bench")
	fs := c.flags(e)
	sf := addSolveFlags(fs)
	rng := fs.String("positions", "40-59", "FFO numbers to solve: N or N-M within 40-59")
	prof := fs.String("cpuprofile", "", "write a CPU profile of the solves to `FILE` (for go tool pprof)")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if err := sf.check("bench"); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("bench: unexpected argument %q", fs.Arg(0))
	}
	// Every position is solved exactly, however deep (#59 has 34 empties):
	// no time limit.
	sf.timeSet = true
	lo, hi, err := parseRange(*rng)
	if err != nil {
		return fmt.Errorf("bench: --positions %q: %w", *rng, err)
	}
	all := bench.FFO40to59()
	var es []bitboard.OBFEntry
	var nums []int
	for n := lo; n <= hi; n++ {
		es = append(es, all[n-40])
		nums = append(nums, n)
	}
	if *prof != "" {
		// Profiling the binary itself, not a test, keeps the PGO build
		// and the flags exactly those being measured.
		f, err := atomicfile.Create(*prof)
		if err != nil {
			return fmt.Errorf("bench: --cpuprofile: %w", err)
		}
		defer f.Discard()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("bench: --cpuprofile: %w", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Commit(); err != nil {
				fmt.Fprintf(e.stderr, "bench: --cpuprofile: %v\n", err)
			}
		}()
	}
	if *sf.json {
		b, _ := json.Marshal(map[string]string{"machine": bench.CPULine()})
		fmt.Fprintln(e.stdout, string(b))
	} else {
		fmt.Fprintln(e.stdout, bench.CPULine())
	}
	return solveAll(e, es, nums, sf)
}

func parseRange(s string) (lo, hi int, err error) {
	a, b, found := strings.Cut(s, "-")
	if lo, err = strconv.Atoi(a); err != nil {
		return 0, 0, fmt.Errorf("not a number")
	}
	hi = lo
	if found {
		if hi, err = strconv.Atoi(b); err != nil {
			return 0, 0, fmt.Errorf("not a number")
		}
	}
	if lo < 40 || hi > 59 || lo > hi {
		return 0, 0, fmt.Errorf("want N or N-M with 40 <= N <= M <= 59")
	}
	return lo, hi, nil
}
