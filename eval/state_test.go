package eval

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// playRandomGame plays a game from the start by moves drawn from rng,
// carrying a State along with Play and Pass, and checks at every position
// that the State's indexes equal a fresh Init's, that EvaluateState
// equals Evaluate and Score, and that PlayEvaluate of every move equals
// Evaluate of the child.
func playRandomGame(t *testing.T, e *Pattern, rng *rand.Rand) {
	t.Helper()
	pos := bitboard.Start()
	var s State
	e.Init(&s, pos.Player, pos.Opponent)
	for ply := 0; ; ply++ {
		var fresh State
		e.Init(&fresh, pos.Player, pos.Opponent)
		if s.P != fresh.P || s.O != fresh.O || !sameReading(&s, &fresh) {
			t.Fatalf("ply %d, %v: incremental state differs from Init's\n got %v\nwant %v", ply, pos, s, fresh)
		}
		if got, want := e.scoreState(&s), e.Score(pos.Player, pos.Opponent); got != want {
			t.Fatalf("ply %d, %v: scoreState %d, Score %d", ply, pos, got, want)
		}
		if got, want := e.EvaluateState(&s), e.Evaluate(pos.Player, pos.Opponent); got != want {
			t.Fatalf("ply %d, %v: EvaluateState %d, Evaluate %d", ply, pos, got, want)
		}
		if pos.GameOver() {
			return
		}
		m := pos.Moves()
		for mm := m; mm != 0; mm &= mm - 1 { // every child, by PlayEvaluate
			x := bitboard.FirstSquare(mm)
			f := bitboard.Flips(pos.Player, pos.Opponent, x)
			c := pos.Play(x)
			if got, want := e.PlayEvaluate(&s, int(x), f), e.Evaluate(c.Player, c.Opponent); got != want {
				t.Fatalf("ply %d, %v, %s: PlayEvaluate %d, Evaluate of the child %d", ply, pos, x, got, want)
			}
		}
		if m == 0 {
			pos = pos.Pass()
			if rng.IntN(2) == 0 { // both the in-place and the copying forms
				e.Pass(&s, &s)
			} else {
				var d State
				e.Pass(&d, &s)
				s = d
			}
			continue
		}
		for k := rng.IntN(bits.OnesCount64(m)); k > 0; k-- {
			m &= m - 1
		}
		sq := bitboard.FirstSquare(m)
		flips := bitboard.Flips(pos.Player, pos.Opponent, sq)
		pos = pos.Play(sq)
		if rng.IntN(2) == 0 {
			e.Play(&s, &s, int(sq), flips)
		} else {
			var d State
			e.Play(&d, &s, int(sq), flips)
			s = d
		}
	}
}

func TestStateMatchesEvaluate(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 60
	}
	for _, e := range []*Pattern{Default(), randomWeights(t, 8)} {
		rng := rand.New(rand.NewPCG(9, 9))
		for range games {
			playRandomGame(t, e, rng)
		}
	}
}

// sameReading reports whether the readings of a, its side to move's first,
// equal those of b (which has reader 0 to move).
func sameReading(a, b *State) bool {
	return a.idx[a.mover] == b.idx[0] && a.idx[a.mover^1] == b.idx[1]
}

func TestSwapDigits(t *testing.T) {
	// Reading a position as the other side is reading the swapped position.
	for _, pos := range randomPositions(10, 20) {
		var a, b State
		e := Default()
		e.Init(&a, pos.Player, pos.Opponent)
		e.Init(&b, pos.Opponent, pos.Player)
		for n := range numInstances {
			if swapDigits(int(a.idx[0][n]-uint32(instOff[n]))) != int(b.idx[0][n]-uint32(instOff[n])) {
				t.Fatalf("%v: instance %d: the two readings are not each other's swap", pos, n)
			}
		}
		if a.idx[1] != b.idx[0] || a.idx[0] != b.idx[1] {
			t.Fatalf("%v: a State's second reading is not the other side's first", pos)
		}
	}
}

func FuzzState(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(0), uint64(0xdeadbeef))
	e := Default()
	f.Fuzz(func(t *testing.T, a, b uint64) {
		playRandomGame(t, e, rand.New(rand.NewPCG(a, b)))
	})
}

// benchStates returns the States of the positions of randomPositions(12, 20),
// the benchmark set of BenchmarkEvaluate.
func benchStates(e *Pattern) []State {
	pos := randomPositions(12, 20)
	st := make([]State, len(pos))
	for i, p := range pos {
		e.Init(&st[i], p.Player, p.Opponent)
	}
	return st
}

