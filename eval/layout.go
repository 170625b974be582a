package eval

import (
	"hash/crc32"

	"github.com/outflank-othello/outflank/bitboard"
)

// The pattern set, in the style of Logistello and Edax. Each pattern is a
// list of squares in its anchor orientation (near a1); digit k of an index
// is the state of squares[k] (0 empty, 1 side to move, 2 opponent), digit 0
// least significant (the full tables and the State read the digits in
// reverse order: fullIndex). Every instance of a pattern on the board is the anchor
// read on the board transformed by one of the 8 symmetries, so all instances
// share one weight table, and the evaluation of a position equals that of
// its mirror images by construction.
const (
	patCorner3x3 = iota // a1 b1 c1 / a2 b2 c2 / a3 b3 c3 + d1 a4
	patCorner2x5        // a1-e1 / a2-e2
	patEdgeX            // a1-h1 + b2 g2 (edge and its X-squares)
	patRow2             // a2-h2
	patRow3             // a3-h3
	patRow4             // a4-h4
	patDiag8            // a1-h8
	patDiag74           // b1-h7 + e1-h4
	patDiag65           // c1-h6 + d1-h5
	patCross            // a1 b2 c3 d4 + b1 c2 d3 + a2 b3 c4
	patEdgeBlock        // a1 c1-f1 h1 + c2-f2
	numPatterns
)

// patternNames name the patterns in reports and tests.
var patternNames = [numPatterns]string{
	"corner3x3", "corner2x5", "edge+2X", "row2", "row3", "row4",
	"diag8", "diag7+4", "diag6+5", "cross", "edgeblock",
}

// patternSquares lists each pattern's squares in digit order.
var patternSquares = func() (t [numPatterns][]bitboard.Square) {
	sq := bitboard.SquareAt
	t[patCorner3x3] = []bitboard.Square{sq(0, 0), sq(1, 0), sq(2, 0), sq(0, 1), sq(1, 1), sq(2, 1), sq(0, 2), sq(1, 2), sq(2, 2), sq(3, 0), sq(0, 3)}
	for r := 0; r < 2; r++ {
		for c := 0; c < 5; c++ {
			t[patCorner2x5] = append(t[patCorner2x5], sq(c, r))
		}
	}
	for c := 0; c < 8; c++ {
		t[patEdgeX] = append(t[patEdgeX], sq(c, 0))
		t[patRow2] = append(t[patRow2], sq(c, 1))
		t[patRow3] = append(t[patRow3], sq(c, 2))
		t[patRow4] = append(t[patRow4], sq(c, 3))
	}
	t[patEdgeX] = append(t[patEdgeX], sq(1, 1), sq(6, 1))
	diag := func(n int) (d []bitboard.Square) { // diagonal of length n: (8-n, 0) ... (7, n-1)
		for k := 0; k < n; k++ {
			d = append(d, sq(8-n+k, k))
		}
		return d
	}
	// The diagonals of 7 and 4 squares are one pattern, read in one table:
	// its digits are the 7-square one's, then the 4-square one's; likewise
	// those of 6 and 5.
	t[patDiag8] = diag(8)
	t[patDiag74] = append(diag(7), diag(4)...)
	t[patDiag65] = append(diag(6), diag(5)...)
	t[patCross] = []bitboard.Square{sq(0, 0), sq(1, 1), sq(2, 2), sq(3, 3), sq(1, 0), sq(2, 1), sq(3, 2), sq(0, 1), sq(1, 2), sq(2, 3)}
	t[patEdgeBlock] = []bitboard.Square{sq(0, 0), sq(2, 0), sq(3, 0), sq(4, 0), sq(5, 0), sq(7, 0), sq(2, 1), sq(3, 1), sq(4, 1), sq(5, 1)}
	return t
}()

// Global (non-pattern) features, per stage: the mobility of each side
// (number of legal moves, 0..maxMobility) and the parity of the empties.
const (
	maxMobility = 33 // the most legal moves an Othello position can have
	mobSize     = maxMobility + 1
)

