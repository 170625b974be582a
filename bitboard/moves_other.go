//go:build !amd64

package bitboard

// No assembly on this architecture: the portable paths run.
const hasAVX2Kernel, hasAVX512Kernel = false, false

func perftLeaves(p, o uint64) uint64             { return perftLeavesGo(p, o) }
func perft3Leaves(p, o uint64) uint64            { return perft3LeavesGo(p, o) }
func movesAVX512(p, o uint64) uint64             { return movesGo(p, o) }
func movesAVX2(p, o uint64) uint64               { return movesGo(p, o) }
func flipsAVX2(p, o uint64, sq Square) uint64    { return flipsGo(p, o, sq) }
func movesBothAVX2(p, o uint64) (uint64, uint64) { return movesGo(p, o), movesGo(o, p) }
func movesBothAVX512(p, o uint64) (uint64, uint64) {
	return movesGo(p, o), movesGo(o, p)
}
func flipsAVX512(p, o uint64, sq Square) uint64 { return flipsGo(p, o, sq) }

// HasAVX2Kernel reports whether the AVX2 assembly paths run: never here.
func HasAVX2Kernel() bool { return false }

// AsmPath names the fast path in use, for benchmark reports.
func AsmPath() string { return "portable Go" }

// The last-empties kernels are their portable forms (lastflip.go), with
// the kernels' argument types.

func last2AVX2(p, o uint64, alpha int, x1, x2 int) (score, nodes int) {
	return last2Portable(p, o, alpha, x1, x2)
}

func last3AVX2(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int) {
	return last3Portable(p, o, alpha, x1, x2, x3)
}

func last4AVX2(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int) {
	return last4Portable(p, o, alpha, x1, x2, x3, x4)
}

func last2AVX512(p, o uint64, alpha int, x1, x2 int) (score, nodes int) {
	return last2Portable(p, o, alpha, x1, x2)
}

func last3AVX512(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int) {
	return last3Portable(p, o, alpha, x1, x2, x3)
}

func last4AVX512(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int) {
	return last4Portable(p, o, alpha, x1, x2, x3, x4)
}

// The kernels' entry points (dispatch_amd64.s on amd64) are the portable
// code here.

func flipsKernel(p, o uint64, sq Square) uint64   { return flipsGo(p, o, sq) }
func movesKernel(p, o uint64) uint64              { return movesGo(p, o) }
func movesBothKernel(p, o uint64) (pm, om uint64) { return movesBothGo(p, o) }
func last2Kernel(p, o uint64, alpha int, x1, x2 int) (score, nodes int) {
	return last2Portable(p, o, alpha, x1, x2)
}
func last3Kernel(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int) {
	return last3Portable(p, o, alpha, x1, x2, x3)
}
func last4Kernel(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int) {
	return last4Portable(p, o, alpha, x1, x2, x3, x4)
}
