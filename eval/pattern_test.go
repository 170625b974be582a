package eval

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// randomPositions plays random games and returns every position met.
func randomPositions(seed uint64, games int) []bitboard.Position {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []bitboard.Position
	for g := 0; g < games; g++ {
		pos := bitboard.Start()
		for !pos.GameOver() {
			out = append(out, pos)
			m := pos.Moves()
			if m == 0 {
				pos = pos.Pass()
				continue
			}
			k := rng.IntN(bits.OnesCount64(m))
			for ; k > 0; k-- {
				m &= m - 1
			}
			pos = pos.Play(bitboard.FirstSquare(m))
		}
		out = append(out, pos)
	}
	return out
}

// randomWeights returns a Pattern with random weights.
func randomWeights(t testing.TB, seed uint64) *Pattern {
	rng := rand.New(rand.NewPCG(seed, 2))
	w := make([]int16, DefaultStages*PackedStride())
	for i := range w {
		w[i] = int16(rng.IntN(2001) - 1000)
	}
	e, err := FromPacked(w, DefaultStages)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// naiveIndexes reads each instance square by square from the square lists,
// as the full tables number it: the last square's digit lowest.
func naiveIndexes(p, o uint64) (idx [numInstances]int32) {
	for n, sqs := range layout.instSquares {
		v, w := 0, 1
		for k := len(sqs) - 1; k >= 0; k-- {
			sq := sqs[k]
			switch {
			case p&sq.Bit() != 0:
				v += w
			case o&sq.Bit() != 0:
				v += 2 * w
			}
			w *= 3
		}
		idx[n] = layout.fullOff[layout.instOf[n]] + int32(v)
	}
	return idx
}

// TestClassifyMatchesNaive: the classes that classify counts up digit by
// digit are those of recomputing every image of every configuration from
// its digits.
func TestClassifyMatchesNaive(t *testing.T) {
	symmetric := 0
	for p := range numPatterns {
		n, perms := len(patternSquares[p]), layout.perms[p]
		if len(perms) > 1 {
			symmetric++
		}
		size := pow3(n)
		nat := make([]uint32, size)
		classes := 0
		digits := make([]int, n)
		for idx := range size {
			for k, x := 0, idx; k < n; k++ {
				digits[k], x = x%3, x/3
			}
			best := idx
			for _, perm := range perms {
				v := 0
				for k := n - 1; k >= 0; k-- {
					v = 3*v + digits[perm[k]]
				}
				best = min(best, v)
			}
			if best == idx {
				nat[idx] = uint32(classes)
				classes++
			} else {
				nat[idx] = nat[best]
			}
		}
		if classes != layout.classes[p] {
			t.Fatalf("%s: %d classes, naively %d", patternNames[p], layout.classes[p], classes)
		}
		for idx, c := range nat {
			if got := layout.classOf[p][fullIndex(idx, n)]; got != c {
				t.Fatalf("%s: configuration %d in class %d, naively %d", patternNames[p], idx, got, c)
			}
		}
	}
	if symmetric < 5 {
		t.Errorf("%d patterns are their own mirror images, want the corner, edge, rows and diagonals", symmetric)
	}
}

// fullIndex reverses the digits: a bijection on each pattern length's
// indexes, its own inverse, with known values.
func TestFullIndex(t *testing.T) {
	for _, n := range []int{8, 10, 11} {
		seen := make([]bool, pow3(n))
		for i := range seen {
			j := fullIndex(i, n)
			if seen[j] || fullIndex(j, n) != i {
				t.Fatalf("%d squares: fullIndex(%d) = %d is not a reversal", n, i, j)
			}
			seen[j] = true
		}
	}
	if got := fullIndex(1, 8); got != 2187 { // digit 0 becomes digit 7
		t.Errorf("fullIndex(1, 8) = %d, want 3^7", got)
	}
	if got := fullIndex(2*3+1*9, 10); got != 2*6561+1*2187 { // digits 1, 2 -> 8, 7
		t.Errorf("fullIndex(15, 10) = %d, want %d", got, 2*6561+2187)
	}
}

func TestIndexesMatchNaive(t *testing.T) {
	for _, pos := range randomPositions(1, 200) {
		var got [2][numInstances]int32
		indexes(pos.Player, pos.Opponent, &got)
		if want := naiveIndexes(pos.Player, pos.Opponent); got[0] != want {
			t.Fatalf("%v: indexes %v, naive %v", pos, got[0], want)
		}
		if want := naiveIndexes(pos.Opponent, pos.Player); got[1] != want {
			t.Fatalf("%v: the other side's indexes %v, naive %v", pos, got[1], want)
		}
	}
}

// moveRegions lists the squares of each move-pattern instance in digit
// order, written out square by square: the four edges, then the eight
// corner blocks.
func moveRegions() (r [moveInstances][8]bitboard.Square) {
	sq := bitboard.SquareAt
	for k := 0; k < 8; k++ {
		r[0][k], r[1][k], r[2][k], r[3][k] = sq(k, 0), sq(k, 7), sq(0, k), sq(7, k)
	}
	for k := 0; k < 4; k++ {
		r[4][k], r[4][k+4] = sq(k, 0), sq(k, 1)       // a1-d1, a2-d2
		r[5][k], r[5][k+4] = sq(7-k, 0), sq(7-k, 1)   // h1-e1, h2-e2
		r[6][k], r[6][k+4] = sq(k, 7), sq(k, 6)       // a8-d8, a7-d7
		r[7][k], r[7][k+4] = sq(7-k, 7), sq(7-k, 6)   // h8-e8, h7-e7
		r[8][k], r[8][k+4] = sq(0, k), sq(1, k)       // a1-a4, b1-b4
		r[9][k], r[9][k+4] = sq(0, 7-k), sq(1, 7-k)   // a8-a5, b8-b5
		r[10][k], r[10][k+4] = sq(7, k), sq(6, k)     // h1-h4, g1-g4
		r[11][k], r[11][k+4] = sq(7, 7-k), sq(6, 7-k) // h8-h5, g8-g5
	}
	return r
}

// The move-pattern indexes agree with a square-by-square reading: digit k
// of an instance is 1 if the side to move may play its k-th square, + 2 if
// the other side may; an edge index and its digit reversal share a class.
func TestMoveIndexesMatchNaive(t *testing.T) {
	regions := moveRegions()
	seen := [moveInstances]int{}
	for _, pos := range randomPositions(11, 100) {
		mp, mo := bitboard.Moves(pos.Player, pos.Opponent), bitboard.Moves(pos.Opponent, pos.Player)
		got := moveIndexes(mp, mo)
		for n, sqs := range regions {
			want, rev := 0, 0
			for k, sq := range sqs {
				d := 0
				if pos.IsLegal(sq) {
					d++
				}
				if pos.Pass().IsLegal(sq) {
					d += 2
				}
				want += d << (2 * k)
				rev += d << (2 * (7 - k))
			}
			if got[n] != want {
				t.Fatalf("%v: move pattern %d index %#x, naive %#x", pos, n, got[n], want)
			}
			if n < edgeMovesInstances && edgeMovesClass[want] != edgeMovesClass[rev] {
				t.Fatalf("index %#x and its reversal %#x: classes %d and %d", want, rev, edgeMovesClass[want], edgeMovesClass[rev])
			}
			if want != 0 {
				seen[n]++
			}
		}
	}
	for n, c := range seen {
		if c == 0 {
			t.Errorf("move pattern %d: never a move in it", n)
		}
	}
	if edgeMovesClasses != (moveTableSize+1<<8)/2 { // the 256 palindromes are their own reversal
		t.Fatalf("%d edge-move classes", edgeMovesClasses)
	}
}

// Each move-pattern family is closed under the board's symmetries, digit
// order included, so that mirror images evaluate the same: a symmetry maps
// an edge onto an edge read either way (which share a class), and a corner
// block onto a corner block read the same way.
func TestMoveRegionsSymmetric(t *testing.T) {
	regions := moveRegions()
	for _, fam := range [][2]int{{0, edgeMovesInstances}, {edgeMovesInstances, moveInstances}} {
		set := map[[8]bitboard.Square]bool{}
		for n := fam[0]; n < fam[1]; n++ {
			set[regions[n]] = true
		}
		for n := fam[0]; n < fam[1]; n++ {
			for s := bitboard.Symmetry(0); s < 8; s++ {
				var img, rev [8]bitboard.Square
				for k, sq := range regions[n] {
					img[k] = s.Square(sq)
					rev[7-k] = img[k]
				}
				if !set[img] && !(fam[0] == 0 && set[rev]) {
					t.Fatalf("move pattern %d under symmetry %d: %v is no instance", n, s, img)
				}
			}
		}
	}
}

func TestInstances(t *testing.T) {
	// Every instance is a distinct square set of its pattern's size, and
	// the instances of a pattern are closed under the board's symmetries.
	for p := 0; p < numPatterns; p++ {
		sets := map[uint64]bool{}
		for n := range numInstances {
			if int(layout.instOf[n]) == p {
				sets[squaresMask(layout.instSquares[n])] = true
			}
		}
		if len(sets) != len(layout.instances[p]) {
			t.Errorf("%s: %d distinct instances, want %d", patternNames[p], len(sets), len(layout.instances[p]))
		}
		for m := range sets {
			if bits.OnesCount64(m) != len(patternSquares[p]) {
				t.Errorf("%s: instance %x has %d squares", patternNames[p], m, bits.OnesCount64(m))
			}
			for s := bitboard.Symmetry(0); s < 8; s++ {
				if !sets[s.Apply(m)] {
					t.Errorf("%s: instance %x mirrored by %d is not an instance", patternNames[p], m, s)
				}
			}
		}
	}
	want := map[string]int{"corner3x3": 4, "corner2x5": 8, "edge+2X": 4, "row2": 4, "row3": 4, "row4": 4,
		"diag8": 2, "diag7+4": 4, "diag6+5": 4, "cross": 4, "edgeblock": 4}
	for p := 0; p < numPatterns; p++ {
		if got := len(layout.instances[p]); got != want[patternNames[p]] {
			t.Errorf("%s: %d instances, want %d", patternNames[p], got, want[patternNames[p]])
		}
	}
}

func TestSymmetricPositionsEvaluateTheSame(t *testing.T) {
	e := randomWeights(t, 3)
	for _, pos := range randomPositions(2, 50) {
		want := e.Score(pos.Player, pos.Opponent)
		for s := bitboard.Symmetry(1); s < 8; s++ {
			q := pos.Transform(s)
			if got := e.Score(q.Player, q.Opponent); got != want {
				t.Fatalf("%v under symmetry %d: score %d, want %d", pos, s, got, want)
			}
		}
	}
}

func TestFeaturesMatchScore(t *testing.T) {
	// The trainer's view (packed indexes) and the evaluation's (full
	// tables) must add up the same weights.
	e := randomWeights(t, 4)
	var f [NumFeatures]int32
	for _, pos := range randomPositions(5, 50) {
		empties := Features(pos.Player, pos.Opponent, &f)
		if empties != pos.Empties() {
			t.Fatalf("Features: %d empties, want %d", empties, pos.Empties())
		}
		st := StageOf(e.Stages(), empties)
		sum := 0
		for _, i := range f {
			sum += int(e.packed[st*packedStride+int(i)])
		}
		if got := e.Score(pos.Player, pos.Opponent); got != sum {
			t.Fatalf("%v: Score %d, sum of features %d", pos, got, sum)
		}
	}
}

func TestEvaluateRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	w := make([]int16, DefaultStages*PackedStride())
	for i := range w {
		w[i] = int16(rng.IntN(65536) - 32768) // extreme weights must still clamp
	}
	e, _ := FromPacked(w, DefaultStages)
	for _, pos := range randomPositions(7, 20) {
		if v := e.Evaluate(pos.Player, pos.Opponent); v < -64 || v > 64 {
			t.Fatalf("%v: Evaluate %d out of -64..64", pos, v)
		}
	}
}