// Move patterns: which squares of a region are legal moves for each side,
// digit k = 1 if the side to move may play the region's square k, + 2 if
// the other side may (4^8 configurations of 8 squares). Unlike the disc
// patterns they cannot be kept up to date move by move: they are read from
// the move bitboards that the mobility counts need anyway. Two families,
// each one table shared by its instances:
//   - edge moves: the four edges, each read from its first-named square
//     (a1-h1, a8-h8, a1-a8, h1-h8); an edge read backwards is the same
//     feature, so an index and its digit reversal share one weight
//     (edgeMovesClasses of them);
//   - corner moves: the 2×4 block a1-d1 over a2-d2 and its 7 mirror
//     images, each read from its corner along the edge, then the line
//     beside it (the block is not its own mirror image: no sharing).
const (
	moveTableSize      = 1 << 16
	edgeMovesInstances = 4
	cornerMovesInst    = 8
	moveInstances      = edgeMovesInstances + cornerMovesInst
)

// Stages: weights change with the number of empty squares, in groups of
// 60/stages empties (the 60-empty start position joins the last group).
// DefaultStages is the trainer's default (the embedded weights have 30,
// from `outflank train --stages 30`); a weights file may have any count
// that divides 60 (ValidStages): finer stages follow the game more closely
// and need more positions to fill each one.
const DefaultStages = 15

// ValidStages reports whether an evaluation may have n stages.
func ValidStages(n int) bool { return n >= 1 && n <= 60 && 60%n == 0 }

// StageOf returns the stage, among stages, of a position with this many
// empties.
func StageOf(stages, empties int) int {
	return min(max(empties, 0), 59) / (60 / stages)
}

// StageRange returns the range of empties that stage st of stages covers.
func StageRange(stages, st int) (lo, hi int) {
	w := 60 / stages
	lo, hi = st*w, st*w+w-1
	if st == stages-1 {
		hi = 60
	}
	return lo, hi
}

// layout is everything derived from the pattern list: instance symmetries,
// table offsets, the canonical classes that tie a symmetric pattern's mirror
// indexes together. Built once at init, read-only afterwards.
type layoutT struct {
	size        [numPatterns]int                // 3^len(squares)
	instances   [numPatterns][]uint8            // symmetries whose anchor reading is a distinct instance
	classOf     [numPatterns][]uint32           // full-table index (fullIndex) -> canonical class
	classes     [numPatterns]int                // number of canonical classes
	fullOff     [numPatterns + 1]int32          // offset of each pattern's table in a full (expanded) stage
	packOff     [numPatterns + 1]int32          // offset of each pattern's classes in a packed stage
	instOf      [numInstances]uint8             // pattern of each instance, in evaluation order
	instSquares [numInstances][]bitboard.Square // squares of each instance, digit order, for tests
	perms       [numPatterns][][]int            // digit permutations of each anchor's self-symmetries (classify), for tests
}

// numInstances is the number of pattern instances read per position.
const numInstances = 46

// Offsets of the global features after the patterns, full and packed alike.
const (
	globMobP   = 0
	globMobO   = mobSize
	globParity = 2 * mobSize
	globSize   = 2*mobSize + 2
)

// fullStride is the number of full weights of one stage: every raw index of
// every pattern, the globals, then every raw index of the edge-moves and
// the corner-moves tables. It is a constant so that a stage's table can be a
// fixed-size array; buildLayout checks it.
const fullStride = 793881 + globSize + 2*moveTableSize

// Offsets of the move tables in a full stage.
const (
	fullEdgeMoves   = fullStride - 2*moveTableSize
	fullCornerMoves = fullStride - moveTableSize
)

// packedStride is the number of packed weights of one stage: one per
// canonical class, the globals, then one per edge-moves class and one per
// corner-moves index.
var packedStride int

// NumFeatures is the number of weights that contribute to one evaluation:
// one per pattern instance, two mobilities, the parity and the move
// patterns.
const NumFeatures = numInstances + 3 + moveInstances

// edgeMovesClass maps a raw edge-moves index to its class (the smaller of
// it and its digit reversal, numbered in order), and edgeMovesClasses
// counts them.
var edgeMovesClass, edgeMovesClasses = func() (t [moveTableSize]uint16, n int) {
	for i := range moveTableSize {
		if r := reverseDigits4(i); r < i {
			t[i] = t[r]
		} else {
			t[i] = uint16(n)
			n++
		}
	}
	return t, n
}()

// reverseDigits4 reverses the order of the eight base-4 digits of i.
func reverseDigits4(i int) int {
	r := 0
	for k := 0; k < 8; k++ {
		r = r<<2 | i>>(2*k)&3
	}
	return r
}

