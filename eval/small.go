package eval

import (
	"math/bits"
	"os"
	"slices"
	"unsafe"

	"github.com/outflank-othello/outflank/bitboard"
)

// The 8-bit tables, an experiment for issue 74's speed (eval/README.md,
// "Speed"): a stage's full tables in int16 are 1.85 MB, more than the 1 MB
// L2 of the machines measured, and an evaluation waits on their reads. In
// 8 bits the pattern and move tables of a stage take 925 KB. The weights
// span up to ±2,240 units (1/128 disc), so no lossless byte form exists
// (38% of the pattern reads of random games' positions fall outside
// ±127): a byte holds a weight of one table and stage rounded to a power
// of two of units, the least that brings the table's weights of that
// stage within -128..127 (1/16 or 1/8 of a disc in most, 1/4 in a few, 1
// to 4 units in the last stages). The evaluation changes by that rounding,
// so the 8-bit tables are used only where OUTFLANK_EVAL8=1 asks for them;
// the int16 tables then hold the rounded weights too, so that Evaluate,
// Score and the Go twins agree with the 8-bit kernels exactly. The global
// features (mobility, parity) stay in the int16 tables.

// small8 is set where OUTFLANK_EVAL8=1: Patterns built then also carry
// the 8-bit tables, which EvaluateState and PlayEvaluate read. Read once at
// start, like OUTFLANK_NOASM.
var small8 = os.Getenv("OUTFLANK_EVAL8") == "1"

// smallSize is the size of a stage's 8-bit weights: the pattern tables
// (fullOff[numPatterns] bytes) and the three bytes a 4-byte gather of the
// last one reads past it, rounded up to a power of two so that an index
// masked by smallSize-1 needs no bounds check.
const smallSize = 1 << 20

// stage8 is one stage's 8-bit pattern tables: shift[n] is the left shift
// that turns instance n's byte back into units (its pattern's shift at
// this stage; 0 in the padding lanes), w every pattern's full table as
// the int16 tables number it (State's indexes read it unchanged), then
// the edge-moves and corner-moves tables at edge8 and corner8 (their
// shifts in lanes shiftEdge8 and shiftCorner8, which no kernel sums).
type stage8 struct {
	shift [idxLen]uint32
	w     [smallSize]int8
}

// Offsets of the move tables in stage8.w, and the shift lanes of theirs.
const (
	edge8        = (patternFullSize + 63) &^ 63
	corner8      = edge8 + moveTableSize
	shiftEdge8   = idxLen - 2
	shiftCorner8 = idxLen - 1
)

var _ [smallSize - corner8 - moveTableSize]struct{} // the move tables fit
var _ [shiftEdge8 - deltaLanes]struct{}             // above the lanes the kernels read

// The kernels read w at 256.
var _ [unsafe.Offsetof(stage8{}.w) - 256]struct{}
var _ [256 - unsafe.Offsetof(stage8{}.w)]struct{}

// stride8 is the distance between two stages' 8-bit tables: a stage8 and
// skewLines cache lines more, so that the same weight of two stages falls
// in different cache sets (as stageStart does for the int16 tables).
const stride8 = unsafe.Sizeof(stage8{}) + skewLines*64

// patternFullSize is the number of pattern weights of a full stage.
const patternFullSize = fullStride - globSize - 2*moveTableSize

var _ [smallSize - patternFullSize - 3]struct{} // a gather's 4 bytes stay in w

// build8 rounds e's pattern and move weights to 8 bits with a shift per
// table and stage, writes the rounded weights back into the int16 tables and fills
// the 8-bit ones (e.small, e.byEmpties8).
func (e *Pattern) build8() {
	l := layout
	raw := newTable(int(stride8) * e.stages / 2)
	base := unsafe.Pointer(&raw[0])
	e.small = raw
	st8 := make([]*stage8, e.stages)
	for st := range e.stages {
		s := (*stage8)(unsafe.Add(base, uintptr(st)*stride8))
		st8[st] = s
		w := e.full[stageStart(st) : stageStart(st)+fullStride]
		var shift [numPatterns]uint32
		for p := range numPatterns {
			shift[p] = round8Table(s.w[l.fullOff[p]:l.fullOff[p+1]], w[l.fullOff[p]:l.fullOff[p+1]])
		}
		for n := range numInstances {
			s.shift[n] = shift[l.instOf[n]]
		}
		s.shift[shiftEdge8] = round8Table(s.w[edge8:corner8], w[fullEdgeMoves:fullCornerMoves])
		s.shift[shiftCorner8] = round8Table(s.w[corner8:corner8+moveTableSize], w[fullCornerMoves:fullStride])
	}
	for n := range e.byEmpties8 {
		e.byEmpties8[n] = st8[StageOf(e.stages, n)]
	}
}

// round8Table writes into b the weights of tab rounded to 8 bits with
// the least shift that fits them, writes the rounded weights back into
// tab and returns the shift.
func round8Table(b []int8, tab []int16) uint32 {
	sh := shift8(tab)
	for i, v := range tab {
		if v == 0 { // most are (configurations no game met), and b starts zeroed
			continue
		}
		q := round8(v, sh)
		b[i] = q
		tab[i] = int16(q) << sh
	}
	return sh
}

