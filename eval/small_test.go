package eval

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// with8 returns a copy of e with the 8-bit tables, whatever
// OUTFLANK_EVAL8 says.
func with8(t testing.TB, e *Pattern) *Pattern {
	f, err := FromPacked(e.Packed(), e.Stages())
	if err != nil {
		t.Fatal(err)
	}
	if f.small == nil {
		f.build8()
	}
	return f
}

// The rounded weights are within half a step of the fitted ones, each
// pattern and move table with the least shift that keeps its bytes in
// range, the bytes shifted back are the int16 tables' weights, and the
// global features keep theirs.
func TestBuild8Rounding(t *testing.T) {
	e := Default()
	if e.small != nil {
		t.Skip("OUTFLANK_EVAL8=1: the embedded weights are rounded already")
	}
	f := with8(t, e)
	l := layout
	maxErr := 0
	check := func(st int, name string, w, r []int16, b []int8, sh uint32) {
		lo, hi := 0, 0
		for i := range w {
			d := int(r[i]) - int(w[i])
			if sh > 0 && (d <= -(1<<sh>>1) || d > 1<<sh>>1) || sh == 0 && d != 0 { // halves round up
				t.Fatalf("stage %d, %s[%d]: %d rounded to %d with shift %d", st, name, i, w[i], r[i], sh)
			}
			if int(b[i])<<sh != int(r[i]) {
				t.Fatalf("stage %d, %s[%d]: byte %d << %d, table %d", st, name, i, b[i], sh, r[i])
			}
			maxErr = max(maxErr, d, -d)
			lo, hi = min(lo, int(b[i])), max(hi, int(b[i]))
		}
		if sh > 0 && lo > -65 && hi < 64 {
			t.Fatalf("stage %d, %s: shift %d, but the bytes span only %d..%d", st, name, sh, lo, hi)
		}
	}
	for st := range e.stages {
		w, r := e.full[stageStart(st):], f.full[stageStart(st):]
		s8 := f.byEmpties8[stageEmpties(e.stages, st)]
		for n := range numInstances {
			p := l.instOf[n]
			lo, hi := l.fullOff[p], l.fullOff[p+1]
			check(st, patternNames[p], w[lo:hi], r[lo:hi], s8.w[lo:hi], s8.shift[n])
		}
		check(st, "edgemoves", w[fullEdgeMoves:fullCornerMoves], r[fullEdgeMoves:fullCornerMoves], s8.w[edge8:corner8], s8.shift[shiftEdge8])
		check(st, "cornermoves", w[fullCornerMoves:fullStride], r[fullCornerMoves:fullStride], s8.w[corner8:corner8+moveTableSize], s8.shift[shiftCorner8])
		if !slices.Equal(w[patternFullSize:fullEdgeMoves], r[patternFullSize:fullEdgeMoves]) {
			t.Fatalf("stage %d: the global features' weights changed", st)
		}
	}
	t.Logf("largest rounding %d units (1/%d disc)", maxErr, Scale)
	if f.Digest() == e.Digest() {
		t.Errorf("the rounded weights have the digest of the fitted ones, %s", e.Digest())
	}
}

// stageEmpties returns a count of empties of stage st.
func stageEmpties(stages, st int) int {
	lo, _ := StageRange(stages, st)
	return lo
}

// With the 8-bit tables, the State's evaluations equal Evaluate and Score
// (which read the rounded int16 weights) at every ply of random games, the
// children's by PlayEvaluate too.
func TestState8MatchesEvaluate(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 30
	}
	for _, e := range []*Pattern{with8(t, Default()), with8(t, randomWeights(t, 8))} {
		if e.byEmpties8[20] == nil {
			t.Fatal("no 8-bit tables")
		}
		rng := rand.New(rand.NewPCG(9, 10))
		for range games {
			playRandomGame(t, e, rng)
		}
	}
}

// randomStage8 returns a stage8 of random bytes (the extremes included)
// and random shifts 0-7, padding lanes too (which must not count).
func randomStage8(rng *rand.Rand) *stage8 {
	s := new(stage8)
	for i := range s.w {
		s.w[i] = int8(rng.IntN(256) - 128)
	}
	s.w[0], s.w[1], s.w[patternFullSize-1] = -128, 127, -128
	for n := range s.shift {
		s.shift[n] = uint32(rng.IntN(8))
	}
	return s
}

