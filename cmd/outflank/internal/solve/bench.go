package solve

import (
	"encoding/json"
	"fmt"
	"runtime/pprof"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

// Bench solves the FFO positions of the range positions ("40-59", "45")
// and prints the machine line first; cpuprofile names a file for a CPU
// profile of the solves ("" for none).
func Bench(e *cli.Env, sf *Flags, positions, cpuprofile string) error {
	if err := sf.check("bench"); err != nil {
		return err
	}
	// Every position is solved exactly, however deep (#59 has 34 empties):
	// no time limit.
	sf.timeSet = true
	lo, hi, err := cli.ParseFFORange(positions)
	if err != nil {
		return fmt.Errorf("bench: --positions %q: %w", positions, err)
	}
	all := bench.FFO40to59()
	var es []bitboard.OBFEntry
	var nums []int
	for n := lo; n <= hi; n++ {
		es = append(es, all[n-40])
		nums = append(nums, n)
	}
	if cpuprofile != "" {
		// Profiling the binary itself, not a test, keeps the PGO build
		// and the flags exactly those being measured.
		f, err := atomicfile.Create(cpuprofile)
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
				fmt.Fprintf(e.Stderr, "bench: --cpuprofile: %v\n", err)
			}
		}()
	}
	if *sf.json {
		b, _ := json.Marshal(map[string]string{"machine": bench.CPULine()})
		fmt.Fprintln(e.Stdout, string(b))
	} else {
		fmt.Fprintln(e.Stdout, bench.CPULine())
	}
	return solveAll(e, es, nums, *sf)
}
