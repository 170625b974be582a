//go:build !amd64

package bitboard

// No assembly on this architecture: the portable paths run.
const hasAVX2Kernel, hasAVX512Kernel = false, false

func perftLeaves(p, o uint64) uint64  { return perftLeavesGo(p, o) }
func perft3Leaves(p, o uint64) uint64 { return perft3LeavesGo(p, o) }

// HasAVX2Kernel reports whether the AVX2 assembly paths run: never here.
func HasAVX2Kernel() bool { return false }

// AsmPath names the fast path in use, for benchmark reports.
func AsmPath() string { return "portable Go" }

// Stand-ins for the assembly kernels, which the twin tests name and call
// only where the CPU flags allow: never here. Variables serve, with no
// function body repeated per kernel.
var (
	movesAVX2, movesAVX512         = movesGo, movesGo
	flipsAVX2, flipsAVX512         = flipsGo, flipsGo
	movesBothAVX2, movesBothAVX512 = movesBothGo, movesBothGo
	flipsRepliesAVX2               = flipsRepliesGo
	flipsRepliesAVX512             = flipsRepliesGo
	last2AVX2, last2AVX512         = last2Portable, last2Portable
	last3AVX2, last3AVX512         = last3Portable, last3Portable
	last4AVX2, last4AVX512         = last4Portable, last4Portable
	last5AVX2, last5AVX512         = last5Go, last5Go
)

// The kernels' entry points (dispatch_amd64.s on amd64) are the portable
// code here.

func flipsKernel(p, o uint64, sq Square) uint64   { return flipsGo(p, o, sq) }
func movesKernel(p, o uint64) uint64              { return movesGo(p, o) }
func movesBothKernel(p, o uint64) (pm, om uint64) { return movesBothGo(p, o) }
func flipsRepliesKernel(p, o uint64, sq Square) (f, r uint64) {
	return flipsRepliesGo(p, o, sq)
}
func last2Kernel(p, o uint64, alpha int, x1, x2 int) (score, nodes int) {
	return last2Portable(p, o, alpha, x1, x2)
}
func last3Kernel(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int) {
	return last3Portable(p, o, alpha, x1, x2, x3)
}
func last4Kernel(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int) {
	return last4Portable(p, o, alpha, x1, x2, x3, x4)
}
func last5Kernel(p, o uint64, alpha int, g1, g2, g3 uint64) (score, nodes int) {
	return last5Go(p, o, alpha, g1, g2, g3)
}