// shift8 returns the least shift that brings every weight of tab, rounded
// to a multiple of 1<<shift, within -128..127 multiples.
func shift8(tab []int16) uint32 {
	lo, hi := slices.Min(tab), slices.Max(tab)
	sh := uint32(0)
	for round8wide(lo, sh) < -128 || round8wide(hi, sh) > 127 {
		sh++
	}
	return sh
}

// round8wide is round8 before its conversion to 8 bits.
func round8wide(v int16, sh uint32) int { return (int(v) + 1<<sh>>1) >> sh }

// round8 returns v rounded to the nearest multiple of 1<<sh (halves up),
// in those multiples.
func round8(v int16, sh uint32) int8 {
	return int8(round8wide(v, sh))
}

// patternSum8Go is patternSumGo from the 8-bit tables, and the 8-bit
// kernels' reference.
func patternSum8Go(t *stage8, idx *[idxLen]uint32) int {
	const m = smallSize - 1
	sum := 0
	for n := range numInstances {
		sum += int(t.w[idx[n]&m]) << (t.shift[n] & 31)
	}
	return sum
}

// playSum8Go is playSumGo from the 8-bit tables.
func playSum8Go(t *stage8, src *[idxLen]uint32, sq int, flips uint64) int {
	idx := *src
	for _, u := range sqUpdates[sq&63] {
		idx[u>>16&(idxLen-1)] += 2 * (u & 0xFFFF)
	}
	for f := flips; f != 0; f &= f - 1 {
		for _, u := range sqUpdates[bits.TrailingZeros64(f)&63] {
			idx[u>>16&(idxLen-1)] += u & 0xFFFF
		}
	}
	return patternSum8Go(t, &idx)
}

// patternSum8 is patternSum from the 8-bit tables.
func patternSum8(t *stage8, idx *[idxLen]uint32) int {
	switch sumKernel {
	case kernelAVX512:
		return patternSum8AVX512(t, idx)
	case kernelAVX2:
		return patternSum8AVX2(t, idx)
	}
	return patternSum8Go(t, idx)
}

// playSum8 is PlayEvaluate's pattern sum from the 8-bit tables.
func playSum8(t *stage8, src *[idxLen]uint32, sq int, flips uint64) int {
	switch sumKernel {
	case kernelAVX512:
		return playSum8AVX512(t, src, &sqDelta, sq&63, flips)
	case kernelAVX2:
		return playSum8AVX2(t, src, &sqDelta, sq&63, flips)
	}
	return playSum8Go(t, src, sq, flips)
}

// globals8 is globals with the move patterns read from the 8-bit tables.
func globals8(w *[stageSize]int16, t *stage8, p, o uint64, empties int) int {
	g := w[fullEdgeMoves-globSize : fullEdgeMoves]
	mp, mo := bitboard.MovesBoth(p, o)
	return int(g[globMobP+min(bits.OnesCount64(mp), maxMobility)]) + int(g[globMobO+min(bits.OnesCount64(mo), maxMobility)]) +
		int(g[globParity+empties&1]) + moveScore8(t, mp, mo)
}

// moveScore8 is moveScore from the 8-bit tables.
func moveScore8(t *stage8, mp, mo uint64) int {
	e := (*[moveTableSize]int8)(t.w[edge8:corner8])
	c := (*[moveTableSize]int8)(t.w[corner8:])
	var se, sc int
	if playKernel {
		se, sc = moveScore8BMI2(e, c, &revDigits, mp, mo)
	} else {
		se, sc = moveScore8Go(e, c, mp, mo)
	}
	return se<<(t.shift[shiftEdge8]&31) + sc<<(t.shift[shiftCorner8]&31)
}

// moveScore8Go is moveScoreGo on 8-bit tables, the edges' and the corner
// blocks' sums apart (each has its shift); moveScore8BMI2's reference.
func moveScore8Go(e, c *[moveTableSize]int8, mp, mo uint64) (edges, corners int) {
	r := outerLines(mp) | outerLines(mo)<<1
	t := outerLines(bitboard.FlipDiagonal(mp)) | outerLines(bitboard.FlipDiagonal(mo))<<1
	edges = int(e[uint16(r)]) + int(e[uint16(r>>48)]) + int(e[uint16(t)]) + int(e[uint16(t>>48)])
	s1 := int(c[uint16(r>>16&0xFF|r<<8&0xFF00)]) +
		int(c[uint16(revDigits[uint8(r>>24)])|uint16(revDigits[uint8(r>>8)])<<8]) +
		int(c[uint16(r>>32&0xFF|r>>40&0xFF00)]) +
		int(c[uint16(revDigits[uint8(r>>40)])|uint16(revDigits[uint8(r>>56)])<<8])
	s2 := int(c[uint16(t>>16&0xFF|t<<8&0xFF00)]) +
		int(c[uint16(revDigits[uint8(t>>24)])|uint16(revDigits[uint8(t>>8)])<<8]) +
		int(c[uint16(t>>32&0xFF|t>>40&0xFF00)]) +
		int(c[uint16(revDigits[uint8(t>>40)])|uint16(revDigits[uint8(t>>56)])<<8])
	return edges, s1 + s2
}
