package bitboard

import "math/bits"

// Column masks that stop horizontal and diagonal shifts from wrapping
// from one row into the next.
const (
	notA    uint64 = 0xFEFEFEFEFEFEFEFE // every square but column a
	notH    uint64 = 0x7F7F7F7F7F7F7F7F // every square but column h
	notAorH uint64 = 0x7E7E7E7E7E7E7E7E // columns b-g
)

// Moves returns the legal moves of the side owning p against the side owning
// o: the empty squares from which a straight line of one or more o discs
// ends in a p disc. It is a Kogge-Stone style parallel prefix: each direction
// needs three shift-and-mask steps instead of six, and no loop over squares.
//
// Where the CPU has AVX2 (see hasAVX2Kernel) the same fill runs in assembly,
// the four direction pairs in the four lanes of one vector register.
func Moves(p, o uint64) uint64 { return movesKernel(p, o) }

// MovesBoth returns Moves(p, o) and Moves(o, p), in one call where the
// assembly runs (the evaluation counts both sides' moves).
func MovesBoth(p, o uint64) (pm, om uint64) { return movesBothKernel(p, o) }

// movesBothGo is the portable form of MovesBoth.
func movesBothGo(p, o uint64) (pm, om uint64) { return movesGo(p, o), movesGo(o, p) }

// movesGo is the portable form of Moves.
func movesGo(p, o uint64) uint64 {
	// The shifts are written out per direction so that every shift count is a
	// constant (a helper taking the count would exceed the inlining budget).
	m := o & notAorH

	// East/west (1).
	l := m & (p << 1)
	r := m & (p >> 1)
	l |= m & (l << 1)
	r |= m & (r >> 1)
	pl := m & (m << 1)
	pr := pl >> 1
	l |= pl & (l << 2)
	r |= pr & (r >> 2)
	l |= pl & (l << 2)
	r |= pr & (r >> 2)
	moves := l<<1 | r>>1

	// North/south (8): no column can wrap.
	l = o & (p << 8)
	r = o & (p >> 8)
	l |= o & (l << 8)
	r |= o & (r >> 8)
	pl = o & (o << 8)
	pr = pl >> 8
	l |= pl & (l << 16)
	r |= pr & (r >> 16)
	l |= pl & (l << 16)
	r |= pr & (r >> 16)
	moves |= l<<8 | r>>8

	// Diagonal (7).
	l = m & (p << 7)
	r = m & (p >> 7)
	l |= m & (l << 7)
	r |= m & (r >> 7)
	pl = m & (m << 7)
	pr = pl >> 7
	l |= pl & (l << 14)
	r |= pr & (r >> 14)
	l |= pl & (l << 14)
	r |= pr & (r >> 14)
	moves |= l<<7 | r>>7

	// Diagonal (9).
	l = m & (p << 9)
	r = m & (p >> 9)
	l |= m & (l << 9)
	r |= m & (r >> 9)
	pl = m & (m << 9)
	pr = pl >> 9
	l |= pl & (l << 18)
	r |= pr & (r >> 18)
	l |= pl & (l << 18)
	r |= pr & (r >> 18)
	moves |= l<<9 | r>>9

	return moves &^ (p | o)
}

// rays[sq][d] holds the squares seen from sq in direction d, sq excluded, up
// to the edge. Directions 0-3 go towards higher bit numbers (east, south-west,
// south, south-east), 4-7 towards lower ones (west, north-east, north,
// north-west). Computed once at start; read-only afterwards.
var rays = func() (t [64][8]uint64) {
	dc := [8]int{1, -1, 0, 1, -1, 1, 0, -1}
	dr := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	for sq := 0; sq < 64; sq++ {
		for d := 0; d < 8; d++ {
			c, r := sq%8+dc[d], sq/8+dr[d]
			for c >= 0 && c < 8 && r >= 0 && r < 8 {
				t[sq][d] |= 1 << uint(r*8+c)
				c, r = c+dc[d], r+dr[d]
			}
		}
	}
	return t
}()