func BenchmarkEvaluateState(b *testing.B) {
	e := Default()
	st := benchStates(e)
	i := 0
	for b.Loop() {
		e.EvaluateState(&st[i%len(st)])
		i++
	}
}

// BenchmarkPlayEvaluateState measures what a search pays per node: derive
// a child's State with Play, then evaluate it.
func BenchmarkPlayEvaluateState(b *testing.B) {
	e := Default()
	type move struct {
		parent State
		sq     int
		flips  uint64
	}
	var moves []move
	for _, p := range randomPositions(12, 20) {
		if m := p.Moves(); m != 0 {
			var s State
			e.Init(&s, p.Player, p.Opponent)
			sq := bitboard.FirstSquare(m)
			moves = append(moves, move{s, int(sq), bitboard.Flips(p.Player, p.Opponent, sq)})
		}
	}
	var child State
	i := 0
	for b.Loop() {
		m := &moves[i%len(moves)]
		e.Play(&child, &m.parent, m.sq, m.flips)
		e.EvaluateState(&child)
		i++
	}
}

func BenchmarkInit(b *testing.B) {
	e := Default()
	pos := randomPositions(12, 20)
	var s State
	i := 0
	for b.Loop() {
		p := pos[i%len(pos)]
		e.Init(&s, p.Player, p.Opponent)
		i++
	}
}

// instOff[n] is the offset of instance n's pattern table in a full stage.
var instOff = func() (t [numInstances]int32) {
	for n := range t {
		t[n] = layout.fullOff[layout.instOf[n]]
	}
	return t
}()

// BenchmarkPlayEvaluateStateSearch measures Play+EvaluateState the way a
// search's last ply meets it: every child of positions at one empties
// count (31), so one stage's tables serve them all. BenchmarkEvaluateState
// mixes all stages, which keeps far more weights in play than a search.
func BenchmarkPlayEvaluateStateSearch(b *testing.B) {
	e := Default()
	type move struct {
		parent *State
		sq     int
		flips  uint64
	}
	var moves []move
	for _, p := range randomPositions(12, 200) {
		if p.Empties() != 31 {
			continue
		}
		s := new(State)
		e.Init(s, p.Player, p.Opponent)
		for m := p.Moves(); m != 0; m &= m - 1 {
			sq := bitboard.FirstSquare(m)
			moves = append(moves, move{s, int(sq), bitboard.Flips(p.Player, p.Opponent, sq)})
		}
	}
	var child State
	i := 0
	for b.Loop() {
		m := &moves[i%len(moves)]
		e.Play(&child, m.parent, m.sq, m.flips)
		e.EvaluateState(&child)
		i++
	}
}

// TestPlayKernel checks the assembly index updates (AVX2 and, where the
// CPU has it, AVX-512) against playGo on the moves of random games, both
// sides to move, in place and into another State.
func TestPlayKernel(t *testing.T) {
	if !playKernel {
		t.Skip("no AVX2 kernel on this machine")
	}
	kernels := map[string]func(dst, src *[2][idxLen]uint32, delta *[65][deltaLanes]uint32, sq int, flips uint64, mover uint32){
		"AVX2": playAVX2,
	}
	if sumKernel == kernelAVX512 {
		kernels["AVX-512"] = playAVX512
	} else {
		t.Log("no AVX-512 on this machine: playAVX512 not tested")
	}
	e := Default()
	rng := rand.New(rand.NewPCG(5, 13))
	n := 0
	for g := 0; g < 200; g++ {
		pos := bitboard.Start()
		var s State
		e.Init(&s, pos.Player, pos.Opponent)
		for !pos.GameOver() { // the side to move alternates: both movers' updates
			m := pos.Moves()
			if m == 0 {
				pos = pos.Pass()
				e.Pass(&s, &s)
				continue
			}
			for k := rng.IntN(bits.OnesCount64(m)); k > 0; k-- {
				m &= m - 1
			}
			sq := bitboard.FirstSquare(m)
			flips := bitboard.Flips(pos.Player, pos.Opponent, sq)
			var want State
			playGo(&want.idx, &s.idx, int(sq), flips, s.mover&1)
			for name, play := range kernels {
				var got State
				inPlace := s
				play(&got.idx, &s.idx, &sqDelta, int(sq), flips, uint32(s.mover&1))
				play(&inPlace.idx, &inPlace.idx, &sqDelta, int(sq), flips, uint32(s.mover&1))
				if got.idx != want.idx || inPlace.idx != want.idx {
					t.Fatalf("%v, mover %d, %s: %s\n%v\n%v (in place)\nwant %v", pos, s.mover, sq, name, got.idx, inPlace.idx, want.idx)
				}
			}
			e.Play(&s, &s, int(sq), flips)
			pos = pos.Play(sq)
			n++
		}
	}
	t.Logf("%d moves", n)
}

