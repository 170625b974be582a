package bitboard

// The kernels' entry points, in assembly (dispatch_amd64.s): each jumps to
// the AVX-512 kernel, the AVX2 one or the portable Go twin, by
// hasAVX512Kernel and hasAVX2Kernel. The exported functions (Flips, Moves,
// MovesBoth, FlipsReplies, Last2-Last5) are one call to these, so they inline into their
// callers: a solver node reaches a kernel in one call, where a Go function
// choosing the kernel was a second one (no inlining budget covers three
// calls, and profile-guided inlining took some call sites and not others).
// FFO #40-#44: -2.5% instructions; time within noise, 0.97-1.01 in
// whole-run medians.

//go:noescape
func flipsKernel(p, o uint64, sq Square) uint64

//go:noescape
func movesKernel(p, o uint64) uint64

//go:noescape
func movesBothKernel(p, o uint64) (pm, om uint64)

//go:noescape
func flipsRepliesKernel(p, o uint64, sq Square) (f, r uint64)

//go:noescape
func last2Kernel(p, o uint64, alpha int, x1, x2 int) (score, nodes int)

//go:noescape
func last3Kernel(p, o uint64, alpha int, x1, x2, x3 int) (score, nodes int)

//go:noescape
func last4Kernel(p, o uint64, alpha int, x1, x2, x3, x4 int) (score, nodes int)

//go:noescape
func last5Kernel(p, o uint64, alpha int, g1, g2, g3 uint64) (score, nodes int)
