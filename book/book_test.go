package book

import (
	"bytes"
	"errors"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

func moves(t *testing.T, s string) []bitboard.Square {
	t.Helper()
	m, err := bitboard.ParseMoves(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestAddGameAndProbe(t *testing.T) {
	b := New(4)
	// Two games through f5 d6 (black wins by 10, then loses by 2), one through
	// f5 f6 (black wins by 20). d3 is f5 mirrored: it shares the entries.
	for _, g := range []struct {
		line string
		diff int
	}{{"f5d6c3d3", 10}, {"f5d6c5f4", -2}, {"f5f6e6f4", 20}} {
		if err := b.AddGame(bitboard.Start(), moves(t, g.line), g.diff); err != nil {
			t.Fatal(err)
		}
	}
	start := bitboard.Start()
	if e, ok := b.Lookup(start); !ok || e.Games != 3 || e.ScoreSum != 28 {
		t.Fatalf("start entry %+v %v", e, ok)
	}
	afterF5, _ := bitboard.PlayTranscript(start, "f5")
	// White to move after f5: scores are white's.
	if e, _ := b.Lookup(afterF5); e.Games != 3 || e.ScoreSum != -28 {
		t.Errorf("f5 entry %+v", e)
	}
	afterD3, _ := bitboard.PlayTranscript(start, "d3")
	if e, _ := b.Lookup(afterD3); e.Games != 3 {
		t.Errorf("symmetric d3 not found with f5's entry: %+v", e)
	}
	// White's choices after f5: f6 (white lost by 20) and d6 (mean -4).
	c := b.Moves(afterF5)
	if len(c) != 2 || c[0].Move.String() != "d6" || c[0].Score != -4 || c[1].Move.String() != "f6" || c[1].Score != -20 {
		t.Errorf("candidates after f5: %+v", c)
	}
	if best, ok := b.Best(afterF5, 2); !ok || best.Move.String() != "d6" {
		t.Errorf("best after f5 with 2 games: %+v %v", best, ok)
	}
	if _, ok := b.Best(afterF5, 3); ok {
		t.Error("a move with fewer than minGames games was returned")
	}
	// Positions beyond MaxPly are not recorded.
	deep, _ := bitboard.PlayTranscript(start, "f5d6c3d3c4")
	if _, ok := b.Lookup(deep); ok {
		t.Error("position at ply 5 recorded in a 4-ply book")
	}
	if err := b.AddGame(start, moves(t, "f5a1"), 0); err == nil {
		t.Error("illegal game accepted")
	}
	b.Prune(3)
	if b.Len() != 2 { // the start and f5 (all symmetric first moves)
		t.Errorf("after Prune(3): %d entries", b.Len())
	}
}

func TestFileRoundTripAndCorruption(t *testing.T) {
	b, st, err := FromWTHOR("../testdata/wthor", 20)
	if err != nil || st.Games < 1000 || len(st.Problems) != 0 {
		t.Fatalf("FromWTHOR: %v %+v", err, st)
	}
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	b2, err := Read(buf.Bytes())
	if err != nil || b2.Len() != b.Len() || b2.MaxPly != 20 {
		t.Fatalf("round trip: %v, %d vs %d entries", err, b2.Len(), b.Len())
	}
	var buf2 bytes.Buffer
	b2.Write(&buf2)
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Error("writing a read book changes the file")
	}
	data := buf.Bytes()
	if _, err := Read(data[:len(data)-7]); !errors.Is(err, ErrCorrupt) {
		t.Errorf("truncated: %v", err)
	}
	bad := bytes.Clone(data)
	bad[len(bad)/2] ^= 1
	if _, err := Read(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("flipped bit: %v", err)
	}
	if _, err := Read([]byte("PK\x03\x04 not a book")); !errors.Is(err, ErrNotABook) {
		t.Errorf("wrong magic: %v", err)
	}
}

// The embedded book knows the openings: all four first moves are one
// position up to symmetry, and the main lines have thousands of games.
func TestDefaultBook(t *testing.T) {
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	c := b.Moves(bitboard.Start())
	if len(c) != 4 || c[0].Games < 100000 || c[0].Games != c[3].Games {
		t.Fatalf("first moves: %+v", c)
	}
	afterF5, _ := bitboard.PlayTranscript(bitboard.Start(), "f5")
	best, ok := b.Best(afterF5, 100)
	if !ok || !afterF5.IsLegal(best.Move) {
		t.Fatalf("no legal book reply to f5: %+v", best)
	}
	t.Logf("%d positions; reply to f5: %+v", b.Len(), best)
}

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	b := New(2)
	b.AddGame(bitboard.Start(), []bitboard.Square{bitboard.SquareAt(5, 4)}, 4)
	b.Write(&buf)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		Read(data) // must not panic
	})
}
