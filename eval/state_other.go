//go:build !amd64

package eval

// No assembly on this architecture: Play runs playGo, scoreState
// patternSumGo.
const (
	playKernel = false
	sumKernel  = kernelGo
)

// The evaluation's kernels: only the portable Go here.
const (
	kernelGo = iota
	kernelAVX2
	kernelAVX512
)

func playAVX2(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32) {
	panic("eval: playAVX2 without amd64")
}

func playAVX512(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32) {
	panic("eval: playAVX512 without amd64")
}

func patternSumAVX2(t *[stageSize]int16, idx *[idxLen]uint32) int {
	panic("eval: patternSumAVX2 without amd64")
}

func patternSumAVX512(t *[stageSize]int16, idx *[idxLen]uint32) int {
	panic("eval: patternSumAVX512 without amd64")
}

func moveScoreBMI2(e, c *[moveTableSize]int16, rev *[256]uint8, mp, mo uint64) int {
	panic("eval: moveScoreBMI2 without amd64")
}

func playSumAVX2(t *[stageSize]int16, src *[idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64) int {
	panic("eval: playSumAVX2 without amd64")
}

func playSumAVX512(t *[stageSize]int16, src *[idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64) int {
	panic("eval: playSumAVX512 without amd64")
}
