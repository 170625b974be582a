package search

import (
	"math/bits"
	"sync/atomic"

	"github.com/outflank-othello/outflank/eval"

	"github.com/outflank-othello/outflank/tt"
)

// pollInterval is how many nodes pass between checks of the stop flag and
// the node limit: a few microseconds of search.
const pollInterval = 1024

// abortSignal unwinds a stopped search to the root (via panic/recover, so
// that the hot paths need no per-call stop checks).
type abortSignal struct{}

// searcher is the state of one search: everything mutable lives here, none
// at package level.
type searcher struct {
	tt       *tt.Table
	ev       Evaluator
	nodes    uint64
	checkAt  uint64
	maxNodes uint64
	stop     *atomic.Bool

	// The midgame search's line: the evaluation states of its positions,
	// by slot (midgame.go; allocated by mid on first use).
	ie      IncrementalEvaluator
	states  []eval.State
	evals   *evalCache // the latest evaluations (evalcache.go; with states)
	sel     int        // Multi-ProbCut selectivity: an index in selectivityLevels
	pcLevel int        // how many Multi-ProbCut shallow searches the node is nested in
	par     parallel   // the parallel solver's state (parallel.go); zero: serial

	// The null-window endgame nodes' move lists, by empties (endgame.go;
	// allocated on first use).
	endFrames *[64]endFrame
	// The midgame nodes' move lists, by empties (midMoves; allocated on
	// first use): a list on the stack is zeroed, 968 bytes, at every node.
	// A node that passes builds none, so its child at the same empties
	// can use the slot.
	midLists *[64]midFrame
	// The evaluation states of the endgame order (valueEndMoves): the
	// nodes', by empties (allocated on first use); each child is scored
	// from its node's by PlayEvaluate.
	endEvals *[64]eval.State
	// The endgame's own table of children's bounds (nwsLocal; allocated on
	// first use).
	local *localTable
}

// poll is called when nodes reaches checkAt.
func (s *searcher) poll() {
	s.yieldToHost()
	if s.stopped() || (s.maxNodes > 0 && s.nodes >= s.maxNodes) {
		panic(abortSignal{})
	}
	s.checkAt = s.nodes + pollInterval
	if s.maxNodes > 0 && s.checkAt > s.maxNodes {
		s.checkAt = s.maxNodes
	}
}

const (
	cornerMask = 0x8100000000000081
	inf        = 100 // beyond any score
)

// finalScore is the score of a finished game for the side owning p, empty
// squares to the winner.
func finalScore(p, o uint64) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	d := np - no
	switch {
	case d > 0:
		return 64 - 2*no
	case d < 0:
		return 2*np - 64
	}
	return 0
}

// quadrant[sq] is the bit of sq's quadrant (a1-d4, e1-h4, a5-d8, e5-h8);
// quadrantMask[bits] is the union of the quadrants whose bits are set.
var (
	quadrant = func() (t [64]uint8) {
		for sq := range 64 {
			t[sq] = 1 << uint((sq%8)/4+2*((sq/8)/4))
		}
		return t
	}()
	quadrantMask = func() (t [16]uint64) {
		for b := range 16 {
			for sq := range 64 {
				if b&int(quadrant[sq]) != 0 {
					t[b] |= 1 << uint(sq)
				}
			}
		}
		return t
	}()
)

// parityOf returns the quadrants with an odd number of empty squares. It
// folds the board instead of counting each quadrant: the XOR of a
// quadrant's bits is its count's parity, gathered onto the quadrant's
// first square by shifts that never mix two quadrants there.
func parityOf(empty uint64) uint8 {
	t := empty ^ empty>>16 // rows 1-4 onto row 1, rows 5-8 onto row 5
	t ^= t >> 8
	t ^= t >> 2 // then columns a-d onto a, e-h onto e
	t ^= t >> 1
	return uint8(t&1 | t>>3&2 | t>>30&4 | t>>33&8)
}
