package eval

import "math/bits"

// State is a position as the evaluation sees it, carried along a search
// line so that an evaluation need not start from the bare board: the search
// keeps one State per ply and derives a child's from its parent's with Play
// or Pass. A State is a plain value (copying it is safe) and belongs to one
// search at a time.
//
// Besides the board it holds every pattern instance's raw index twice: as
// each side reads it (digit 1 a disc of the reader, 2 one of the other
// side). Reader 0 is the side to move when Init was called. Play adds to
// both readings the change of the placed and the flipped squares (per-square
// tables of instance and power of 3); Pass changes only which reading is the
// side to move's. No board transform, no gathering, no base-3 conversion,
// and one weight table per stage serves both sides: a second table with the
// digits swapped would double the weights a search keeps in cache.
type State struct {
	P, O uint64 // discs of the side to move and of the other side
	// idx[r][n] is instance n's raw index read by reader r, plus its
	// pattern's offset in a full stage table (so that an evaluation adds
	// no offsets; uint32 measured faster than uint16 plus offsets). Each
	// reading is padded to a power of two so that n&(idxLen-1) needs no
	// bounds check.
	idx   [2][idxLen]uint32
	mover uint8 // the reader to move: 0 or 1
}

// idxLen is numInstances rounded up to a power of two.
const idxLen = 64

// sqUpdates[sq] lists the pattern instances containing square sq, each as
// instance<<16 | the power of 3 of sq's digit in that instance's full
// index (fullIndex: the last square's digit is the lowest), for Play.
var sqUpdates = func() (t [64][]uint32) {
	for n, sqs := range layout.instSquares {
		pw := 1
		for k := len(sqs) - 1; k >= 0; k-- {
			t[sqs[k]] = append(t[sqs[k]], uint32(n)<<16|uint32(pw))
			pw *= 3
		}
	}
	return t
}()

// Init sets s to the position (player to move).
func (e *Pattern) Init(s *State, player, opponent uint64) {
	s.P, s.O, s.mover = player, opponent, 0
	var idx [2][numInstances]int32
	indexes(player, opponent, &idx)
	for r := range idx {
		for n, i := range idx[r] {
			s.idx[r][n] = uint32(i)
		}
		for n := numInstances; n < idxLen; n++ { // padding, so that equal positions give equal States
			s.idx[r][n] = 0
		}
	}
}

// Play sets dst to src after the side to move plays sq, flipping flips
// (bitboard.Flips of that move); the side to move changes. dst and src may
// be the same State.
func (e *Pattern) Play(dst, src *State, sq int, flips uint64) {
	p, o := src.P, src.O
	m := src.mover & 1
	switch sumKernel {
	case kernelAVX512:
		playAVX512(&dst.idx, &src.idx, &sqDelta, sq&63, flips, uint32(m))
	case kernelAVX2:
		playAVX2(&dst.idx, &src.idx, &sqDelta, sq&63, flips, uint32(m))
	default:
		playGo(&dst.idx, &src.idx, sq, flips, m)
	}
	dst.P, dst.O = o&^flips, p|flips|1<<uint(sq&63)
	dst.mover = m ^ 1
}

// playGo is Play's index update in Go, and playAVX2's reference.
func playGo(dst, src *[2][idxLen]uint32, sq int, flips uint64, m uint8) {
	if dst != src {
		*dst = *src
	}
	// In the mover's reading the placed square goes 0 -> 1 (+pw) and the
	// flipped ones 2 -> 1 (-pw); in the other reading 0 -> 2 (+2pw) and
	// 1 -> 2 (+pw). In uint32 arithmetic, -pw is pw*0xFFFFFFFF.
	own, other := &dst[m&1], &dst[(m^1)&1]
	for _, u := range sqUpdates[sq&63] { // &63 drops the bounds check
		n := u >> 16 & (idxLen - 1)
		own[n] += u & 0xFFFF
		other[n] += 2 * (u & 0xFFFF)
	}
	for f := flips; f != 0; f &= f - 1 {
		for _, u := range sqUpdates[bits.TrailingZeros64(f)&63] {
			n := u >> 16 & (idxLen - 1)
			own[n] -= u & 0xFFFF
			other[n] += u & 0xFFFF
		}
	}
}

// deltaLanes is the number of indexes playAVX2 updates: numInstances
// rounded up to whole 8-lane registers (the lanes above numInstances stay
// 0 in every State).
const deltaLanes = 48

var _ [deltaLanes - numInstances]struct{} // deltaLanes covers every instance

// sqDelta[sq][n] is the power of 3 of square sq in instance n (0 where n
// does not contain sq): sqUpdates as rows of lanes, for playAVX2. Row 64
// is all zeros, for the flipped squares it adds without testing whether
// there are that many.
var sqDelta = func() (t [65][deltaLanes]uint32) {
	for sq, us := range sqUpdates {
		for _, u := range us {
			t[sq][u>>16] = u & 0xFFFF
		}
	}
	return t
}()

// Pass sets dst to src with the other side to move.
func (e *Pattern) Pass(dst, src *State) {
	if dst != src {
		dst.idx = src.idx
	}
	dst.P, dst.O = src.O, src.P
	dst.mover = src.mover ^ 1
}

