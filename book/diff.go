package book

import "github.com/outflank-othello/outflank/bitboard"

// Diff is what changed between two versions of a book, as Compare counts
// it: how far a revaluation moved the leaves' values, and in how many
// positions it changed the move the book plays. Whether deeper values are
// worth a match is decided here first: a match can only measure the
// positions whose choice changed.
type Diff struct {
	// Positions is the number of positions in both books.
	Positions int
	// Leaves counts the moves of those positions that are leaves in both
	// (valued by a search of the position they lead to, not negamaxed
	// through the book); Revalued those of them with another value or
	// depth in the new book, Deeper those searched deeper there.
	Leaves, Revalued, Deeper int
	// Shift holds the revalued leaves by their new value less the old.
	Shift map[int]int
	// Choices counts the positions where the old book's best move is
	// below the new book's best by the new values: where the new book
	// plays another move; Loss sums how far below the new best, in discs.
	Choices, Loss int
}

// Compare counts what changed from old to new (see Diff). The positions
// of old are visited in its own order, so the counts are deterministic.
func Compare(old, new *Book) Diff {
	d := Diff{Shift: map[int]int{}}
	for _, k := range old.keys() {
		if !new.has(k) {
			continue
		}
		pos := k.position()
		om, nm := old.Moves(pos), new.Moves(pos)
		d.Positions++
		if l := ChoiceLoss(om, nm); l > 0 {
			d.Choices++
			d.Loss += l
		}
		byMove := make(map[bitboard.Square]Move, len(nm))
		for _, m := range nm {
			byMove[m.Square] = m
		}
		for _, m := range om {
			n, ok := byMove[m.Square]
			if !ok || m.InBook || n.InBook {
				continue
			}
			d.Leaves++
			if n.Value != m.Value || n.Depth != m.Depth {
				d.Revalued++
				d.Shift[n.Value-m.Value]++
				if n.Depth > m.Depth {
					d.Deeper++
				}
			}
		}
	}
	return d
}

// ChoiceLoss is how many discs the move a book played in a position falls
// below the best of another version of the book there, by the other
// version's values: 0 where that version plays it too (a tie with its best
// included), or where either list of moves (as Moves returns them, best
// first) is empty or lacks the move (the lists are not of one position).
func ChoiceLoss(oldMoves, newMoves []Move) int {
	if len(oldMoves) == 0 || len(newMoves) == 0 {
		return 0
	}
	for _, m := range newMoves {
		if m.Square == oldMoves[0].Square {
			return newMoves[0].Value - m.Value
		}
	}
	return 0
}
