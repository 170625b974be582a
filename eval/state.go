package eval

// State is a position as the evaluation sees it, carried along a search
// line so that an evaluation need not start from the bare board: the search
// keeps one State per ply and derives a child's from its parent's with Play
// or Pass. A State is a plain value (copying it is safe) and belongs to one
// search at a time.
//
// This first version holds only the board, and EvaluateState recomputes
// everything from it; the interface is the one the search is written
// against, so an incremental implementation (pattern indexes updated by the
// flipped squares) changes nothing outside this package.
type State struct {
	P, O uint64 // discs of the side to move and of the other side
}

// Init sets s to the position (player to move).
func (e *Pattern) Init(s *State, player, opponent uint64) {
	s.P, s.O = player, opponent
}

// Play sets dst to src after the side to move plays sq, flipping flips
// (bitboard.Flips of that move); the side to move changes. dst and src may
// be the same State.
func (e *Pattern) Play(dst, src *State, sq int, flips uint64) {
	p, o := src.P, src.O
	dst.P, dst.O = o&^flips, p|flips|1<<uint(sq&63)
}

// Pass sets dst to src with the other side to move.
func (e *Pattern) Pass(dst, src *State) {
	dst.P, dst.O = src.O, src.P
}

// EvaluateState returns Evaluate of the position s holds.
func (e *Pattern) EvaluateState(s *State) int {
	return e.Evaluate(s.P, s.O)
}
