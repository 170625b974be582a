package play

import "github.com/outflank-othello/outflank/bitboard"

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
	Games int     // games behind the statistics
}

// MinBookGames is how many games a book move needs before the engine plays
// it without searching: fewer games say too little about a line.
const MinBookGames = 10

// BookChoice returns the move to play from b in pos: the best-ranked move
// with at least MinBookGames games. ok is false without a book, out of
// book, or when the move is not legal (a damaged book).
func BookChoice(b Book, pos bitboard.Position) (m BookMove, ok bool) {
	if b == nil {
		return BookMove{}, false
	}
	for _, c := range b.Moves(pos) {
		if c.Games >= MinBookGames && pos.IsLegal(c.Move) && c.Move != bitboard.PassMove {
			return c, true
		}
	}
	return BookMove{}, false
}
