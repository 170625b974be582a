package bitboard

import (
	"errors"
	"fmt"
	"math/bits"
)

// Color is a side: Black (who moves first) or White.
type Color int8

const (
	Black Color = 0
	White Color = 1
)

// Other returns the opponent's colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "black" or "white".
func (c Color) String() string {
	if c == White {
		return "white"
	}
	return "black"
}

// Position is a board and the side to move. Player holds the discs of the
// side to move and Opponent those of the other side, so that search code never
// needs to know colours; ToMove says which colour Player is.
type Position struct {
	Player, Opponent uint64
	ToMove           Color
}

// Start returns the standard starting position: white d4 e5, black d5 e4,
// black to move.
func Start() Position {
	d4, e5 := SquareAt(3, 3).Bit(), SquareAt(4, 4).Bit()
	d5, e4 := SquareAt(3, 4).Bit(), SquareAt(4, 3).Bit()
	return Position{Player: d5 | e4, Opponent: d4 | e5, ToMove: Black}
}

// FromColors builds a position from black and white bitboards.
func FromColors(black, white uint64, toMove Color) Position {
	if toMove == White {
		return Position{Player: white, Opponent: black, ToMove: White}
	}
	return Position{Player: black, Opponent: white, ToMove: Black}
}

// Black returns black's discs.
func (p Position) Black() uint64 {
	if p.ToMove == White {
		return p.Opponent
	}
	return p.Player
}

// White returns white's discs.
func (p Position) White() uint64 {
	if p.ToMove == White {
		return p.Player
	}
	return p.Opponent
}

// Empty returns the empty squares.
func (p Position) Empty() uint64 { return ^(p.Player | p.Opponent) }

// Empties returns the number of empty squares.
func (p Position) Empties() int { return 64 - bits.OnesCount64(p.Player|p.Opponent) }

// Moves returns the legal moves of the side to move.
func (p Position) Moves() uint64 { return Moves(p.Player, p.Opponent) }

// IsLegal reports whether sq is a legal move (a pass is legal only when no
// disc can be placed and the game is not over).
func (p Position) IsLegal(sq Square) bool {
	if sq == PassMove {
		return p.MustPass()
	}
	return sq.IsBoard() && p.Moves()&sq.Bit() != 0
}

// MustPass reports whether the side to move has no move but the opponent has.
func (p Position) MustPass() bool {
	return p.Moves() == 0 && Moves(p.Opponent, p.Player) != 0
}

// GameOver reports whether neither side can move.
func (p Position) GameOver() bool {
	return p.Moves() == 0 && Moves(p.Opponent, p.Player) == 0
}

// Play places a disc of the side to move on sq and flips what it outflanks.
// sq must be a legal move; use PlayMove for unchecked input.
func (p Position) Play(sq Square) Position {
	f := Flips(p.Player, p.Opponent, sq)
	return Position{
		Player:   p.Opponent &^ f,
		Opponent: p.Player | f | sq.Bit(),
		ToMove:   p.ToMove ^ 1,
	}
}

// Pass hands the move to the other side without changing the board.
func (p Position) Pass() Position {
	return Position{Player: p.Opponent, Opponent: p.Player, ToMove: p.ToMove ^ 1}
}

// Errors returned by PlayMove; wrapped with the move's name.
var (
	ErrOccupied   = errors.New("square is occupied")
	ErrNoFlip     = errors.New("move flips no disc")
	ErrCannotPass = errors.New("cannot pass: a move is available")
	ErrGameOver   = errors.New("game is over")
	ErrNotASquare = errors.New("not a square")
)

// PlayMove plays sq (or a pass) after checking that it is legal.
func (p Position) PlayMove(sq Square) (Position, error) {
	if p.GameOver() {
		return p, fmt.Errorf("%s: %w", sq, ErrGameOver)
	}
	switch {
	case sq == PassMove:
		if p.Moves() != 0 {
			return p, fmt.Errorf("%s: %w", sq, ErrCannotPass)
		}
		return p.Pass(), nil
	case !sq.IsBoard():
		return p, fmt.Errorf("%s: %w", sq, ErrNotASquare)
	case (p.Player|p.Opponent)&sq.Bit() != 0:
		return p, fmt.Errorf("%s: %w", sq, ErrOccupied)
	case p.Moves()&sq.Bit() == 0:
		return p, fmt.Errorf("%s: %w", sq, ErrNoFlip)
	}
	return p.Play(sq), nil
}

// DiscDiff returns the side to move's discs minus the opponent's.
func (p Position) DiscDiff() int {
	return bits.OnesCount64(p.Player) - bits.OnesCount64(p.Opponent)
}

// FinalScore scores a finished game for the side to move with the empty
// squares going to the winner (none to either side on a draw). This is the
// convention of the FFO test suites, WTHOR and every exact solver, and the one
// the search uses; it differs from the rulebook margin (see Result) only when
// the game ends with empty squares.
func (p Position) FinalScore() int {
	d := p.DiscDiff()
	switch {
	case d > 0:
		return d + p.Empties()
	case d < 0:
		return d - p.Empties()
	}
	return 0
}

// Result is the outcome of a game as the rulebook counts it: the discs on
// the board, the winner (or a draw) and the margin, winner's discs minus
// loser's, empty squares counting for nobody.
type Result struct {
	BlackDiscs, WhiteDiscs int
	Draw                   bool
	Winner                 Color // meaningless when Draw
	Margin                 int
}

// Result counts the discs of p in the rulebook way.
func (p Position) Result() Result {
	b, w := bits.OnesCount64(p.Black()), bits.OnesCount64(p.White())
	r := Result{BlackDiscs: b, WhiteDiscs: w}
	switch {
	case b > w:
		r.Winner, r.Margin = Black, b-w
	case w > b:
		r.Winner, r.Margin = White, w-b
	default:
		r.Draw = true
	}
	return r
}

// String describes the result, e.g. "black wins 40-24 (margin 16)".
func (r Result) String() string {
	if r.Draw {
		return fmt.Sprintf("draw %d-%d", r.BlackDiscs, r.WhiteDiscs)
	}
	hi, lo := r.BlackDiscs, r.WhiteDiscs
	if r.Winner == White {
		hi, lo = lo, hi
	}
	return fmt.Sprintf("%s wins %d-%d (margin %d)", r.Winner, hi, lo, r.Margin)
}

// BlackScoreEmptiesToWinner is black's disc count with the empties given to
// the winner (split evenly on a draw), the number WTHOR stores.
func (p Position) BlackScoreEmptiesToWinner() int {
	s := p.FinalScore()
	if p.ToMove == White {
		s = -s
	}
	return (64 + s) / 2
}
