package bitboard

import "math/bits"

// FlipVertical mirrors a bitboard top to bottom (row 1 <-> row 8).
func FlipVertical(b uint64) uint64 { return bits.ReverseBytes64(b) }

// MirrorHorizontal mirrors a bitboard left to right (column a <-> column h).
func MirrorHorizontal(b uint64) uint64 {
	b = (b>>1)&0x5555555555555555 | (b&0x5555555555555555)<<1
	b = (b>>2)&0x3333333333333333 | (b&0x3333333333333333)<<2
	return (b>>4)&0x0F0F0F0F0F0F0F0F | (b&0x0F0F0F0F0F0F0F0F)<<4
}

// FlipDiagonal mirrors a bitboard in the a1-h8 diagonal (b1 <-> a2).
func FlipDiagonal(b uint64) uint64 {
	t := 0x0F0F0F0F00000000 & (b ^ b<<28)
	b ^= t ^ t>>28
	t = 0x3333000033330000 & (b ^ b<<14)
	b ^= t ^ t>>14
	t = 0x5500550055005500 & (b ^ b<<7)
	return b ^ t ^ t>>7
}

// Symmetry is one of the 8 symmetries of the square board: bit 0 mirrors
// horizontally, bit 1 flips vertically, bit 2 flips in the a1-h8 diagonal,
// applied in that order. Symmetry 0 is the identity.
type Symmetry uint8

// Apply transforms a bitboard.
func (s Symmetry) Apply(b uint64) uint64 {
	if s&1 != 0 {
		b = MirrorHorizontal(b)
	}
	if s&2 != 0 {
		b = FlipVertical(b)
	}
	if s&4 != 0 {
		b = FlipDiagonal(b)
	}
	return b
}

// Square transforms a square (passes are left alone).
func (s Symmetry) Square(sq Square) Square {
	if !sq.IsBoard() {
		return sq
	}
	return FirstSquare(s.Apply(sq.Bit()))
}

// Inverse returns the symmetry that undoes s.
func (s Symmetry) Inverse() Symmetry {
	// Transposition does not commute with the two mirrors: T·V = H·T, so
	// undoing (H^a V^b) then T needs the mirrors swapped.
	if s&4 != 0 && s&3 != 0 && s&3 != 3 {
		return s ^ 3
	}
	return s
}

// Transform applies a symmetry to the board; the side to move is kept.
func (p Position) Transform(s Symmetry) Position {
	return Position{Player: s.Apply(p.Player), Opponent: s.Apply(p.Opponent), ToMove: p.ToMove}
}

// Canonical returns the smallest of the 8 transformed positions (ordered by
// Player then Opponent) and the symmetry that produced it, so that symmetric
// positions share one key, e.g. in an opening book. Of symmetries that give
// the same position (a symmetric one), the lowest is returned.
func (p Position) Canonical() (Position, Symmetry) {
	// The images in Symmetry's numbering, each from an earlier one by one
	// transformation (Apply mirrors, then flips, then transposes): 7 a
	// word rather than Apply's 12 behind 7 calls, which the opening book's
	// reading (a check of every position) felt in WebAssembly.
	var pi, oi [8]uint64
	pi[0], oi[0] = p.Player, p.Opponent
	pi[1], oi[1] = MirrorHorizontal(pi[0]), MirrorHorizontal(oi[0])
	pi[2], oi[2] = FlipVertical(pi[0]), FlipVertical(oi[0])
	pi[3], oi[3] = FlipVertical(pi[1]), FlipVertical(oi[1])
	for s := 4; s < 8; s++ {
		pi[s], oi[s] = FlipDiagonal(pi[s-4]), FlipDiagonal(oi[s-4])
	}
	bs := 0
	for s := 1; s < 8; s++ {
		if pi[s] < pi[bs] || pi[s] == pi[bs] && oi[s] < oi[bs] {
			bs = s
		}
	}
	return Position{Player: pi[bs], Opponent: oi[bs], ToMove: p.ToMove}, Symmetry(bs)
}

// Hash returns a 64-bit hash of the discs of the side to move and of the
// opponent (not of the colour: the game from here does not depend on it).
// It mixes both words with multiply-xorshift steps, which spreads every bit
// into every bit of the result: the transposition table (package tt) takes
// its bucket from the low bits and verifies an entry with all 64.
func Hash(p, o uint64) uint64 {
	h := p*0x9E3779B97F4A7C15 ^ bits.RotateLeft64(o*0xC2B2AE3D27D4EB4F, 32)
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	return h
}

// Hash returns Hash(p.Player, p.Opponent).
func (p Position) Hash() uint64 { return Hash(p.Player, p.Opponent) }
