package search

import "github.com/outflank-othello/outflank/eval"

// Evaluator estimates the final disc difference for the side to move
// (discs player) against the other side (discs opponent), within -64..64.
// Package eval implements it.
type Evaluator interface {
	Evaluate(player, opponent uint64) int
}

// IncrementalEvaluator is an Evaluator that scores positions kept up to
// date move by move along the search's line (eval.State): the search calls
// Init at the root, Play or Pass to derive a child's State from its parent's,
// and EvaluateState instead of Evaluate; PlayEvaluate scores a child
// that is only scored, never searched from (a leaf, a child valued for the
// move order), without setting its State. EvaluateState(s) must equal
// Evaluate of the position s holds, and PlayEvaluate(src, sq, flips) that
// of the position after the move. eval.Pattern implements it.
type IncrementalEvaluator interface {
	Evaluator
	Init(s *eval.State, player, opponent uint64)
	Play(dst, src *eval.State, sq int, flips uint64)
	Pass(dst, src *eval.State)
	EvaluateState(s *eval.State) int
	PlayEvaluate(src *eval.State, sq int, flips uint64) int
}

// incremental returns ev as an IncrementalEvaluator: itself if it is one,
// else a wrapper whose states hold only the board.
func incremental(ev Evaluator) IncrementalEvaluator {
	if ie, ok := ev.(IncrementalEvaluator); ok {
		return ie
	}
	return boardOnly{ev}
}

// boardOnly gives a plain Evaluator the incremental interface.
type boardOnly struct{ Evaluator }

func (boardOnly) Init(s *eval.State, p, o uint64) { s.P, s.O = p, o }

func (boardOnly) Play(dst, src *eval.State, sq int, flips uint64) {
	p, o := src.P, src.O
	dst.P, dst.O = o&^flips, p|flips|sqBit(sq)
}

func (boardOnly) Pass(dst, src *eval.State) { dst.P, dst.O = src.O, src.P }

func (b boardOnly) EvaluateState(s *eval.State) int { return b.Evaluate(s.P, s.O) }

func (b boardOnly) PlayEvaluate(src *eval.State, sq int, flips uint64) int {
	p, o := src.P, src.O
	return b.Evaluate(o&^flips, p|flips|sqBit(sq))
}
