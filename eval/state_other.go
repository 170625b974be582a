//go:build !amd64

package eval

// No assembly on this architecture: Play runs playGo.
const playKernel = false

func playAVX2(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32) {
	panic("eval: playAVX2 without amd64")
}

func moveScoreBMI2(e, c *[moveTableSize]int16, rev *[256]uint8, mp, mo uint64) int {
	panic("eval: moveScoreBMI2 without amd64")
}