// TestPatternSumKernel checks the assembly weight sums (AVX2 and, where
// the CPU has it, AVX-512) against patternSumGo: random int16 tables
// (extremes included, so that a sign extension or an overflow shows),
// random indexes anywhere in a stage's table with random padding lanes
// (which must not count), and the indexes of random positions.
func TestPatternSumKernel(t *testing.T) {
	if !playKernel {
		t.Skip("no AVX2 kernel on this machine")
	}
	kernels := map[string]func(*[stageSize]int16, *[idxLen]uint32) int{"AVX2": patternSumAVX2}
	if sumKernel == kernelAVX512 {
		kernels["AVX-512"] = patternSumAVX512
	} else {
		t.Log("no AVX-512 on this machine: patternSumAVX512 not tested")
	}
	rng := rand.New(rand.NewPCG(3, 17))
	w := new([stageSize]int16)
	for i := range fullStride + 1 {
		w[i] = int16(rng.IntN(65536) - 32768)
	}
	w[0], w[1], w[fullStride-1] = -32768, 32767, -32768
	check := func(idx *[idxLen]uint32) {
		want := patternSumGo(w, idx)
		for name, sum := range kernels {
			if got := sum(w, idx); got != want {
				t.Fatalf("indexes %v: %s %d, Go %d", idx, name, got, want)
			}
		}
	}
	var idx [idxLen]uint32
	for range 20000 {
		for n := range idx {
			idx[n] = uint32(rng.IntN(fullStride))
		}
		check(&idx)
	}
	for n := range idx[:numInstances] { // every instance at the most negative weight
		idx[n] = 0
	}
	check(&idx)
	e := Default()
	for _, pos := range randomPositions(12, 50) {
		var s State
		e.Init(&s, pos.Player, pos.Opponent)
		check(&s.idx[0])
		check(&s.idx[1])
	}
}

// TestPlaySumKernel checks the assembly PlayEvaluate sums (AVX2 and,
// where the CPU has it, AVX-512) against playSumGo on every move of the
// positions of random games, both readings, with the embedded weights'
// stage and a random table with extreme weights.
func TestPlaySumKernel(t *testing.T) {
	if !playKernel {
		t.Skip("no AVX2 kernel on this machine")
	}
	kernels := map[string]func(*[stageSize]int16, *[idxLen]uint32, *[65][deltaLanes]uint32, int, uint64) int{
		"AVX2": playSumAVX2,
	}
	if sumKernel == kernelAVX512 {
		kernels["AVX-512"] = playSumAVX512
	} else {
		t.Log("no AVX-512 on this machine: playSumAVX512 not tested")
	}
	rng := rand.New(rand.NewPCG(4, 11))
	w := new([stageSize]int16)
	for i := range fullStride + 1 {
		w[i] = int16(rng.IntN(65536) - 32768)
	}
	w[0], w[fullStride-1] = -32768, 32767
	e := Default()
	n := 0
	for g := 0; g < 60; g++ {
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
					for _, tab := range []*[stageSize]int16{w, e.stage(pos.Empties() - 1)} {
						want := playSumGo(tab, &s.idx[r], int(x), f)
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

// swapDigits returns pattern p's raw index i with digits 1 and 2 swapped:
// the same squares read by the other side.
func swapDigits(i int) int {
	v, w := 0, 1
	for ; i > 0; i /= 3 {
		if d := i % 3; d != 0 {
			v += (3 - d) * w
		}
		w *= 3
	}
	return v
}

// The assembly move-pattern sum equals the Go one on any move bitboards
// (random words, legal or not, and the move bitboards of random positions),
// with random tables.
func TestMoveScoreKernel(t *testing.T) {
	if !playKernel {
		t.Skip("no AVX2 kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(7, 21))
	var e, c [moveTableSize]int16
	for i := range e {
		e[i], c[i] = int16(rng.IntN(65536)-32768), int16(rng.IntN(65536)-32768)
	}
	check := func(mp, mo uint64) {
		if got, want := moveScoreBMI2(&e, &c, &revDigits, mp, mo), moveScoreGo(&e, &c, mp, mo); got != want {
			t.Fatalf("moves %#x %#x: assembly %d, Go %d", mp, mo, got, want)
		}
	}
	for range 100000 {
		check(rng.Uint64(), rng.Uint64())
	}
	check(0, 0)
	check(^uint64(0), ^uint64(0))
	for _, pos := range randomPositions(12, 50) {
		check(bitboard.Moves(pos.Player, pos.Opponent), bitboard.Moves(pos.Opponent, pos.Player))
	}
}