func TestStage(t *testing.T) {
	for stages := 1; stages <= 60; stages++ {
		if !ValidStages(stages) {
			continue
		}
		w := 60 / stages
		for e := 0; e <= 60; e++ {
			s := StageOf(stages, e)
			if s < 0 || s >= stages || e < 60 && s != e/w {
				t.Errorf("%d stages: StageOf(%d) = %d", stages, e, s)
			}
			if lo, hi := StageRange(stages, s); e < lo || e > hi {
				t.Errorf("%d stages: %d empties in stage %d, which covers %d-%d", stages, e, s, lo, hi)
			}
		}
	}
	for _, bad := range []int{0, 7, 61, -1} {
		if ValidStages(bad) {
			t.Errorf("ValidStages(%d)", bad)
		}
	}
}

// TestFinerStages: an evaluation of 30 stages (a weights file may have any
// divisor of 60) round-trips through its file, reads each position's own
// stage, and a file cannot pass for another stage count.
func TestFinerStages(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 30))
	w := make([]int16, 30*PackedStride())
	for i := range w {
		w[i] = int16(rng.IntN(512) - 256)
	}
	e, err := FromPacked(w, 30)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(e.Encode())
	if err != nil || f.Stages() != 30 || !slices.Equal(f.packed, e.packed) {
		t.Fatalf("30 stages: parse %v, %d stages", err, f.Stages())
	}
	var feat [NumFeatures]int32
	for _, pos := range randomPositions(31, 40) {
		st := StageOf(30, Features(pos.Player, pos.Opponent, &feat))
		sum := 0
		for _, i := range feat {
			sum += int(w[st*packedStride+int(i)])
		}
		if got := f.Score(pos.Player, pos.Opponent); got != sum {
			t.Fatalf("%v: Score %d, its stage's features %d", pos, got, sum)
		}
		var s State
		f.Init(&s, pos.Player, pos.Opponent)
		if got := f.EvaluateState(&s); got != f.Evaluate(pos.Player, pos.Opponent) {
			t.Fatalf("%v: EvaluateState %d, Evaluate %d", pos, got, f.Evaluate(pos.Player, pos.Opponent))
		}
	}
	data := e.Encode()
	data[6] = 15 // claims 15 stages (header checksum made good): the layout hash and the count disagree
	binary.LittleEndian.PutUint32(data[28:], crc32.ChecksumIEEE(data[:28]))
	if _, err := Parse(data); err == nil || !strings.Contains(err.Error(), "layout") {
		t.Errorf("a 30-stage file read as 15 stages: %v", err)
	}
	if _, err := FromPacked(w, 7); err == nil {
		t.Error("7 stages accepted")
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	e := randomWeights(t, 8)
	data := e.Encode()
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slicesEqual(f.packed, e.packed) {
		t.Fatal("weights differ after a round trip")
	}
	if !bytes.Equal(f.Encode(), data) {
		t.Fatal("re-encoding differs")
	}
}