// The 8-bit kernels (AVX2 and, where the CPU has it, AVX-512) equal
// patternSum8Go: random tables and shifts, random indexes anywhere in the
// pattern tables with random padding lanes, and the indexes of random
// positions.
func TestPatternSum8Kernel(t *testing.T) {
	if !playKernel {
		t.Skip("no AVX2 kernel on this machine")
	}
	kernels := map[string]func(*stage8, *[idxLen]uint32) int{"AVX2": patternSum8AVX2}
	if sumKernel == kernelAVX512 {
		kernels["AVX-512"] = patternSum8AVX512
	} else {
		t.Log("no AVX-512 on this machine: patternSum8AVX512 not tested")
	}
	rng := rand.New(rand.NewPCG(5, 17))
	s := randomStage8(rng)
	check := func(idx *[idxLen]uint32) {
		want := patternSum8Go(s, idx)
		for name, sum := range kernels {
			if got := sum(s, idx); got != want {
				t.Fatalf("indexes %v: %s %d, Go %d", idx, name, got, want)
			}
		}
	}
	var idx [idxLen]uint32
	for range 20000 {
		for n := range idx {
			idx[n] = uint32(rng.IntN(patternFullSize))
		}
		check(&idx)
	}
	for n := range idx[:numInstances] { // every instance at -128, shifted
		idx[n] = 0
	}
	check(&idx)
	e := Default()
	for _, pos := range randomPositions(12, 50) {
		var st State
		e.Init(&st, pos.Player, pos.Opponent)
		check(&st.idx[0])
		check(&st.idx[1])
	}
}

// The 8-bit PlayEvaluate kernels equal playSum8Go on every move of random
// games, both readings, with a random stage and the embedded weights'.
func TestPlaySum8Kernel(t *testing.T) {
	if !playKernel {
		t.Skip("no AVX2 kernel on this machine")
	}
	kernels := map[string]func(*stage8, *[idxLen]uint32, *[65][deltaLanes]uint32, int, uint64) int{
		"AVX2": playSum8AVX2,
	}
	if sumKernel == kernelAVX512 {
		kernels["AVX-512"] = playSum8AVX512
	} else {
		t.Log("no AVX-512 on this machine: playSum8AVX512 not tested")
	}
	rng := rand.New(rand.NewPCG(6, 11))
	w := randomStage8(rng)
	e := with8(t, Default())
	n := 0
	for range 40 {
		pos := bitboard.Start()
		var s State
		e.Init(&s, pos.Player, pos.Opponent)
		for !pos.GameOver() {
			m := pos.Moves()
			if m == 0 {
				pos = pos.Pass()
				e.Pass(&s, &s)
				continue
			}
			for mm := m; mm != 0; mm &= mm - 1 {
				x := bitboard.FirstSquare(mm)
				f := bitboard.Flips(pos.Player, pos.Opponent, x)
				for r := range 2 {
					for _, tab := range []*stage8{w, e.byEmpties8[pos.Empties()-1]} {
						want := playSum8Go(tab, &s.idx[r], int(x), f)
						for name, sum := range kernels {
							if got := sum(tab, &s.idx[r], &sqDelta, int(x), f); got != want {
								t.Fatalf("%v, %s, reading %d: %s %d, Go %d", pos, x, r, name, got, want)
							}
						}
						n++
					}
				}
			}
			for k := rng.IntN(bits.OnesCount64(m)); k > 0; k-- {
				m &= m - 1
			}
			sq := bitboard.FirstSquare(m)
			e.Play(&s, &s, int(sq), bitboard.Flips(pos.Player, pos.Opponent, sq))
			pos = pos.Play(sq)
		}
	}
	t.Logf("%d sums", n)
}

func BenchmarkEvaluateState8(b *testing.B) {
	e := with8(b, Default())
	positions := randomPositions(13, 200)
	states := make([]State, len(positions))
	for i, pos := range positions {
		e.Init(&states[i], pos.Player, pos.Opponent)
	}
	i := 0
	for b.Loop() {
		e.EvaluateState(&states[i])
		i++
		if i == len(states) {
			i = 0
		}
	}
}

// The 8-bit move-pattern kernel equals moveScore8Go on random tables and
// any move bitboards (random words and the moves of random positions).
func TestMoveScore8Kernel(t *testing.T) {
	if !playKernel {
		t.Skip("no BMI2 kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(7, 3))
	var e, c [moveTableSize]int8
	for i := range e {
		e[i], c[i] = int8(rng.IntN(256)-128), int8(rng.IntN(256)-128)
	}
	check := func(mp, mo uint64) {
		we, wc := moveScore8Go(&e, &c, mp, mo)
		if ge, gc := moveScore8BMI2(&e, &c, &revDigits, mp, mo); ge != we || gc != wc {
			t.Fatalf("moves %#x %#x: BMI2 %d %d, Go %d %d", mp, mo, ge, gc, we, wc)
		}
	}
	for range 100000 {
		check(rng.Uint64(), rng.Uint64())
	}
	check(^uint64(0), ^uint64(0))
	for _, pos := range randomPositions(14, 50) {
		check(bitboard.MovesBoth(pos.Player, pos.Opponent))
	}
}
