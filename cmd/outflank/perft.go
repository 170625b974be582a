package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
)

func init() {
	register(&command{
		name:    "perft",
		args:    "DEPTH [flags]",
		summary: "Count the leaves of the game tree to each depth (move generator check and speed).",
		details: `Prints, for each depth from 1 to DEPTH, the leaf count, the time and the
leaves per second, one thread, no hash. A pass counts as a ply and a finished
game is a leaf (the standard convention: 4, 12, 56, 244, ... from the start);
--passes=free makes a pass use no ply.`,
		run: runPerft,
	})
}

func runPerft(e *env, args []string) error {
	c := findCommand("perft")
	fs := c.flags(e)
	board := fs.String("board", "", "start from this board (OBF: 64 squares X/O/- and the side to move)")
	passes := fs.String("passes", "ply", "how passes count: \"ply\" (standard) or \"free\"")
	from := fs.Int("from", 1, "first depth to print")
	divide := fs.Bool("divide", false, "also print the count below each move at DEPTH")
	// A negative depth is a bad depth, not a cluster of shorthand flags
	// ("unknown shorthand flag: '3'" for "perft -3").
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "" {
			return fmt.Errorf("perft: depth %q is not a number from 1 to 60", a)
		}
	}
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("perft: want one DEPTH argument, got %d", fs.NArg())
	}
	depth, err := strconv.Atoi(fs.Arg(0))
	if err != nil || depth < 1 || depth > 60 {
		return fmt.Errorf("perft: depth %q is not a number from 1 to 60", fs.Arg(0))
	}
	passIsPly := true
	switch *passes {
	case "ply":
	case "free":
		passIsPly = false
	default:
		return fmt.Errorf("perft: --passes=%q: want ply or free", *passes)
	}
	if *from < 1 || *from > depth {
		return fmt.Errorf("perft: --from %d: want a depth from 1 to DEPTH (%d)", *from, depth)
	}
	pos := bitboard.Start()
	if *board != "" {
		if pos, err = bitboard.ParseBoard(*board); err != nil {
			return fmt.Errorf("perft: --board: %s", strings.TrimPrefix(err.Error(), "board: "))
		}
		// The boards solve refuses (no game reaches them) are refused here too.
		if err := checkReachable(pos); err != nil {
			return fmt.Errorf("perft: --board: %w", err)
		}
	}
	fmt.Fprintln(e.stdout, bench.CPULine())
	fmt.Fprintf(e.stdout, "path: %s\n", bitboard.AsmPath())
	// CPU seconds are printed beside wall seconds: on a shared machine they
	// show what the search itself cost.
	fmt.Fprintf(e.stdout, "%5s %18s %10s %10s %14s\n", "depth", "leaves", "seconds", "cpu s", "leaves/s")
	for d := *from; d <= depth; d++ {
		t0, c0 := time.Now(), cpuTime()
		n := bitboard.Perft(pos, d, passIsPly)
		s, cs := time.Since(t0).Seconds(), cpuTime()-c0
		fmt.Fprintf(e.stdout, "%5d %18d %10.3f %10.3f %14.0f\n", d, n, s, cs, float64(n)/max(s, 1e-9))
	}
	if *divide {
		div := bitboard.PerftDivide(pos, depth, passIsPly)
		for sq := bitboard.Square(0); sq <= bitboard.PassMove; sq++ {
			if n, ok := div[sq]; ok {
				fmt.Fprintf(e.stdout, "%s %d\n", sq, n)
			}
		}
	}
	return nil
}