// TestEncodeRuns: the embedded weights written in format version 2 (as
// the browser build gets them) parse to the same weights and the same
// evaluation, and any cut or damage of a version 2 file is refused.
func TestEncodeRuns(t *testing.T) {
	e := Default()
	data := e.EncodeRuns()
	if len(data) > headerSize+2*len(e.packed)/2 {
		t.Errorf("%d bytes: the runs should take less than half the weights' %d", len(data), 2*len(e.packed))
	}
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Stages() != e.Stages() || !slicesEqual(f.packed, e.packed) {
		t.Fatal("weights differ after version 2")
	}
	for _, pos := range randomPositions(41, 200) {
		if a, b := f.Score(pos.Player, pos.Opponent), e.Score(pos.Player, pos.Opponent); a != b {
			t.Fatalf("%v: version 2 scores %d, the embedded file %d", pos, a, b)
		}
	}
	// Small weight sets, so that every byte can be cut or damaged: runs
	// of 0s and of others longer than a run's 128 and shorter.
	for _, w := range [][]int16{sparseWeights(12), make([]int16, DefaultStages*PackedStride())} {
		for i := range w[:300] {
			w[i] = int16(i % 3)
		}
		s, _ := FromPacked(w, DefaultStages)
		good := s.EncodeRuns()
		if got, err := Parse(good); err != nil || !slicesEqual(got.packed, w) {
			t.Fatalf("a round trip: %v", err)
		}
		for n := headerSize; n < len(good); n += 1 + n/64 {
			if _, _, err := decode(withSize(good[:n])); err == nil {
				t.Fatalf("cut to %d of %d bytes (size made good): accepted", n, len(good))
			}
		}
		if _, _, err := decode(withSize(append(append([]byte(nil), good...), 0x80))); err == nil {
			t.Fatal("a run's byte too many: accepted")
		}
		for i := headerSize; i < len(good); i += 1 + (i-headerSize)/32 {
			bad := append([]byte(nil), good...)
			bad[i] ^= 0x81
			if w2, _, err := decode(bad); err == nil && !slicesEqual(w2, w) {
				t.Fatalf("byte %d damaged: accepted different weights", i)
			}
		}
	}
}

