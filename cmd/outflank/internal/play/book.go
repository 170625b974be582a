package play

import (
	"fmt"

	"github.com/outflank-othello/outflank/bitboard"
)

// Book is what the front ends need of an opening book.
type Book interface {
	// Moves lists the legal moves of pos that the book knows, best first.
	Moves(pos bitboard.Position) []BookMove
}

// Learner is a Book that can learn from games (NBoard's "learn"). Learn
// adds a finished game with its result and may save the book.
type Learner interface {
	Learn(g *bitboard.Game) error
}

// BookMove is a book move with what the book knows of it.
type BookMove struct {
	Move  bitboard.Square
	Score float64 // expected final disc difference for the side that plays it
	Games int     // games behind the statistics (0 for a book valued by search)
	// Depth and Selectivity (percent) of the search behind Score; Depth 0
	// for a statistics book.
	Depth, Selectivity int
}

// Basis says what a book move's score rests on, for people and GUIs: the
// search that valued it ("depth 29@73%", "depth 20" when no selective cut
// was made) or, for a statistics book, its games ("137 games").
func (b BookMove) Basis() string {
	switch {
	case b.Depth > 0 && b.Selectivity > 0 && b.Selectivity < 100:
		return fmt.Sprintf("depth %d@%d%%", b.Depth, b.Selectivity)
	case b.Depth > 0:
		return fmt.Sprintf("depth %d", b.Depth)
	}
	return fmt.Sprintf("%d games", b.Games)
}

// Chooser is a Book that picks its own move to play (a searched book:
// among the moves within its variety of the best).
type Chooser interface {
	Choose(pos bitboard.Position) (BookMove, bool)
}

// MinBookGames is how many games a book move needs before the engine plays
// it without searching: fewer games say too little about a line.
const MinBookGames = 10

// BookChoice returns the move to play from b in pos: a Chooser's choice,
// or else the best-ranked move with at least MinBookGames games. ok is false
// without a book, out of book, or when the move is not legal (a damaged
// book).
func BookChoice(b Book, pos bitboard.Position) (m BookMove, ok bool) {
	if b == nil {
		return BookMove{}, false
	}
	if c, isChooser := b.(Chooser); isChooser {
		m, ok := c.Choose(pos)
		if !ok || !pos.IsLegal(m.Move) || m.Move == bitboard.PassMove {
			return BookMove{}, false
		}
		return m, true
	}
	for _, c := range b.Moves(pos) {
		if c.Games >= MinBookGames && pos.IsLegal(c.Move) && c.Move != bitboard.PassMove {
			return c, true
		}
	}
	return BookMove{}, false
}