// revDigits reverses the four base-4 digits of a byte (four squares of a
// line read from their other end).
var revDigits = func() (t [256]uint8) {
	for b := range 256 {
		t[b] = uint8(b&3<<6 | b>>2&3<<4 | b>>4&3<<2 | b>>6)
	}
	return t
}()

// outerLines packs the lines 1, 2, 7 and 8 of a bitboard into one word,
// each line's bit k spread to bit 2k of its 16-bit field (line 1 lowest):
// with the other side's shifted left by one, each field is the line's
// base-4 move index.
func outerLines(b uint64) uint64 {
	x := b&0xFFFF | b>>48<<32
	x = (x | x<<8) & 0x00FF00FF00FF00FF
	x = (x | x<<4) & 0x0F0F0F0F0F0F0F0F
	x = (x | x<<2) & 0x3333333333333333
	return (x | x<<1) & 0x5555555555555555
}

// moveIndexes returns the raw move-pattern indexes of a position with move
// bitboards mp (the side to move's) and mo: the four edges', then the
// eight corner blocks'. Rows come from the bitboards and columns from
// their transposes, all of a side's outer lines spread at once
// (outerLines); the half of a line read from its other end has its digits
// reversed by table.
func moveIndexes(mp, mo uint64) (idx [moveInstances]int) {
	r := outerLines(mp) | outerLines(mo)<<1 // rows 1, 2, 7, 8
	c := outerLines(bitboard.FlipDiagonal(mp)) | outerLines(bitboard.FlipDiagonal(mo))<<1
	// Edges: row 1, row 8, column a, column h.
	idx[0] = int(r & 0xFFFF)
	idx[1] = int(r >> 48)
	idx[2] = int(c & 0xFFFF)
	idx[3] = int(c >> 48)
	// Corner blocks: a1-d1 a2-d2, h1-e1 h2-e2, a8-d8 a7-d7, h8-e8 h7-e7,
	// then the same in the columns.
	for k, x := range [2]uint64{r, c} {
		n := 4 + 4*k
		idx[n] = int(x&0xFF | x>>8&0xFF00)
		idx[n+1] = int(revDigits[x>>8&0xFF]) | int(revDigits[x>>24&0xFF])<<8
		idx[n+2] = int(x>>48&0xFF | x>>24&0xFF00)
		idx[n+3] = int(revDigits[x>>56]) | int(revDigits[x>>40&0xFF])<<8
	}
	return idx
}

var layout = buildLayout()

func pow3(n int) int {
	r := 1
	for ; n > 0; n-- {
		r *= 3
	}
	return r
}

func squaresMask(sqs []bitboard.Square) uint64 {
	var m uint64
	for _, s := range sqs {
		m |= s.Bit()
	}
	return m
}

func buildLayout() *layoutT {
	l := &layoutT{}
	n := 0
	for p := 0; p < numPatterns; p++ {
		sqs := patternSquares[p]
		l.size[p] = pow3(len(sqs))
		anchor := squaresMask(sqs)
		// Instance under symmetry s: the squares that s maps onto the anchor.
		seen := map[uint64]bool{}
		var perms [][]int // digit permutations of the anchor's self-symmetries
		for s := bitboard.Symmetry(0); s < 8; s++ {
			inv := s.Inverse()
			var inst []bitboard.Square
			for _, a := range sqs {
				inst = append(inst, inv.Square(a))
			}
			m := squaresMask(inst)
			if m == anchor {
				perm := make([]int, len(sqs))
				for k, sq := range inst {
					for j, a := range sqs {
						if a == sq {
							perm[k] = j
						}
					}
				}
				perms = append(perms, perm)
			}
			if !seen[m] {
				seen[m] = true
				l.instances[p] = append(l.instances[p], uint8(s))
				l.instOf[n] = uint8(p)
				l.instSquares[n] = inst
				n++
			}
		}
		l.perms[p] = perms
		l.classOf[p], l.classes[p] = classify(len(sqs), perms)
		l.fullOff[p+1] = l.fullOff[p] + int32(l.size[p])
		l.packOff[p+1] = l.packOff[p] + int32(l.classes[p])
	}
	if n != numInstances {
		panic("eval: pattern instance count changed; update numInstances")
	}
	if int(l.fullOff[numPatterns])+globSize+2*moveTableSize != fullStride {
		panic("eval: pattern table sizes changed; update fullStride")
	}
	packedStride = int(l.packOff[numPatterns]) + globSize + edgeMovesClasses + moveTableSize
	return l
}