// withSize returns a weights file whose header's payload size and
// checksum are made to fit its length, so that only the payload's own
// checks can refuse it.
func withSize(data []byte) []byte {
	data = append([]byte(nil), data...)
	binary.LittleEndian.PutUint32(data[20:], uint32(len(data)-headerSize))
	binary.LittleEndian.PutUint32(data[28:], crc32.ChecksumIEEE(data[:28]))
	return data
}

func slicesEqual(a, b []int16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sparseWeights returns a weight set that is mostly zero, like a trained one,
// so that its file is small and quick to parse many times.
func sparseWeights(seed uint64) []int16 {
	rng := rand.New(rand.NewPCG(seed, 3))
	w := make([]int16, DefaultStages*PackedStride())
	for i := range w {
		if rng.IntN(100) == 0 {
			w[i] = int16(rng.IntN(2001) - 1000)
		}
	}
	return w
}

func TestParseRejectsBadFiles(t *testing.T) {
	e, _ := FromPacked(sparseWeights(9), DefaultStages)
	good := e.Encode()
	cases := map[string]struct {
		data []byte
		want string
	}{
		"empty":     {nil, "truncated"},
		"magic":     {append([]byte("XXXX"), good[4:]...), "bad magic"},
		"short":     {good[:20], "truncated"},
		"truncated": {good[:len(good)-1], "truncated"},
		"trailing":  {append(append([]byte(nil), good...), 0), "trailing"},
	}
	version := append([]byte(nil), good...)
	version[4] = 9
	cases["version"] = struct {
		data []byte
		want string
	}{version, "version 9"}
	header := append([]byte(nil), good...)
	header[17] ^= 1
	cases["header"] = struct {
		data []byte
		want string
	}{header, "header checksum"}
	for name, c := range cases {
		if _, err := Parse(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want one mentioning %q", name, err, c.want)
		}
	}
	// Any truncation and any single damaged payload byte is caught.
	for n := 0; n < len(good); n += 1 + n/8 {
		if _, _, err := decode(good[:n]); err == nil {
			t.Fatalf("truncated to %d bytes: accepted", n)
		}
	}
	for i := headerSize; i < len(good); i += 1 + (i-headerSize)/8 {
		bad := append([]byte(nil), good...)
		bad[i] ^= 0x10
		// A flipped bit that DEFLATE ignores (e.g. the code length of an
		// unused symbol) may decode to the same weights; anything else
		// must be refused.
		if w, _, err := decode(bad); err == nil && !slicesEqual(w, e.packed) {
			t.Fatalf("byte %d damaged: accepted different weights", i)
		}
	}
}

func FuzzParse(f *testing.F) {
	e, _ := FromPacked(sparseWeights(10), DefaultStages)
	good := e.Encode()
	f.Add(good)
	f.Add(e.EncodeRuns())
	f.Add(good[:headerSize])
	f.Add([]byte("OFEV"))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse(data)
		if err == nil && len(e.packed) != e.Stages()*packedStride {
			t.Fatal("accepted a file with the wrong number of weights")
		}
	})
}

