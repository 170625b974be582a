package book

import "github.com/outflank-othello/outflank/bitboard"

// Played is one move of a game played in a book position.
type Played struct {
	Ply    int            // the move's number in the game, passes counted, from 1
	Index  int            // its index in the moves given to Follow
	Player bitboard.Color // who played it
	Square bitboard.Square
	// Loss is how much worse the move is than the position's best by the
	// book's values (0: one of the best).
	Loss int
}

// Follow walks a game through the book: the moves played in the book
// positions it reaches from its start, in order, until the first
// position the book does not hold (forced passes are skipped, as the book
// keeps the position after them). Where the games of a match stay in the
// book, and whether the players chose the book's best moves there, say
// what a match of the book can measure at all ("outflank book cover").
// The moves must be legal; an illegal one ends the walk with its error.
func (b *Book) Follow(start bitboard.Position, moves []bitboard.Square) ([]Played, error) {
	played, positions, err := bitboard.Replay(start, moves)
	var out []Played
	j := -1 // index in moves of played[i]; Replay inserts the passes moves leave implied
	for i, m := range played {
		if m != bitboard.PassMove || j+1 < len(moves) && moves[j+1] == bitboard.PassMove {
			j++
		}
		if m == bitboard.PassMove {
			continue
		}
		pos := positions[i]
		ms := b.Moves(pos)
		if ms == nil {
			break
		}
		p := Played{Ply: i + 1, Index: j, Player: pos.ToMove, Square: m, Loss: -1}
		for _, bm := range ms {
			if bm.Square == m {
				p.Loss = ms[0].Value - bm.Value
			}
		}
		if p.Loss < 0 {
			break // a book position lists every legal move; not a legal one
		}
		out = append(out, p)
	}
	return out, err
}