// Flips returns the o discs that a p disc placed on sq would flip, 0 if sq
// is not a legal move (sq must be a board square; it is not checked to be
// empty).
//
// Along a ray towards higher bits the first non-o square is found with a carry:
// adding 1 to (o | ^ray) ripples through every bit below and between the
// ray's o discs and stops at that square. Towards lower bits it is the
// highest set bit of ^o & ray. Either way the discs between sq and that square
// flip if, and only if, it holds a p disc.
//
// Where the CPU has AVX2 an assembly version runs instead: a Kogge-Stone fill
// from the move's square in all eight directions at once; with AVX-512 the
// rays towards lower bits use VPLZCNTQ instead of the fill.
func Flips(p, o uint64, sq Square) uint64 { return flipsKernel(p, o, sq) }

// FlipsReplies returns Flips(p, o, sq) and the opponent's moves after it,
// Moves(o &^ f, p | f | sq), in one call where the assembly runs: the
// endgame's fastest-first order needs both for every move, and a call is a
// good part of the cost of either (sq must be a legal move of p).
func FlipsReplies(p, o uint64, sq Square) (f, r uint64) { return flipsRepliesKernel(p, o, sq) }

// flipsRepliesGo is the portable form of FlipsReplies.
func flipsRepliesGo(p, o uint64, sq Square) (f, r uint64) {
	f = flipsGo(p, o, sq)
	return f, movesGo(o&^f, p|f|1<<uint(sq&63))
}

// flipsGo is the portable form of Flips.
func flipsGo(p, o uint64, sq Square) uint64 {
	r := &rays[sq&63] // &63 drops the bounds check
	var f uint64

	m := r[0]
	out := ((o | ^m) + 1) & m & p
	f |= (out - 1) & m &^ uint64(int64(out-1)>>63) // the last mask is 0 when out == 0
	m = r[1]
	out = ((o | ^m) + 1) & m & p
	f |= (out - 1) & m &^ uint64(int64(out-1)>>63)
	m = r[2]
	out = ((o | ^m) + 1) & m & p
	f |= (out - 1) & m &^ uint64(int64(out-1)>>63)
	m = r[3]
	out = ((o | ^m) + 1) & m & p
	f |= (out - 1) & m &^ uint64(int64(out-1)>>63)

	// With no non-o square on the ray the count is 64; "&63" turns it into 0,
	// which leaves bit 63, never on a ray towards lower bits, so "& m" clears
	// it. The mask also spares the compiler its check for shifts >= 64.
	m = r[4]
	out = (1 << 63 >> (uint(bits.LeadingZeros64(^o&m)) & 63)) & m & p
	f |= -(out << 1) & m
	m = r[5]
	out = (1 << 63 >> (uint(bits.LeadingZeros64(^o&m)) & 63)) & m & p
	f |= -(out << 1) & m
	m = r[6]
	out = (1 << 63 >> (uint(bits.LeadingZeros64(^o&m)) & 63)) & m & p
	f |= -(out << 1) & m
	m = r[7]
	out = (1 << 63 >> (uint(bits.LeadingZeros64(^o&m)) & 63)) & m & p
	f |= -(out << 1) & m
	return f
}

// PotentialMoves returns the empty squares next to at least one o disc: the
// squares where p might one day move (potential mobility).
func PotentialMoves(p, o uint64) uint64 {
	e, w := o&notH, o&notA // discs that have a neighbour east / west
	n := o<<8 | o>>8 | e<<1 | e<<9 | e>>7 | w>>1 | w<<7 | w>>9
	return n &^ (p | o)
}

// Count returns the number of set bits (discs or squares) of b.
func Count(b uint64) int { return bits.OnesCount64(b) }

// FirstSquare returns the lowest square set in b (b must not be 0).
func FirstSquare(b uint64) Square { return Square(bits.TrailingZeros64(b)) }
