package book

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// thawed returns a copy of b in the map form, through its file.
func thawed(t *testing.T, b *Book) *Book {
	t.Helper()
	m := readBack(t, b)
	m.thaw()
	return m
}

// readBack returns b written and read again: the flat form.
func readBack(t *testing.T, b *Book) *Book {
	t.Helper()
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	r, err := Read(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if r.flat == nil || r.nodes != nil {
		t.Fatal("a book read from a file is not in the flat form")
	}
	return r
}

// sameReads checks that the flat book f answers every read as the map
// book m does: each position in one of its eight forms (and each position
// its moves lead to, most of them not in the book), the file and the
// text, the statistics, and Under at every step-th position.
func sameReads(t *testing.T, f, m *Book, step int) {
	t.Helper()
	if f.Len() != m.Len() {
		t.Fatalf("%d positions flat, %d in the map", f.Len(), m.Len())
	}
	i := 0
	for k := range m.all() {
		pos := k.position()
		s := bitboard.Symmetry(i % 8)
		pos = bitboard.Position{Player: s.Apply(pos.Player), Opponent: s.Apply(pos.Opponent)}
		if !f.Contains(pos) {
			t.Fatalf("position %d not in the flat book", i)
		}
		fm, mm := f.Moves(pos), m.Moves(pos)
		if !reflect.DeepEqual(fm, mm) {
			t.Fatalf("position %d: moves %v flat, %v in the map", i, fm, mm)
		}
		for _, x := range mm {
			if i%step != 0 && i%10 != 0 { // enough of the children
				break
			}
			c := pos.Play(x.Square)
			if f.Contains(c) != m.Contains(c) || !reflect.DeepEqual(f.Moves(c), m.Moves(c)) {
				t.Fatalf("position %d, move %s: the child differs", i, x.Square)
			}
		}
		if i%step == 0 && f.Under(pos) != m.Under(pos) {
			t.Fatalf("position %d: %d under it flat, %d in the map", i, f.Under(pos), m.Under(pos))
		}
		i++
	}
	if !reflect.DeepEqual(f.Stats(), m.Stats()) {
		t.Errorf("stats %+v flat, %+v in the map", f.Stats(), m.Stats())
	}
	var fb, mb bytes.Buffer
	f.Write(&fb)
	m.Write(&mb)
	if !bytes.Equal(fb.Bytes(), mb.Bytes()) {
		t.Error("the files differ")
	}
	if exportString(t, f) != exportString(t, m) {
		t.Error("the exports differ")
	}
}

func TestFlatDefaultBook(t *testing.T) {
	f, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	m := thawed(t, f)
	// Under walks up to the whole book from each position it is asked.
	sameReads(t, f, m, 997)
	if f.flat == nil {
		t.Error("reads thawed the book")
	}
}

// Every change thaws the book first and leaves it as the same change
// leaves the map form.
func TestFlatChanges(t *testing.T) {
	ctx := context.Background()
	g := grown(t)
	var absent bitboard.Position // a position one move past the book
	for k := range g.all() {
		for m := k.position().Moves(); m != 0; m &= m - 1 {
			c := k.position().Play(bitboard.FirstSquare(m))
			if c.Moves() != 0 && !g.Contains(c) {
				absent = c
			}
		}
	}
	game, err := bitboard.ParseMoves("f5d6c3d3c4f4f6f3e6e7")
	if err != nil {
		t.Fatal(err)
	}
	other := New() // overlaps g and reaches past it
	if _, _, err := other.Learn(ctx, bitboard.Start(), game, 10, standIn); err != nil {
		t.Fatal(err)
	}
	changes := []struct {
		name string
		do   func(*Book) error
	}{
		{"expand", func(b *Book) error { _, err := b.Expand(ctx, absent, standIn); return err }},
		{"learn", func(b *Book) error {
			_, _, err := b.Learn(ctx, bitboard.Start(), game, 10, standIn)
			return err
		}},
		{"grow", func(b *Book) error {
			_, err := b.Grow(ctx, standIn, GrowOptions{Window: 3, PathWindow: 5, MaxPly: 7, Positions: 5})
			return err
		}},
		{"merge", func(b *Book) error { b.Merge(readBack(t, other)); return nil }},
		{"parity", func(b *Book) error { return b.SetParityOffset(3) }},
		{"negamax", func(b *Book) error { b.Negamax(); return nil }},
		{"adopt", func(b *Book) error { _, err := b.Adopt("test-eval"); return err }},
		{"revalue", func(b *Book) error {
			_, err := b.Revalue(ctx, standIn, RevalueOptions{MinDepth: 5}, nil)
			return err
		}},
	}
	for _, c := range changes {
		f, m := readBack(t, g), thawed(t, g)
		n := f.Len()
		if err := c.do(f); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := c.do(m); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.flat != nil && exportString(t, f) != exportString(t, g) {
			t.Errorf("%s: changed the book without thawing it", c.name)
		}
		if f.Len() == n && (c.name == "expand" || c.name == "learn" || c.name == "grow" || c.name == "merge") {
			t.Errorf("%s: added no position to a book of %d", c.name, n)
		}
		sameReads(t, f, m, 1)
		// and both read back as the flat form does
		sameReads(t, readBack(t, f), m, 1)
	}
	if !slices.Equal(readBack(t, g).keys(), thawed(t, g).keys()) {
		t.Error("the keys differ")
	}
}
