package play

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// Value is one move's value as a person reads it: a single number and
// where it comes from, the opening book or the search.
type Value struct {
	Move  bitboard.Square
	Score float64 // final disc difference for the side that plays Move
	// FromBook is set when Score is the book's: the book's search was
	// deeper than this one.
	FromBook bool
	// Exact: the search proved Score (an exact solve); WLD: only as a
	// win (+1), draw (0) or loss (-1).
	Exact, WLD bool
	// Depth and Selectivity (percent) of the search behind Score, the
	// book's or this one's; Games for a statistics book's move.
	Depth, Selectivity, Games int
}

// Source says where a value comes from, as "book 29@73%", "depth 12@73%",
// "depth 12", "exact" or "book, 137 games".
func (v Value) Source() string {
	switch {
	case v.FromBook && v.Depth == 0:
		return fmt.Sprintf("book, %d games", v.Games)
	case v.FromBook:
		return "book " + DepthText(v.Depth, v.Selectivity)
	case v.Exact && v.WLD:
		return "win/loss/draw solved"
	case v.Exact:
		return "exact"
	}
	return "depth " + DepthText(v.Depth, v.Selectivity)
}

// DepthText writes a search depth as NBoard and Edax show it: "18" for a
// search that made no selective cut, "18@73%" for one whose Multi-ProbCut
// cuts are right with 73% confidence.
func DepthText(depth, selectivity int) string {
	if selectivity > 0 && selectivity < 100 {
		return fmt.Sprintf("%d@%d%%", depth, selectivity)
	}
	return fmt.Sprint(depth)
}

// deeper reports whether a search of depth d1 at selectivity s1 looked
// further than one of d2 at s2: the greater depth, at equal depths the
// surer cuts.
func deeper(d1, s1, d2, s2 int) bool {
	if s1 <= 0 {
		s1 = 100
	}
	if s2 <= 0 {
		s2 = 100
	}
	return d1 > d2 || d1 == d2 && s1 > s2
}

// HintValues merges what the book knows of a position's moves with a
// search of it (its Moves, or its best move alone): each move gets one
// value, the book's where the book's search was deeper than this one and
// the search's otherwise (an exact result always wins; a statistics book's
// games never beat a search). Moves only the book or only the search knows
// keep their one value. The list is sorted best first.
func HintValues(book []BookMove, in search.Info) []Value {
	var out []Value
	index := map[bitboard.Square]int{}
	moves := in.Moves
	if len(moves) == 0 && in.Best != bitboard.NoSquare {
		moves = []search.MoveScore{{Move: in.Best, Score: in.Score}}
	}
	for _, m := range moves {
		index[m.Move] = len(out)
		out = append(out, Value{Move: m.Move, Score: float64(m.Score), Exact: in.Exact, WLD: in.WLD,
			Depth: in.Depth, Selectivity: in.Selectivity})
	}
	for _, b := range book {
		bv := Value{Move: b.Move, Score: b.Score, FromBook: true, Depth: b.Depth, Selectivity: b.Selectivity, Games: b.Games}
		i, searched := index[b.Move]
		switch {
		case !searched:
			index[b.Move] = len(out)
			out = append(out, bv)
		case !out[i].Exact && b.Depth > 0 && deeper(b.Depth, b.Selectivity, out[i].Depth, out[i].Selectivity):
			out[i] = bv
		}
	}
	slices.SortStableFunc(out, func(a, b Value) int { return cmp.Compare(b.Score, a.Score) })
	return out
}
