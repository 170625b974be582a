package play

import (
	"github.com/outflank-othello/outflank/bitboard"
)

// History is a game being played, with undo and redo. Each step is one move
// as a person or GUI made it; a pass that the rules force before a move
// belongs to the same step, so undo takes back the move and its pass
// together, while an explicit pass is a step of its own.
type History struct {
	game  *bitboard.Game
	steps []int                 // len(game.Moves) before each step
	redo  [][]bitboard.GameMove // undone steps, the latest last
	pos   []bitboard.Position   // pos[i]: position after i moves
}

// NewHistory starts a game from start.
func NewHistory(start bitboard.Position) *History {
	h := &History{}
	h.Reset(&bitboard.Game{Start: start})
	return h
}

// Reset replaces the game with g (which must be legal, as ParseGGF
// guarantees) and forgets undo and redo; each move of g becomes a step, a
// pass followed by a move joining that move's step.
func (h *History) Reset(g *bitboard.Game) {
	h.game = g
	h.steps = h.steps[:0]
	h.redo = nil
	h.pos = g.Positions()
	for i, m := range g.Moves {
		if i > 0 && g.Moves[i-1].Square == bitboard.PassMove && m.Square != bitboard.PassMove {
			continue // joined to the pass's step
		}
		h.steps = append(h.steps, i)
	}
}

// Game returns the game record (shared; do not modify it).
func (h *History) Game() *bitboard.Game { return h.game }

// Position returns the current position.
func (h *History) Position() bitboard.Position { return h.pos[len(h.pos)-1] }

// Positions returns every position of the game, the start first.
func (h *History) Positions() []bitboard.Position { return h.pos }

// Play makes one step: m after a pass when the side to move has no move and
// m is a board move. An illegal move changes nothing and returns an error.
// Redo is forgotten unless m is the move that redo would replay.
func (h *History) Play(m bitboard.GameMove) error {
	n := len(h.game.Moves)
	if err := h.game.Append(m); err != nil {
		return err
	}
	h.steps = append(h.steps, n)
	for _, mv := range h.game.Moves[n:] {
		h.pos = append(h.pos, apply(h.Position(), mv.Square))
	}
	if k := len(h.redo); k > 0 {
		r := h.redo[k-1]
		if sameMoves(r, h.game.Moves[n:]) {
			h.redo = h.redo[:k-1]
		} else {
			h.redo = nil
		}
	}
	return nil
}

// ForcePass plays the pass that the side to move is forced to make, as part
// of the last step (so that undo takes back the move and the pass
// together), or as a step of its own at the start of a game. It reports
// whether it passed.
func (h *History) ForcePass() bool {
	if !h.Position().MustPass() {
		return false
	}
	n := len(h.game.Moves)
	h.game.Moves = append(h.game.Moves, bitboard.GameMove{Square: bitboard.PassMove})
	h.pos = append(h.pos, h.Position().Pass())
	if len(h.steps) == 0 {
		h.steps = append(h.steps, n)
	}
	return true
}

// Undo takes back the last step; false when there is none.
func (h *History) Undo() bool {
	k := len(h.steps)
	if k == 0 {
		return false
	}
	n := h.steps[k-1]
	h.steps = h.steps[:k-1]
	undone := append([]bitboard.GameMove(nil), h.game.Moves[n:]...)
	h.redo = append(h.redo, undone)
	h.game.Moves = h.game.Moves[:n]
	h.pos = h.pos[:n+1]
	return true
}

// Redo replays the last step undone; false when there is none.
func (h *History) Redo() bool {
	k := len(h.redo)
	if k == 0 {
		return false
	}
	r := h.redo[k-1]
	h.redo = h.redo[:k-1]
	n := len(h.game.Moves)
	h.steps = append(h.steps, n)
	for _, m := range r {
		h.game.Moves = append(h.game.Moves, m)
		h.pos = append(h.pos, apply(h.Position(), m.Square))
	}
	return true
}

// CanRedo reports whether a step can be redone.
func (h *History) CanRedo() bool { return len(h.redo) > 0 }

// Moves returns the number of moves played, passes included.
func (h *History) Moves() int { return len(h.game.Moves) }

func apply(p bitboard.Position, sq bitboard.Square) bitboard.Position {
	if sq == bitboard.PassMove {
		return p.Pass()
	}
	return p.Play(sq)
}

// sameMoves reports whether step a (which may end with a forced pass) is
// the step b.
func sameMoves(a, b []bitboard.GameMove) bool {
	if len(a) == len(b)+1 && a[len(a)-1].Square == bitboard.PassMove {
		a = a[:len(b)]
	}
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Square != b[i].Square {
			return false
		}
	}
	return true
}