func TestDefaultLoads(t *testing.T) {
	e := Default()
	var sum int
	for _, pos := range randomPositions(11, 20) {
		v := e.Evaluate(pos.Player, pos.Opponent)
		if v < -64 || v > 64 {
			t.Fatalf("%v: %d", pos, v)
		}
		sum += v
	}
	// The 11-square layout's 30 stages compress to about 6 MB; the bound
	// catches a layout or stage count that would bloat the binary further.
	if len(embedded) > 8<<20 {
		t.Errorf("embedded weights are %d bytes; keep them to a few MB", len(embedded))
	}
}

func BenchmarkEvaluate(b *testing.B) {
	e := Default()
	pos := randomPositions(12, 20)
	i := 0
	for b.Loop() {
		p := pos[i%len(pos)]
		e.Evaluate(p.Player, p.Opponent)
		i++
	}
}

func BenchmarkFeatures(b *testing.B) {
	pos := randomPositions(12, 20)
	var f [NumFeatures]int32
	i := 0
	for b.Loop() {
		p := pos[i%len(pos)]
		Features(p.Player, p.Opponent, &f)
		i++
	}
}

func BenchmarkSimple(b *testing.B) {
	pos := randomPositions(12, 20)
	i := 0
	for b.Loop() {
		p := pos[i%len(pos)]
		Simple{}.Evaluate(p.Player, p.Opponent)
		i++
	}
}

// TestDigest checks that the digest names the weights: the same weights
// give the same digest, one changed weight another.
func TestDigest(t *testing.T) {
	d := Default()
	w := d.Packed()
	same, err := FromPacked(w, d.Stages())
	if err != nil {
		t.Fatal(err)
	}
	if d.Digest() != same.Digest() || len(d.Digest()) != 16 {
		t.Fatalf("digests %q and %q of the same weights", d.Digest(), same.Digest())
	}
	w[len(w)/2]++
	other, err := FromPacked(w, d.Stages())
	if err != nil {
		t.Fatal(err)
	}
	if other.Digest() == d.Digest() {
		t.Fatalf("one weight changed, digest %q unchanged", d.Digest())
	}
}
