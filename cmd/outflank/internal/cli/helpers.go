package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// IsTerminalReader reports whether r is a terminal: a character device
// other than the null device (which programs that start outflank without
// input give it).
func IsTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}

// MoveName writes a move of a line of play as every Outflank command
// writes them for people: lower case, "pass" for a pass.
func MoveName(m bitboard.Square) string {
	switch m {
	case bitboard.NoSquare:
		return "--"
	case bitboard.PassMove:
		return "pass"
	}
	return m.String()
}

// ClipPV cuts a line of play to at most n bytes, between moves.
func ClipPV(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut between moves, never inside one ("b7 b..."): the last space
	// that leaves room for " ...".
	cut := strings.LastIndexByte(s[:n-3], ' ')
	if cut < 0 {
		return s[:n-3] + "..."
	}
	return s[:cut] + " ..."
}

// Micro rounds seconds to microseconds, so that JSON shows 0.001107, not
// the float noise of a difference (0.0011070000000000038).
func Micro(s float64) float64 { return math.Round(s*1e6) / 1e6 }

// Capitalize writes s with its first letter in upper case ("Black").
func Capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ParseShard reads "K/N" with 1 <= K <= N.
func ParseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || k < 1 || k > n || n > 1<<20 {
		return 0, 0, fmt.Errorf("%q: want K/N with 1 <= K <= N, like 3/100", s)
	}
	return k, n, nil
}

// ParseSpan reads "N" or "N-M" (spaces around the numbers allowed): the
// range lo..hi, hi = lo for "N". It does not check that lo <= hi.
func ParseSpan(s string) (lo, hi int, err error) {
	a, b, found := strings.Cut(s, "-")
	if lo, err = strconv.Atoi(strings.TrimSpace(a)); err != nil {
		return 0, 0, fmt.Errorf("not a number")
	}
	hi = lo
	if found {
		if hi, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("not a number")
		}
	}
	return lo, hi, nil
}

// ParseFFORange reads N or N-M, the FFO positions of the built-in suite
// (40 to 59).
func ParseFFORange(s string) (lo, hi int, err error) {
	if lo, hi, err = ParseSpan(s); err != nil {
		return 0, 0, err
	}
	if lo < 40 || hi > 59 || lo > hi {
		return 0, 0, fmt.Errorf("want N or N-M with 40 <= N <= M <= 59")
	}
	return lo, hi, nil
}

// ReadFile opens name and reads it with read; a parse error names the
// file.
func ReadFile[T any](name string, read func(io.Reader) (T, error)) (T, error) {
	f, err := bitboard.Open(name)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, bitboard.InFile(name, err)
	}
	return v, nil
}

// CheckReachable rejects a board that no game can reach: every game starts
// with the four centre squares occupied, and discs are never removed.
func CheckReachable(p bitboard.Position) error {
	const centre = 1<<27 | 1<<28 | 1<<35 | 1<<36 // d4 e4 d5 e5
	occ := p.Player | p.Opponent
	if n := bits.OnesCount64(occ); n < 4 {
		return fmt.Errorf("board has %d discs: a game position has at least the 4 of the start", n)
	}
	if occ&centre != centre {
		return errors.New("board has an empty centre square (d4, e4, d5, e5): no game can reach it")
	}
	return nil
}

// Interruptible returns a context that Ctrl-C cancels, so that a long run
// stops at a clean point and saves; limit > 0 also ends it after that long.
func Interruptible(limit time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if limit <= 0 {
		return ctx, stop
	}
	ctx2, cancel := context.WithTimeout(ctx, limit)
	return ctx2, func() { cancel(); stop() }
}
