package book

import (
	"bytes"
	_ "embed"
	"math/rand/v2"

	"github.com/outflank-othello/outflank/bitboard"
)

// Policy is how the engine picks a book move.
type Policy struct {
	// Variety is the most the chosen move may lose against the book's best
	// move, in discs: 0 always plays the best move; with Variety 2 any move
	// valued within 2 discs of the best may be played, the better ones more
	// often. It never allows a move the book values worse than that.
	Variety int
	// MinDepth: moves valued by searches shallower than this are not played
	// (the engine searches instead); 0 accepts any.
	MinDepth int
}

// Choose returns the move to play in pos under pol, or ok false when pos
// is not in the book or its best move is too shallow. rng picks among the
// moves within Variety (nil: the best move).
func (b *Book) Choose(pos bitboard.Position, pol Policy, rng *rand.Rand) (Move, bool) {
	ms := b.Moves(pos)
	if len(ms) == 0 || ms[0].Depth < pol.MinDepth {
		return Move{}, false
	}
	if pol.Variety <= 0 || rng == nil {
		return ms[0], true
	}
	// Weight a move by how much less than Variety it loses (plus one), so
	// that the best is the likeliest and a move at the limit still possible.
	var cands []Move
	var weights []int
	total := 0
	for _, m := range ms {
		loss := ms[0].Value - m.Value
		if loss > pol.Variety || m.Depth < pol.MinDepth {
			continue
		}
		w := pol.Variety - loss + 1
		cands = append(cands, m)
		weights = append(weights, w)
		total += w
	}
	x := rng.IntN(total)
	for i, w := range weights {
		if x < w {
			return cands[i], true
		}
		x -= w
	}
	return ms[0], true
}

//go:embed default.book
var defaultBook []byte

// Default returns the book embedded in the binary (see book/README.md for
// how it was built). Each call returns a fresh copy that may be learnt into.
func Default() (*Book, error) {
	return Read(bytes.Clone(defaultBook))
}
