package benchrun

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/spf13/pflag"
)

// PerftFlags are the flags of "outflank perft".
type PerftFlags struct {
	board  *string
	passes *string
	from   *int
	divide *bool
	fs     *pflag.FlagSet
}

// AddPerftFlags declares the flags of "outflank perft" on fs.
func AddPerftFlags(fs *pflag.FlagSet) *PerftFlags {
	f := &PerftFlags{
		board:  fs.String("board", "", "start from this board (OBF: 64 squares X/O/- and the side to move)"),
		passes: fs.String("passes", "ply", "how passes count: \"ply\" (standard) or \"free\""),
		from:   fs.Int("from", 1, "first depth to print"),
		divide: fs.Bool("divide", false, "also print the count below each move at DEPTH"),
		fs:     fs,
	}
	return f
}

// CheckPerftArgs refuses a negative depth before the flags are parsed:
// it is a bad depth, not a cluster of shorthand flags ("unknown shorthand
// flag: '3'" for "perft -3").
func CheckPerftArgs(args []string) error {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "" {
			return fmt.Errorf("perft: depth %q is not a number from 1 to 60", a)
		}
	}
	return nil
}

// Perft runs "outflank perft" with the parsed flags and the arguments left.
func Perft(e *cli.Env, f *PerftFlags, args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("perft: want one DEPTH argument, got %d", len(args))
	}
	depth, err := strconv.Atoi(args[0])
	if err != nil || depth < 1 || depth > 60 {
		return fmt.Errorf("perft: depth %q is not a number from 1 to 60", args[0])
	}
	passIsPly := true
	switch *f.passes {
	case "ply":
	case "free":
		passIsPly = false
	default:
		return fmt.Errorf("perft: --passes=%q: want ply or free", *f.passes)
	}
	if *f.from < 1 || *f.from > depth {
		return fmt.Errorf("perft: --from %d: want a depth from 1 to DEPTH (%d)", *f.from, depth)
	}
	pos := bitboard.Start()
	if *f.board != "" {
		if pos, err = bitboard.ParseBoard(*f.board); err != nil {
			return fmt.Errorf("perft: --board: %s", strings.TrimPrefix(err.Error(), "board: "))
		}
		// The boards solve refuses (no game reaches them) are refused here too.
		if err := cli.CheckReachable(pos); err != nil {
			return fmt.Errorf("perft: --board: %w", err)
		}
	}
	fmt.Fprintln(e.Stdout, bench.CPULine())
	fmt.Fprintf(e.Stdout, "path: %s\n", bitboard.AsmPath())
	// CPU seconds are printed beside wall seconds: on a shared machine they
	// show what the search itself cost.
	fmt.Fprintf(e.Stdout, "%5s %18s %10s %10s %14s\n", "depth", "leaves", "seconds", "cpu s", "leaves/s")
	for d := *f.from; d <= depth; d++ {
		t0, c0 := time.Now(), cli.CPUTime()
		n := bitboard.Perft(pos, d, passIsPly)
		s, cs := time.Since(t0).Seconds(), cli.CPUTime()-c0
		fmt.Fprintf(e.Stdout, "%5d %18d %10.3f %10.3f %14.0f\n", d, n, s, cs, float64(n)/max(s, 1e-9))
	}
	if *f.divide {
		div := bitboard.PerftDivide(pos, depth, passIsPly)
		for sq := bitboard.Square(0); sq <= bitboard.PassMove; sq++ {
			if n, ok := div[sq]; ok {
				fmt.Fprintf(e.Stdout, "%s %d\n", sq, n)
			}
		}
	}
	return nil
}
