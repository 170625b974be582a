package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/eval"
	"github.com/spf13/pflag"
)

// --book-variety is checked, and a variety makes the adapter a chooser
// within that many discs of the best.
func TestBookVarietyFlag(t *testing.T) {
	fl := AddFlags(pflag.NewFlagSet("test", pflag.ContinueOnError))
	*fl.bookVariety = -1
	if _, err := fl.Setup("nboard"); err == nil || !strings.Contains(err.Error(), "--book-variety") {
		t.Errorf("--book-variety -1: %v", err)
	}
	*fl.bookVariety = 3
	st, err := fl.Setup("nboard")
	if err != nil {
		t.Fatal(err)
	}
	bm := st.Book.(*bookMoves)
	start := bitboard.Start()
	best := bm.Moves(start)[0].Score
	for range 50 {
		m, ok := bm.Choose(start)
		if !ok || m.Score < best-3 || !start.IsLegal(m.Move) {
			t.Fatalf("variety 3 chose %+v (best %+.0f)", m, best)
		}
	}
}

// TestFileNames: a book's history keeps bare file names, not the folders
// of the machine that built it; a shard "1/18" is not a path.
func TestFileNames(t *testing.T) {
	if got := FileNames("2026-11-23 merge of /tmp/a/x.book ./b.book shard \"1/18\"\nlearn: 3 games from ~/g/games.ggf"); got != "2026-11-23 merge of x.book b.book shard \"1/18\"\nlearn: 3 games from games.ggf" {
		t.Errorf("FileNames: %q", got)
	}
}

// TestBookSavedWithoutPaths: a written book keeps bare file names in its
// history, the lines carried over from an older book included, and the
// committed built-in book holds none either (it travels with every binary).
func TestBookSavedWithoutPaths(t *testing.T) {
	b := book.New()
	b.Info = "2026-11-23 merge of /tmp/a/x.book ./b.book"
	out := filepath.Join(t.TempDir(), "x.book")
	if err := SaveBook(b, out); err != nil {
		t.Fatal(err)
	}
	got, err := book.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.Info != "2026-11-23 merge of x.book b.book" {
		t.Errorf("saved history %q", got.Info)
	}
	raw, err := os.ReadFile("../../../../book/default.book")
	if err != nil {
		t.Fatal(err)
	}
	def, err := book.Read(raw)
	if err != nil {
		t.Fatal(err)
	}
	if def.Info != FileNames(def.Info) {
		t.Errorf("the built-in book's history names folders:\n%s", def.Info)
	}
}

// Every value the built-in book shows a player comes from a search with
// the built-in evaluation, no leaf is valued by the shallow screen alone,
// and no parity offset is added: a book value and the engine's own search
// of the same move then agree but for depth. New weights make this fail
// until the book is revalued (`outflank book revalue`).
func TestBuiltInBookIsCurrent(t *testing.T) {
	b, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	want := EvaluationID(eval.Default())
	st := b.Stats()
	for name, n := range st.Evaluations {
		if name != want {
			t.Errorf("%d leaves valued by %q, not the built-in evaluation (%s)", n, name, want)
		}
	}
	if st.Screened != 0 {
		t.Errorf("%d leaves valued by the screen only", st.Screened)
	}
	if n := b.ParityOffset(); n != 0 {
		t.Errorf("parity offset %d", n)
	}
}
