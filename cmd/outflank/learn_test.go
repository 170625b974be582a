package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
	"github.com/spf13/pflag"
)

// NBoard's learn adds a finished game to the book and saves it to --book.
func TestLearnIntoBookFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my.book")
	// Start a personal book from the built-in one, as "book export" does.
	if err := run([]string{"book", "export", "--out", path}, &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}); err != nil {
		t.Fatal(err)
	}
	fl := addEngineFlags(pflag.NewFlagSet("test", pflag.ContinueOnError))
	*fl.book = path
	st, err := fl.setup("nboard")
	if err != nil {
		t.Fatal(err)
	}
	bm := st.book.(*bookMoves)
	before, _ := bm.b.Lookup(bitboard.Start())

	// The shortest game: black wins 13-0 with 51 empties (+64 with the
	// empties to the winner).
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
	after, _ := saved.Lookup(bitboard.Start())
	if after.Games != before.Games+1 || after.ScoreSum != before.ScoreSum+64 {
		t.Errorf("start entry %+v after learning, was %+v", after, before)
	}
	end := g.Current()
	if e, ok := saved.Lookup(end); !ok || e.Games != 1 || e.ScoreSum != -64 {
		t.Errorf("final position (white to move, lost by 64): %+v %v", e, ok)
	}

	// An unfinished game teaches nothing and says so.
	g2, _ := bitboard.ParseGGF("(;GM[Othello]B[f5];)")
	if err := bm.Learn(g2); err == nil || !strings.Contains(err.Error(), "not over") {
		t.Errorf("learning an unfinished game: %v", err)
	}
	// A corrupt book file is refused, not replaced.
	os.WriteFile(path, []byte("garbage"), 0o644)
	*fl.book = path
	if _, err := fl.setup("nboard"); err == nil {
		t.Error("a corrupt --book file was accepted")
	}
}
