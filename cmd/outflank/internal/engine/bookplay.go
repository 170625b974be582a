package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
)

// Learning from a game in a GUI (NBoard's "learn") must answer within
// seconds, not minutes: it values the game's new book positions at this
// depth, up to this ply, and for at most this long (the positions valued
// by then are kept; "outflank book learn" learns games at any depth).
const (
	guiLearnDepth = 10
	guiLearnPlies = 30
	guiLearnTime  = 30 * time.Second
)

// bookMoves adapts *book.Book to play.Book, play.Chooser and
// play.Learner. Learnt games are saved to path when one was given
// (--book FILE), and otherwise kept for the session only.
type bookMoves struct {
	mu     sync.RWMutex // Learn writes while a hint may be reading
	b      *book.Book
	path   string
	ev     search.Evaluator
	policy book.Policy
	rng    *rand.Rand
}

func newBookMoves(b *book.Book, path string, ev search.Evaluator, variety int) *bookMoves {
	return &bookMoves{b: b, path: path, ev: ev, policy: book.Policy{Variety: variety},
		rng: rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))}
}

func bookMove(m book.Move) play.BookMove {
	return play.BookMove{Move: m.Square, Score: float64(m.Value), Depth: m.Depth, Selectivity: m.Selectivity}
}

// Moves lists the book moves of pos with their values, best first.
func (b *bookMoves) Moves(pos bitboard.Position) []play.BookMove {
	b.mu.RLock()
	ms := b.b.Moves(pos)
	b.mu.RUnlock()
	out := make([]play.BookMove, len(ms))
	for i, m := range ms {
		out[i] = bookMove(m)
	}
	return out
}

// Choose picks the move to play under the book's policy.
func (b *bookMoves) Choose(pos bitboard.Position) (play.BookMove, bool) {
	b.mu.Lock() // the random source is not safe for concurrent use either
	m, ok := b.b.Choose(pos, b.policy, b.rng)
	b.mu.Unlock()
	return bookMove(m), ok
}

// Learn adds the positions of a finished game to the book, valued by a
// search at guiLearnDepth, and saves the book to path if there is one.
func (b *bookMoves) Learn(g *bitboard.Game) error {
	if b.ev == nil {
		return errors.New("this book has no evaluation to value a game with: nothing learnt")
	}
	end := g.Current()
	if !end.GameOver() {
		return fmt.Errorf("the game is not over (%d empties, %s to move): nothing learnt", end.Empties(), end.ToMove)
	}
	moves := g.Squares()
	ctx, cancel := context.WithTimeout(context.Background(), guiLearnTime)
	defer cancel()
	v := SearchValuer{
		Engine:     search.New(search.Options{HashMB: 64, Eval: b.ev}),
		Limits:     search.Limits{Depth: guiLearnDepth - 1},
		Evaluation: EvaluationID(b.ev),
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.path != "" {
		// Another process (a second GUI engine, a book learn) may have
		// written the file since it was read: under the file's lock, what
		// it holds now is merged in first, so that saving keeps it.
		unlock, err := atomicfile.Lock(b.path, func() {})
		if err != nil {
			return fmt.Errorf("locking the book: %w", err)
		}
		defer unlock()
		if disk, err := book.Load(b.path); err == nil {
			b.b.Merge(disk)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reading the book: %w", err)
		}
	}
	if _, _, err := b.b.Learn(ctx, g.Start, moves, guiLearnPlies, v); err != nil && ctx.Err() == nil {
		return err
	}
	if b.path == "" {
		return nil
	}
	if err := SaveBook(b.b, b.path); err != nil {
		return fmt.Errorf("saving the book: %w", err)
	}
	return nil
}