// classify numbers the canonical classes of the configurations of a
// pattern of n squares whose self-symmetries permute its digits as perms
// do (digit k of a configuration's image is its digit perms[i][k]; the
// identity among them). A class is the smallest index of the images of a
// configuration; classes are numbered in the order of those smallest
// indexes, which is the packed weights' order. It returns each
// configuration's class by its index in the full table (fullIndex: the
// digits reversed), and the number of classes.
//
// Each image of a configuration, and its full-table index, is a linear
// function of its digits, so counting the index up digit by digit keeps
// them all with an addition or two a step where recomputing them costs n
// divisions each: the layout is built at every start, and in WebAssembly
// (the browser build) recomputing took about half a second.
func classify(n int, perms [][]int) (byFull []uint32, classes int) {
	size := pow3(n)
	nat := make([]uint32, size) // class by index
	byFull = make([]uint32, size)
	// weight[r][j] is what digit j weighs in reading r: the full-table
	// index first, then the images other than the configuration itself.
	weight := [][]int{make([]int, n)}
	for j := range n {
		weight[0][j] = pow3(n - 1 - j)
	}
	for _, perm := range perms {
		w := make([]int, n)
		identity := true
		for k, j := range perm {
			w[j] = pow3(k)
			identity = identity && j == k
		}
		if !identity {
			weight = append(weight, w)
		}
	}
	reading := make([]int, len(weight)) // of index idx
	digits := make([]int, n)
	for idx := range size {
		best := idx
		for _, v := range reading[1:] {
			best = min(best, v)
		}
		if best == idx {
			nat[idx] = uint32(classes)
			classes++
		} else {
			nat[idx] = nat[best]
		}
		byFull[reading[0]] = nat[idx]
		// idx+1: digits at 2 wrap to 0 and carry.
		j := 0
		for ; j < n && digits[j] == 2; j++ {
			digits[j] = 0
			for r, w := range weight {
				reading[r] -= 2 * w[j]
			}
		}
		if j < n {
			digits[j]++
			for r, w := range weight {
				reading[r] += w[j]
			}
		}
	}
	return byFull, classes
}

// layoutHash identifies the pattern set, stages and feature order, so that a
// weights file made for another layout is refused instead of misread.
func layoutHash(stages int) uint32 {
	h := crc32.NewIEEE()
	var b []byte
	for p := 0; p < numPatterns; p++ {
		b = append(b, byte(len(patternSquares[p])))
		for _, s := range patternSquares[p] {
			b = append(b, byte(s))
		}
		b = append(b, layout.instances[p]...)
	}
	b = append(b, byte(60/stages), byte(stages), mobSize, globSize)
	b = append(b, 'M', edgeMovesInstances, cornerMovesInst) // the move tables after the globals
	h.Write(b)
	return h.Sum32()
}

// fullIndex returns the index in a pattern's full table of the
// configuration whose index (digit k the state of squares[k], digit 0
// least significant) is idx, for a pattern of n squares: the same digits
// in reverse order. Each pattern lists its squares from the board's edge
// inwards, so reversed, the squares nearer the centre, which change most
// from one position of a search to the next, are the lowest digits, and
// the weights a node's children read lie in fewer cache lines: replaying 3
// million evaluations of bench-midgame through a model of this machine's
// L1 and L2 caches, the pattern reads missed the L1 4.1 times an
// evaluation against 5.4 in digit order, and the L2 0.26 times against
// 0.53.
func fullIndex(idx, n int) int {
	r := 0
	for range n {
		r = 3*r + idx%3
		idx /= 3
	}
	return r
}

// b2tFull[n] maps a field of n bits (bit k square k of a pattern of n
// squares) to the base-3 number with those digits in fullIndex's order,
// so that an index in the full tables is b2tFull[n][player bits] +
// 2*b2tFull[n][opponent bits]. Patterns have 8, 10 or 11 squares; each
// table has 2,048 entries so that &2047 drops the bounds checks.
var b2t8, b2t10, b2t11 = b2tFull(8), b2tFull(10), b2tFull(11)

func b2tFull(n int) *[1 << 11]uint32 {
	t := new([1 << 11]uint32)
	for i := range 1 << n {
		v := 0
		for k := range n {
			v = 3*v + i>>k&1
		}
		t[i] = uint32(v)
	}
	return t
}

