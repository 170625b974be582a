package nboard

import (
	"fmt"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
)

// hintLines writes the "book" and "search" lines of one hint the way the
// NBoard GUI keeps them. NBoard holds one hint per square: a later line
// for a square replaces the earlier one, so a search line would overwrite
// a book line's number of games. And when a search line of a new depth
// arrives, NBoard greys the search hints of other depths and drops them
// only at the depth after, so a move that leaves the best N keeps a
// shallow value on screen. Hence: a move sent as a book line gets no
// search line in the same hint, and every move once shown gets a line at
// each new depth.
type hintLines struct {
	write func(format string, args ...any)
	want  int                      // search moves to show beyond the book's
	book  map[bitboard.Square]bool // sent as book lines
	shown []bitboard.Square        // sent as search lines, in first-shown order
	now   map[bitboard.Square]bool // sent at the last depth
}

// newHintLines sends the book lines of a hint for n moves (the book's
// best first, at most n) and returns the writer of its search lines, which
// show the n-k best other moves when k book lines were sent.
func newHintLines(write func(format string, args ...any), n int, book []play.BookMove) *hintLines {
	h := &hintLines{write: write, book: map[bitboard.Square]bool{}}
	for _, b := range book {
		if len(h.book) == n {
			break
		}
		// "book <move> <eval> <games> <depth>": a book valued by search
		// gives the depth (and selectivity) of that search and no games;
		// a statistics book its games and depth 0.
		depth := "0"
		if b.Depth > 0 {
			depth = depthText(search.Info{Depth: b.Depth, Selectivity: b.Selectivity})
		}
		write("book %s %+.2f %d %s", b.Move.Upper(), b.Score, b.Games, depth)
		h.book[b.Move] = true
	}
	h.want = n - len(h.book)
	return h
}

// needSearch reports whether the hint has moves left to search.
func (h *hintLines) needSearch() bool { return h.want > 0 }

// search sends the lines of one search report: the best moves not in the
// book, and every move shown at an earlier depth, each with its value at
// this depth.
func (h *hintLines) search(in search.Info) {
	depth := depthText(in)
	var lines []search.MoveScore
	if len(in.Moves) > 1 {
		lines = in.Moves
	} else if len(in.PV) > 0 {
		lines = []search.MoveScore{{Move: in.PV[0], Score: in.Score}}
	}
	h.now = map[bitboard.Square]bool{}
	rank := 0 // among the moves not in the book
	for _, m := range lines {
		if h.book[m.Move] {
			continue
		}
		rank++
		old := h.wasShown(m.Move)
		if rank > h.want && !old {
			continue
		}
		pv := []bitboard.Square{m.Move}
		if m.Move == in.Best && len(in.PV) > 0 && in.PV[0] == m.Move {
			pv = in.PV
		}
		h.write("search %s %s 0 %s", play.FormatPV(pv), value(in, m.Score), depth)
		h.now[m.Move] = true
		if !old {
			h.shown = append(h.shown, m.Move)
		}
	}
}

// missing lists the moves shown at an earlier depth that the last search
// report did not value (a search for the single best move values no other).
func (h *hintLines) missing() []bitboard.Square {
	var out []bitboard.Square
	for _, m := range h.shown {
		if !h.now[m] {
			out = append(out, m)
		}
	}
	return out
}

// revalue sends the line of move m valued score at the depth of the final
// result in.
func (h *hintLines) revalue(in search.Info, m bitboard.Square, score int) {
	h.write("search %s %s 0 %s", m.Upper(), value(in, score), depthText(in))
	h.now[m] = true
}

func (h *hintLines) wasShown(m bitboard.Square) bool {
	for _, s := range h.shown {
		if s == m {
			return true
		}
	}
	return false
}

// drawPair is how a search line gives a proven draw: NBoard reads a value
// "a,b" as the mover's value if draws count as wins, and if they count as
// losses (its DtB and DtW columns; D=0 shows the neutral value, 0). A win
// is worth 100, as NBoard's own contempt and NTest count it.
const drawPair = "+100.00,-100.00"

// value is a score as a search line gives it: discs for the side to move,
// or the draw pair for a move proven to draw.
func value(in search.Info, score int) string {
	if in.Exact && score == 0 {
		return drawPair
	}
	return fmt.Sprintf("%+.2f", float64(score))
}