// EvaluateState returns Evaluate of the position s holds.
func (e *Pattern) EvaluateState(s *State) int {
	return round(e.scoreState(s))
}

// PlayEvaluate returns what EvaluateState would of the State that
// Play(dst, src, sq, flips) would set, without setting it: the child's
// side to move reads its indexes from src's other reading plus the placed
// and flipped squares' changes, which stay in registers on their way to
// the table reads. A search evaluates most children only to score them
// (the leaves, the move order), and this skips writing and reading back
// both readings of a State that no one plays from.
func (e *Pattern) PlayEvaluate(src *State, sq int, flips uint64) int {
	p, o := src.P, src.O
	np, no := o&^flips, p|flips|1<<uint(sq&63)
	empties := 64 - bits.OnesCount64(np|no)
	t := e.stage(empties)
	idx := &src.idx[(src.mover^1)&1]
	var sum int
	switch sumKernel {
	case kernelAVX512:
		sum = playSumAVX512(t, idx, &sqDelta, sq&63, flips)
	case kernelAVX2:
		sum = playSumAVX2(t, idx, &sqDelta, sq&63, flips)
	default:
		sum = playSumGo(t, idx, sq, flips)
	}
	return round(sum + globals(t, np, no, empties))
}

// playSumGo is the pattern sum of PlayEvaluate in Go, and the kernels'
// reference: in the reading of the side not moving the placed square goes
// 0 -> 2 (+2pw) and the flipped ones 1 -> 2 (+pw) (playGo).
func playSumGo(t *[stageSize]int16, src *[idxLen]uint32, sq int, flips uint64) int {
	idx := *src
	for _, u := range sqUpdates[sq&63] { // &63 drops the bounds check
		idx[u>>16&(idxLen-1)] += 2 * (u & 0xFFFF)
	}
	for f := flips; f != 0; f &= f - 1 {
		for _, u := range sqUpdates[bits.TrailingZeros64(f)&63] {
			idx[u>>16&(idxLen-1)] += u & 0xFFFF
		}
	}
	return patternSumGo(t, &idx)
}

// scoreState is Score from the indexes s carries.
func (e *Pattern) scoreState(s *State) int {
	empties := 64 - bits.OnesCount64(s.P|s.O)
	t := e.stage(empties)
	return patternSum(t, &s.idx[s.mover&1]) + globals(t, s.P, s.O, empties)
}

// patternSum returns the sum of the pattern weights of one reading's
// indexes, in the fastest form the CPU runs.
func patternSum(t *[stageSize]int16, idx *[idxLen]uint32) int {
	switch sumKernel {
	case kernelAVX512:
		return patternSumAVX512(t, idx)
	case kernelAVX2:
		return patternSumAVX2(t, idx)
	}
	return patternSumGo(t, idx)
}

// The sums below name instances 0 to 45: a change of the pattern set must
// change them too.
var _ [numInstances - 46]struct{}
var _ [46 - numInstances]struct{}

// patternSumGo is patternSum in Go, and the kernels' reference. Every
// instance is written out, in four independent sums: no loop overhead,
// and no loop exit for the branch predictor to miss at every evaluation
// (valgrind's branch simulation counted one). The mask by stageSize-1
// drops each read's bounds check (an index is always below fullStride).
func patternSumGo(t *[stageSize]int16, idx *[idxLen]uint32) int {
	const m = stageSize - 1
	s0 := int(t[idx[0]&m]) + int(t[idx[1]&m]) + int(t[idx[2]&m]) + int(t[idx[3]&m]) +
		int(t[idx[4]&m]) + int(t[idx[5]&m]) + int(t[idx[6]&m]) + int(t[idx[7]&m]) +
		int(t[idx[8]&m]) + int(t[idx[9]&m]) + int(t[idx[10]&m]) + int(t[idx[11]&m])
	s1 := int(t[idx[12]&m]) + int(t[idx[13]&m]) + int(t[idx[14]&m]) + int(t[idx[15]&m]) +
		int(t[idx[16]&m]) + int(t[idx[17]&m]) + int(t[idx[18]&m]) + int(t[idx[19]&m]) +
		int(t[idx[20]&m]) + int(t[idx[21]&m]) + int(t[idx[22]&m]) + int(t[idx[23]&m])
	s2 := int(t[idx[24]&m]) + int(t[idx[25]&m]) + int(t[idx[26]&m]) + int(t[idx[27]&m]) +
		int(t[idx[28]&m]) + int(t[idx[29]&m]) + int(t[idx[30]&m]) + int(t[idx[31]&m]) +
		int(t[idx[32]&m]) + int(t[idx[33]&m]) + int(t[idx[34]&m]) + int(t[idx[35]&m])
	s3 := int(t[idx[36]&m]) + int(t[idx[37]&m]) + int(t[idx[38]&m]) + int(t[idx[39]&m]) +
		int(t[idx[40]&m]) + int(t[idx[41]&m]) + int(t[idx[42]&m]) + int(t[idx[43]&m]) +
		int(t[idx[44]&m]) + int(t[idx[45]&m])
	return s0 + s1 + s2 + s3
}