// Gathers of each pattern's anchor squares into a contiguous bit field, in
// digit order. Diagonals use the multiply trick: the squares are in distinct
// columns, so multiplying by the 0x01 repeated byte stacks them into the top
// byte without carries.
func gatherCorner3x3(b uint64) uint64 {
	return b&7 | b>>5&0x38 | b>>10&0x1C0 | b<<6&0x200 | b>>14&0x400
}
func gatherCorner2x5(b uint64) uint64 { return b&0x1F | b>>3&0x3E0 }
func gatherEdgeX(b uint64) uint64     { return b&0xFF | b>>1&0x100 | b>>5&0x200 }
func gatherDiag8(b uint64) uint64     { return (b & 0x8040201008040201) * 0x0101010101010101 >> 56 }
func gatherDiag7(b uint64) uint64     { return (b & 0x0080402010080402) * 0x0101010101010101 >> 57 }
func gatherDiag6(b uint64) uint64     { return (b & 0x0000804020100804) * 0x0101010101010101 >> 58 }
func gatherDiag5(b uint64) uint64     { return (b & 0x0000008040201008) * 0x0101010101010101 >> 59 }
func gatherDiag4(b uint64) uint64     { return (b & 0x0000000080402010) * 0x0101010101010101 >> 60 }
func gatherDiag74(b uint64) uint64    { return gatherDiag7(b) | gatherDiag4(b)<<7 }
func gatherDiag65(b uint64) uint64    { return gatherDiag6(b) | gatherDiag5(b)<<6 }

// gatherCross: a1-d4 as the main diagonal's first 4, b1-d3 as the 7-square
// diagonal's first 3, a2-c4 likewise below the main diagonal.
func gatherCross(b uint64) uint64 {
	return (b&0x08040201)*0x0101010101010101>>56 |
		(b&0x00080402)*0x0101010101010101>>57<<4 |
		(b&0x04020100)*0x0101010101010101>>56<<7
}
func gatherEdgeBlock(b uint64) uint64 { return b&1 | b>>1&0x1E | b>>2&0x20 | b>>4&0x3C0 }

// symmetries returns the 8 transformed copies of b, indexed like
// bitboard.Symmetry (bit 0 mirror, bit 1 flip, bit 2 transpose).
func symmetries(b uint64) (t [8]uint64) {
	t[0] = b
	t[1] = bitboard.MirrorHorizontal(b)
	t[2] = bitboard.FlipVertical(b)
	t[3] = bitboard.FlipVertical(t[1])
	t[4] = bitboard.FlipDiagonal(b)
	t[5] = bitboard.FlipDiagonal(t[1])
	t[6] = bitboard.FlipDiagonal(t[2])
	t[7] = bitboard.FlipDiagonal(t[3])
	return t
}

// both writes instance n's index in both readings from its gathered fields
// p (reader 0's discs) and o: each reading is the other with digits 1 and 2
// swapped, so one gather and two base-3 conversions serve both (&2047 drops
// the bounds checks; fields are at most 11 bits).
func both(idx *[2][numInstances]int32, n int, off int32, b2t *[1 << 11]uint32, p, o uint64) {
	tp, to := int32(b2t[p&2047]), int32(b2t[o&2047])
	idx[0][n] = off + tp + 2*to
	idx[1][n] = off + to + 2*tp
}

