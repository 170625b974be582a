package eval

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/outflank-othello/outflank/bitboard"
)

// Scale is the number of weight units per disc: weights are int16 in
// 1/Scale of a disc, and the sum of a position's weights divided by Scale is
// the expected final disc difference.
const Scale = 1 << scaleShift

const scaleShift = 7

// Pattern is the trained pattern evaluation. Its weights are read-only once
// built, so one Pattern can serve any number of searches at once.
type Pattern struct {
	// full holds, per stage, every raw index of every pattern (mirror
	// indexes of a symmetric pattern repeat their class's weight), then the
	// global features and the move patterns (fullStride weights), each
	// stage at stageStart in its own stageSize-weight page: an evaluation
	// is 61 table reads, no class lookups.
	full   []int16
	packed []int16 // the weights as stored: one per class and stage
	stages int
	// byEmpties is the full table of the stage of each count of empties
	// (mod 64: an empty board, never searched, reads stage 0's): one load
	// finds a position's table.
	byEmpties [64]*[stageSize]int16

	digestOnce sync.Once // Digest is computed on first use
	digest     string
}

// stageSize is the distance between two stages' pages in Pattern.full:
// fullStride rounded up to a power of two. A stage is then 2 MB, one huge
// page where the kernel gives them (newTable), so that a search at one
// stage reads through one TLB entry, and an index masked by stageSize-1
// needs no bounds check. The padding is never read.
const stageSize = 1 << 20

// Each stage's tables start skewLines cache lines further into their page
// than the stage before's (modulo the page's slack, so that they always
// end in it). Were they all at the start of their page, the same weight
// of two stages would fall in the same set of every cache level (the sets
// repeat every 64 KB or less), and a child at the next stage would read
// the weights of its unchanged instances from the very sets its parent
// did. 235 is odd and puts neighbouring stages 235 sets apart in a
// 1,024-set L2 and 43 in a 64-set L1, about as main's unaligned stride of
// fullStride did.
const (
	skewLines  = 235
	slackLines = (stageSize - fullStride) / 32 // 32 int16s a line
)

// stageStart is the offset in Pattern.full of stage st's tables.
func stageStart(st int) int { return st*stageSize + st*skewLines%slackLines*32 }

// newPattern expands packed weights (stages*packedStride) into a Pattern.
func newPattern(packed []int16, stages int) *Pattern {
	l := layout
	e := &Pattern{packed: packed, stages: stages}
	// The last stage's reads masked by stageSize-1 stay in the slice.
	e.full = newTable(stageStart(stages-1) + stageSize)
	for st := 0; st < stages; st++ {
		src := packed[st*packedStride : (st+1)*packedStride]
		dst := e.full[stageStart(st) : stageStart(st)+fullStride]
		for p := 0; p < numPatterns; p++ {
			cls := l.classOf[p]
			expand(dst[l.fullOff[p]:l.fullOff[p+1]], src[l.packOff[p]:l.packOff[p+1]], cls)
		}
		g := int(l.packOff[numPatterns])
		copy(dst[l.fullOff[numPatterns]:fullEdgeMoves], src[g:g+globSize])
		em := src[g+globSize : g+globSize+edgeMovesClasses]
		for i := range moveTableSize {
			dst[fullEdgeMoves+i] = em[edgeMovesClass[i]]
		}
		cm := src[g+globSize+edgeMovesClasses : g+globSize+edgeMovesClasses+moveTableSize]
		for i, w := range cm {
			dst[fullCornerMoves+cornerFull(i)] = w
		}
		yieldToHost()
	}
	for n := range e.byEmpties {
		st := StageOf(stages, n)
		e.byEmpties[n] = (*[stageSize]int16)(e.full[stageStart(st):])
	}
	return e
}

// expand writes a pattern's full table d from its classes' weights w,
// cls giving each full index's class. It is a function of its own for the
// browser build: WebAssembly engines run a function's first, quickly
// compiled code until it returns (V8 swaps in optimised code only between
// calls), and newPattern calls this hundreds of times (not inlined, for
// that).
//
//go:noinline
func expand(d, w []int16, cls []uint32) {
	d = d[:len(cls)]
	for i, c := range cls {
		d[i] = w[c]
	}
}

// Evaluate returns the expected final disc difference for the side to move
// (player), -64..64.
func (e *Pattern) Evaluate(player, opponent uint64) int {
	return round(e.Score(player, opponent))
}

// round turns a score in weight units into whole discs within -64..64 (an
// arithmetic shift floors, so half a disc is added first).
func round(s int) int {
	d := (s + Scale/2) >> scaleShift
	return min(max(d, -64), 64)
}

// stage returns the full weight table of the stage of a position with this
// many empties.
func (e *Pattern) stage(empties int) *[stageSize]int16 {
	return e.byEmpties[empties&63]
}

// globals returns the weights of the global features of a position and of
// its move patterns, read from a stage's full table.
func globals(w *[stageSize]int16, p, o uint64, empties int) int {
	g := w[fullEdgeMoves-globSize : fullEdgeMoves]
	mp, mo := bitboard.MovesBoth(p, o)
	return int(g[globMobP+min(bits.OnesCount64(mp), maxMobility)]) + int(g[globMobO+min(bits.OnesCount64(mo), maxMobility)]) +
		int(g[globParity+empties&1]) + moveScore(w, mp, mo)
}

// moveScore is the sum of the move patterns' weights of a position with
// move bitboards mp and mo, read from a stage's full table.
func moveScore(w *[stageSize]int16, mp, mo uint64) int {
	e := (*[moveTableSize]int16)(w[fullEdgeMoves:fullCornerMoves])
	c := (*[moveTableSize]int16)(w[fullCornerMoves:])
	if playKernel {
		return moveScoreBMI2(e, c, &revDigits, mp, mo)
	}
	return moveScoreGo(e, c, mp, mo)
}

