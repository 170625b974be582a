package play

import (
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// TestHintValues: each move gets one value, the deeper of the book's and
// the search's; an exact search always wins, a statistics book never
// beats a search, and moves only one side knows keep their value.
func TestHintValues(t *testing.T) {
	sq := func(s string) bitboard.Square { q, _ := bitboard.ParseSquare(s); return q }
	book := []BookMove{
		{Move: sq("c3"), Score: -2, Depth: 14, Selectivity: 95},
		{Move: sq("c4"), Score: -2.5, Depth: 14, Selectivity: 95},
		{Move: sq("c5"), Score: -3, Games: 900},
		{Move: sq("c6"), Score: -5, Depth: 12, Selectivity: 95},
	}
	in := search.Info{Depth: 12, Selectivity: 73, Score: 1, Best: sq("c3"), Moves: []search.MoveScore{
		{Move: sq("c3"), Score: 1}, {Move: sq("c5"), Score: 0}, {Move: sq("c6"), Score: -7}, {Move: sq("c7"), Score: -17}}}
	want := []struct {
		move, source string
		score        float64
	}{
		{"c5", "depth 12@73%", 0},   // a statistics book loses to a search
		{"c3", "book 14@95%", -2},   // the book's search was deeper
		{"c4", "book 14@95%", -2.5}, // only the book knows it
		{"c6", "book 12@95%", -5},   // same depth, surer cuts
		{"c7", "depth 12@73%", -17}, // only the search knows it
	}
	got := HintValues(book, in)
	if len(got) != len(want) {
		t.Fatalf("%d values, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		if g := got[i]; g.Move != sq(w.move) || g.Source() != w.source || g.Score != w.score {
			t.Errorf("value %d: %s %v (%s), want %s %v (%s)", i, g.Move, g.Score, g.Source(), w.move, w.score, w.source)
		}
	}
	in.Exact, in.Selectivity, in.Depth = true, 100, 20
	for _, v := range HintValues(book, in) {
		if v.Move == sq("c3") && (v.FromBook || v.Source() != "exact") {
			t.Errorf("an exact search lost to the book: %+v", v)
		}
	}
}
