package book

import (
	"context"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

func TestCompare(t *testing.T) {
	grown := New()
	if _, err := grown.Grow(context.Background(), standIn, GrowOptions{Window: 4, PathWindow: 6, MaxPly: 4, Positions: 12}); err != nil {
		t.Fatal(err)
	}
	leaves, inexact := 0, 0
	// A leaf move's position (canonical), not its node's best nor the
	// same position as the best's by a symmetry.
	var target bitboard.Position
	var from bitboard.Position
	for k := range grown.all() {
		ms := grown.Moves(k.position())
		for i, m := range ms {
			if m.InBook {
				continue
			}
			leaves++
			if !m.Exact {
				inexact++
				c, _ := k.position().Play(m.Square).Canonical()
				bc, _ := k.position().Play(ms[0].Square).Canonical()
				if i > 0 && (c.Player != bc.Player || c.Opponent != bc.Opponent) && target.Player|target.Opponent == 0 {
					from, target = k.position(), c
				}
			}
		}
	}
	if leaves == 0 || target.Player|target.Opponent == 0 {
		t.Fatal("the grown book has no leaf below its node's best: the test proves nothing")
	}

	same := Compare(grown, grown)
	if same.Positions != grown.Len() || same.Leaves != leaves || same.Revalued != 0 || same.Choices != 0 || len(same.Shift) != 0 {
		t.Errorf("a book against itself: %+v, want %d positions, %d leaves, nothing changed", same, grown.Len(), leaves)
	}

	revalue := func(shift func(bitboard.Position) int) *Book {
		c := New()
		c.Merge(grown)
		deeper := ValuerFunc(func(ctx context.Context, p bitboard.Position) (Valuation, error) {
			v, err := standIn.Value(ctx, p)
			v.Depth, v.Selectivity = 10, 100
			v.Score += shift(p)
			return v, err
		})
		if _, err := c.Revalue(context.Background(), deeper, RevalueOptions{MinDepth: 9}, nil); err != nil {
			t.Fatal(err)
		}
		return c
	}

	deeper := Compare(grown, revalue(func(bitboard.Position) int { return 0 }))
	if deeper.Revalued != inexact || deeper.Deeper != inexact || deeper.Shift[0] != inexact || len(deeper.Shift) != 1 || deeper.Choices != 0 {
		t.Errorf("every leaf deeper, the same values: %+v, want %d revalued and deeper, all by 0, no choice changed", deeper, inexact)
	}

	// The target position 20 discs worse for the side to move there: the
	// move into it 20 better for the side that plays it, now its node's
	// best.
	raised := revalue(func(p bitboard.Position) int {
		if c, _ := p.Canonical(); c.Player == target.Player && c.Opponent == target.Opponent {
			return -20
		}
		return 0
	})
	d := Compare(grown, raised)
	if d.Shift[20] < 1 || d.Shift[0]+d.Shift[20] != inexact || len(d.Shift) != 2 {
		t.Errorf("one leaf raised by 20: shifts %v, want one or more at +20 (transpositions) and the other %d at 0", d.Shift, inexact)
	}
	if ChoiceLoss(grown.Moves(from), raised.Moves(from)) <= 0 || d.Choices < 1 || d.Loss < d.Choices {
		t.Errorf("one leaf raised by 20 over its node's best: %d choices changed, want its node's: %v, now %v", d.Choices, grown.Moves(from), raised.Moves(from))
	}
}

func TestChoiceLoss(t *testing.T) {
	a, b, c := bitboard.Square(19), bitboard.Square(26), bitboard.Square(37)
	mv := func(sq bitboard.Square, v int) Move { return Move{Square: sq, Value: v} }
	for _, tc := range []struct {
		old, new []Move
		want     int
	}{
		{[]Move{mv(a, 2), mv(b, 1)}, []Move{mv(b, 3), mv(a, 2)}, 1},
		{[]Move{mv(a, 2), mv(b, 1)}, []Move{mv(b, 5), mv(c, 1), mv(a, -2)}, 7},
		{[]Move{mv(a, 2), mv(b, 1)}, []Move{mv(b, 2), mv(a, 2)}, 0}, // a tie: still one of the best
		{[]Move{mv(a, 2), mv(b, 1)}, []Move{mv(a, 0), mv(b, -1)}, 0},
		{[]Move{mv(a, 2)}, []Move{mv(c, 1)}, 0},
		{nil, []Move{mv(a, 1)}, 0},
		{[]Move{mv(a, 1)}, nil, 0},
	} {
		if got := ChoiceLoss(tc.old, tc.new); got != tc.want {
			t.Errorf("ChoiceLoss(%v, %v) = %v, want %v", tc.old, tc.new, got, tc.want)
		}
	}
}