// moveScoreGo is moveIndexes and the table reads in one, written out so
// that the indexes stay in registers (uint16, which needs no bounds
// checks) rather than pass through an array; moveScoreBMI2's reference.
func moveScoreGo(e, c *[moveTableSize]int16, mp, mo uint64) int {
	r := outerLines(mp) | outerLines(mo)<<1 // rows 1, 2, 7, 8
	t := outerLines(bitboard.FlipDiagonal(mp)) | outerLines(bitboard.FlipDiagonal(mo))<<1
	s0 := int(e[uint16(r)]) + int(e[uint16(r>>48)]) + int(e[uint16(t)]) + int(e[uint16(t>>48)])
	// The corner blocks' indexes in cornerFull's order: the inner line's
	// digits low, the edge's high.
	s1 := int(c[uint16(r>>16&0xFF|r<<8&0xFF00)]) +
		int(c[uint16(revDigits[uint8(r>>24)])|uint16(revDigits[uint8(r>>8)])<<8]) +
		int(c[uint16(r>>32&0xFF|r>>40&0xFF00)]) +
		int(c[uint16(revDigits[uint8(r>>40)])|uint16(revDigits[uint8(r>>56)])<<8])
	s2 := int(c[uint16(t>>16&0xFF|t<<8&0xFF00)]) +
		int(c[uint16(revDigits[uint8(t>>24)])|uint16(revDigits[uint8(t>>8)])<<8]) +
		int(c[uint16(t>>32&0xFF|t>>40&0xFF00)]) +
		int(c[uint16(revDigits[uint8(t>>40)])|uint16(revDigits[uint8(t>>56)])<<8])
	return s0 + s1 + s2
}

// cornerFull returns the index in the full corner-moves table of the
// corner block configuration i (moveIndexes: the edge's four squares the
// low byte, the line beside it the high byte): the two bytes swapped. The
// inner line's moves change more from one position of a search to the
// next than the edge's, so its digits low put a node's children's reads in
// fewer cache lines (in the replay of "Speed" in README.md, 1.96 L1
// misses an evaluation for the move patterns' 12 reads against 2.20, and
// 0.11 L2 misses against 0.16).
func cornerFull(i int) int { return i>>8 | i&0xFF<<8 }

// Score returns the evaluation in 1/Scale of a disc, unrounded and
// unclamped, for callers that want more resolution than whole discs.
func (e *Pattern) Score(player, opponent uint64) int {
	empties := 64 - bits.OnesCount64(player|opponent)
	w := e.stage(empties)
	var idx [2][numInstances]int32
	indexes(player, opponent, &idx)
	sum := 0
	for _, i := range idx[0] {
		sum += int(w[i])
	}
	return sum + globals(w, player, opponent, empties)
}

// Features writes the indexes, within one stage of packed weights, of the
// NumFeatures weights whose sum is the evaluation of a position, and returns
// the position's empties, which choose the stage (StageOf). Training fits
// weights through it, so that the evaluation and the trainer can never
// disagree on what a weight means.
func Features(player, opponent uint64, dst *[NumFeatures]int32) (empties int) {
	l := layout
	var idx [2][numInstances]int32
	indexes(player, opponent, &idx)
	for n, i := range idx[0] {
		p := l.instOf[n]
		dst[n] = l.packOff[p] + int32(l.classOf[p][i-l.fullOff[p]])
	}
	empties = 64 - bits.OnesCount64(player|opponent)
	mp, mo := bitboard.MovesBoth(player, opponent)
	g := l.packOff[numPatterns]
	dst[numInstances] = g + globMobP + int32(min(bits.OnesCount64(mp), maxMobility))
	dst[numInstances+1] = g + globMobO + int32(min(bits.OnesCount64(mo), maxMobility))
	dst[numInstances+2] = g + globParity + int32(empties&1)
	m := moveIndexes(mp, mo)
	for k, i := range m[:edgeMovesInstances] {
		dst[numInstances+3+k] = g + globSize + int32(edgeMovesClass[i])
	}
	for k, i := range m[edgeMovesInstances:] {
		dst[numInstances+3+edgeMovesInstances+k] = g + globSize + int32(edgeMovesClasses) + int32(i)
	}
	return empties
}

// FeatureFamily names the family of feature slot k of Features: a
// pattern's name, "mobility", "parity", "edgemoves" or "cornermoves". Training can leave a family out
// (its weights stay 0) to measure what it brings.
func FeatureFamily(k int) string {
	switch {
	case k < numInstances:
		return patternNames[layout.instOf[k]]
	case k < numInstances+2:
		return "mobility"
	case k == numInstances+2:
		return "parity"
	case k < numInstances+3+edgeMovesInstances:
		return "edgemoves"
	}
	return "cornermoves"
}

// PackedStride is the number of packed weights per stage; a weight set has
// Stages()*PackedStride() of them, stage by stage.
func PackedStride() int { return packedStride }

// Stages is the number of stages of e's weights.
func (e *Pattern) Stages() int { return e.stages }

// Packed returns a copy of the weights in packed order (see Features).
func (e *Pattern) Packed() []int16 { return append([]int16(nil), e.packed...) }

// FromPacked builds an evaluation of stages stages from
// stages*PackedStride() weights.
func FromPacked(w []int16, stages int) (*Pattern, error) {
	if !ValidStages(stages) {
		return nil, fmt.Errorf("eval: %d stages: want a divisor of 60", stages)
	}
	if len(w) != stages*packedStride {
		return nil, fmt.Errorf("eval: %d weights, want %d for %d stages", len(w), stages*packedStride, stages)
	}
	return newPattern(append([]int16(nil), w...), stages), nil
}
