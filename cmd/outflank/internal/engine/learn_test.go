package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
	"github.com/spf13/pflag"
)

// NBoard's learn adds a finished game's positions to the book, valued by
// search, and saves it to --book.
func TestLearnIntoBookFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my.book")
	// Start a personal book from the built-in one, as "book export" does.
	def, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	if err := SaveBook(def, path); err != nil {
		t.Fatal(err)
	}
	fl := AddFlags(pflag.NewFlagSet("test", pflag.ContinueOnError))
	*fl.book = path
	st, err := fl.Setup("nboard")
	if err != nil {
		t.Fatal(err)
	}
	bm := st.Book.(*bookMoves)
	before := bm.b.Len()

	// The shortest game: black wins 13-0 with 51 empties. Its opening
	// e6 f4 leaves the usual lines at once.
	g, err := bitboard.ParseGGF("(;GM[Othello]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)")
	if err != nil {
		t.Fatal(err)
	}
	if err := bm.Learn(g); err != nil {
		t.Fatal(err)
	}
	saved, err := book.Load(path)
	if err != nil {
		t.Fatalf("learnt book not saved: %v", err)
	}
	if saved.Len() <= before {
		t.Fatalf("%d positions after learning, %d before", saved.Len(), before)
	}
	// Before the last move white has lost: c5 wipes white out, valued
	// exactly (+64 for black).
	last, _ := bitboard.PlayTranscript(bitboard.Start(), "e6f4e3f6g5d6e7f5")
	found := false
	for _, m := range saved.Moves(last) {
		if m.Square.String() == "c5" {
			found = true
			if m.Value != 64 || !m.Exact {
				t.Errorf("c5 learnt as %v, want +64 exact", m)
			}
		}
	}
	if !found {
		t.Error("the game's last position was not learnt")
	}

	// An unfinished game teaches nothing and says so.
	g2, _ := bitboard.ParseGGF("(;GM[Othello]B[f5];)")
	if err := bm.Learn(g2); err == nil || !strings.Contains(err.Error(), "not over") {
		t.Errorf("learning an unfinished game: %v", err)
	}
	// A corrupt book file is refused, not replaced.
	os.WriteFile(path, []byte("garbage"), 0o644)
	*fl.book = path
	if _, err := fl.Setup("nboard"); err == nil {
		t.Error("a corrupt --book file was accepted")
	}
}

// A book with no evaluation (the browser build's, read before its
// weights) refuses to learn, and stays as it was.
func TestLearnWithoutEvaluation(t *testing.T) {
	def, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	before := def.Len()
	bm := BookOf(def, nil, 0).(*bookMoves)
	g, err := bitboard.ParseGGF("(;GM[Othello]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)")
	if err != nil {
		t.Fatal(err)
	}
	if err := bm.Learn(g); err == nil || !strings.Contains(err.Error(), "no evaluation") {
		t.Errorf("Learn without an evaluation: %v, want an error saying so", err)
	}
	if def.Len() != before {
		t.Errorf("%d positions after a refused learn, %d before", def.Len(), before)
	}
}
