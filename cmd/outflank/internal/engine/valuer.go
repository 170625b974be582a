package engine

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/search"
)

// SearchValuer values book positions with the engine's search; with a
// screen margin, it is also a book.Screener searching to ScreenDepth.
type SearchValuer struct {
	Engine      *search.Engine
	Limits      search.Limits
	ScreenDepth int
	Margin      int // the screen's margin in discs (0: no screen)
	// Depth is the book's depth; with AlignParity each leaf is searched to
	// book.AlignedSearchDepth instead of Limits.Depth.
	Depth       int
	AlignParity bool
	// Evaluation names the evaluation the engine searches with
	// (EvaluationID), recorded by the book with each value.
	Evaluation string
}

// Screen values pos by the shallow screen's search.
func (v SearchValuer) Screen(ctx context.Context, pos bitboard.Position) (book.Valuation, error) {
	s := v
	s.Limits.Depth = v.ScreenDepth - 1
	return s.Value(ctx, pos)
}

// ScreenMargin is the screen's margin in discs (book.Screener).
func (v SearchValuer) ScreenMargin() int { return v.Margin }

// Value values pos by a search to v's limits.
func (v SearchValuer) Value(ctx context.Context, pos bitboard.Position) (book.Valuation, error) {
	lim := v.Limits
	if v.AlignParity && lim.Depth == v.Depth-1 { // not the screen
		lim.Depth = book.AlignedSearchDepth(pos, v.Depth)
	}
	i := v.Engine.Search(ctx, pos, lim, nil)
	if err := ctx.Err(); err != nil {
		return book.Valuation{}, err // stopped: the result is incomplete
	}
	return book.Valuation{Score: i.Score, Depth: i.Depth, Selectivity: i.Selectivity, Exact: i.Exact, Evaluation: v.Evaluation}, nil
}

// SaveBook writes b to path as a whole: a kill leaves the old book or the
// new one, never part of it. Its history keeps bare file names only
// (FileNames), whatever the lines it was given or read from an older book.
func SaveBook(b *book.Book, path string) error {
	b.Info = FileNames(b.Info)
	return atomicfile.Write(path, b.Write)
}

// FileNames writes the paths in a book's history as bare file names: the
// history travels with the book (the built-in one too), and the folders
// of the machine that built it mean nothing elsewhere. A word is a path if
// it holds a slash and starts with one, "./", "../" or "~" (a shard "1/18"
// does not).
func FileNames(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		words := strings.Split(l, " ")
		for j, w := range words {
			if strings.Contains(w, "/") && (strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || strings.HasPrefix(w, "~")) {
				words[j] = filepath.Base(w)
			}
		}
		lines[i] = strings.Join(words, " ")
	}
	return strings.Join(lines, "\n")
}

// AddInfo adds a line to a book's history.
func AddInfo(b *book.Book, line string) {
	if b.Info != "" {
		b.Info += "\n"
	}
	b.Info += line
}
