package bitboard

import (
	"fmt"
	"strings"
)

// Square is a board square, 0 (a1) to 63 (h8), or one of the special values
// PassMove and NoSquare.
type Square int8

const (
	// PassMove stands for a pass in move lists and games.
	PassMove Square = 64
	// NoSquare means "no move", e.g. the best move of a finished game.
	NoSquare Square = -1
)

// SquareAt returns the square at column col (0 = a) and row row (0 = 1).
func SquareAt(col, row int) Square { return Square(row*8 + col) }

// Col returns the column, 0 (a) to 7 (h).
func (s Square) Col() int { return int(s) & 7 }

// Row returns the row, 0 (row 1) to 7 (row 8).
func (s Square) Row() int { return int(s) >> 3 }

// Bit returns the bitboard with only s set (0 for PassMove and NoSquare).
func (s Square) Bit() uint64 {
	if s < 0 || s > 63 {
		return 0
	}
	return 1 << uint(s)
}

// IsBoard reports whether s is one of the 64 board squares.
func (s Square) IsBoard() bool { return s >= 0 && s < 64 }

// String returns the lower-case name of the square ("c4"), "PA" for a pass
// and "--" for NoSquare.
func (s Square) String() string {
	switch {
	case s == PassMove:
		return "PA"
	case s.IsBoard():
		return string([]byte{'a' + byte(s.Col()), '1' + byte(s.Row())})
	default:
		return "--"
	}
}

// Upper returns the upper-case name ("C4"), as NBoard and GGF writers use.
func (s Square) Upper() string { return strings.ToUpper(s.String()) }

// ParseSquare reads a square ("c4" or "C4") or a pass ("PA", "pa", "pass",
// "ps", "--", "@@").
func ParseSquare(s string) (Square, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "pa", "pass", "ps", "--", "@@":
		return PassMove, nil
	}
	if len(t) != 2 {
		return NoSquare, fmt.Errorf("bad square %q: want a column a-h and a row 1-8, like c4", s)
	}
	c := t[0] | 0x20 // lower case
	r := t[1]
	if c < 'a' || c > 'h' {
		return NoSquare, fmt.Errorf("bad square %q: column %q is not a-h", s, t[0])
	}
	if r < '1' || r > '8' {
		return NoSquare, fmt.Errorf("bad square %q: row %q is not 1-8", s, t[1])
	}
	return SquareAt(int(c-'a'), int(r-'1')), nil
}

// SquaresString lists the squares of a bitboard in board order, e.g. "c4 d3 e6 f5".
func SquaresString(b uint64) string {
	var sb strings.Builder
	for ; b != 0; b &= b - 1 {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(FirstSquare(b).String())
	}
	return sb.String()
}