// indexes writes, for each pattern instance, its raw index plus its pattern's
// offset in a full stage table, as each side reads it: idx[0] with p's discs
// as digit 1, idx[1] with o's. It is written out instance by instance (no
// loops or function values) because it is most of the evaluation's time;
// the symmetries used must be those of layout.instances, in that order,
// which TestIndexesMatchNaive checks square by square.
func indexes(p, o uint64, idx *[2][numInstances]int32) {
	P, O := symmetries(p), symmetries(o)
	f := &layout.fullOff
	off := f[patCorner3x3]
	both(idx, 0, off, b2t11, gatherCorner3x3(P[0]), gatherCorner3x3(O[0]))
	both(idx, 1, off, b2t11, gatherCorner3x3(P[1]), gatherCorner3x3(O[1]))
	both(idx, 2, off, b2t11, gatherCorner3x3(P[2]), gatherCorner3x3(O[2]))
	both(idx, 3, off, b2t11, gatherCorner3x3(P[3]), gatherCorner3x3(O[3]))
	off = f[patCorner2x5]
	both(idx, 4, off, b2t10, gatherCorner2x5(P[0]), gatherCorner2x5(O[0]))
	both(idx, 5, off, b2t10, gatherCorner2x5(P[1]), gatherCorner2x5(O[1]))
	both(idx, 6, off, b2t10, gatherCorner2x5(P[2]), gatherCorner2x5(O[2]))
	both(idx, 7, off, b2t10, gatherCorner2x5(P[3]), gatherCorner2x5(O[3]))
	both(idx, 8, off, b2t10, gatherCorner2x5(P[4]), gatherCorner2x5(O[4]))
	both(idx, 9, off, b2t10, gatherCorner2x5(P[5]), gatherCorner2x5(O[5]))
	both(idx, 10, off, b2t10, gatherCorner2x5(P[6]), gatherCorner2x5(O[6]))
	both(idx, 11, off, b2t10, gatherCorner2x5(P[7]), gatherCorner2x5(O[7]))
	off = f[patEdgeX]
	both(idx, 12, off, b2t10, gatherEdgeX(P[0]), gatherEdgeX(O[0]))
	both(idx, 13, off, b2t10, gatherEdgeX(P[2]), gatherEdgeX(O[2]))
	both(idx, 14, off, b2t10, gatherEdgeX(P[4]), gatherEdgeX(O[4]))
	both(idx, 15, off, b2t10, gatherEdgeX(P[5]), gatherEdgeX(O[5]))
	n := 16
	for k, sh := range [3]uint{8, 16, 24} { // rows 2, 3, 4 and their mirrors
		off = f[patRow2+k]
		both(idx, n, off, b2t8, P[0]>>sh&0xFF, O[0]>>sh&0xFF)
		both(idx, n+1, off, b2t8, P[2]>>sh&0xFF, O[2]>>sh&0xFF)
		both(idx, n+2, off, b2t8, P[4]>>sh&0xFF, O[4]>>sh&0xFF)
		both(idx, n+3, off, b2t8, P[5]>>sh&0xFF, O[5]>>sh&0xFF)
		n += 4
	}
	off = f[patDiag8]
	both(idx, 28, off, b2t8, gatherDiag8(P[0]), gatherDiag8(O[0]))
	both(idx, 29, off, b2t8, gatherDiag8(P[1]), gatherDiag8(O[1]))
	off = f[patDiag74]
	both(idx, 30, off, b2t11, gatherDiag74(P[0]), gatherDiag74(O[0]))
	both(idx, 31, off, b2t11, gatherDiag74(P[1]), gatherDiag74(O[1]))
	both(idx, 32, off, b2t11, gatherDiag74(P[2]), gatherDiag74(O[2]))
	both(idx, 33, off, b2t11, gatherDiag74(P[3]), gatherDiag74(O[3]))
	off = f[patDiag65]
	both(idx, 34, off, b2t11, gatherDiag65(P[0]), gatherDiag65(O[0]))
	both(idx, 35, off, b2t11, gatherDiag65(P[1]), gatherDiag65(O[1]))
	both(idx, 36, off, b2t11, gatherDiag65(P[2]), gatherDiag65(O[2]))
	both(idx, 37, off, b2t11, gatherDiag65(P[3]), gatherDiag65(O[3]))
	off = f[patCross]
	both(idx, 38, off, b2t10, gatherCross(P[0]), gatherCross(O[0]))
	both(idx, 39, off, b2t10, gatherCross(P[1]), gatherCross(O[1]))
	both(idx, 40, off, b2t10, gatherCross(P[2]), gatherCross(O[2]))
	both(idx, 41, off, b2t10, gatherCross(P[3]), gatherCross(O[3]))
	off = f[patEdgeBlock]
	both(idx, 42, off, b2t10, gatherEdgeBlock(P[0]), gatherEdgeBlock(O[0]))
	both(idx, 43, off, b2t10, gatherEdgeBlock(P[2]), gatherEdgeBlock(O[2]))
	both(idx, 44, off, b2t10, gatherEdgeBlock(P[4]), gatherEdgeBlock(O[4]))
	both(idx, 45, off, b2t10, gatherEdgeBlock(P[5]), gatherEdgeBlock(O[5]))
}
