package bitboard

// Handicap returns the start of the rulebook's handicap game: the start
// position with the weaker side's discs also on n corners (a1, then h8, h1,
// a8; n is clamped to 0..4). Black moves first as always.
func Handicap(n int, weaker Color) Position {
	p := Start()
	var extra uint64
	for _, c := range []Square{0, 63, 7, 56}[:max(0, min(n, 4))] {
		extra |= c.Bit()
	}
	black, white := p.Black(), p.White()
	if weaker == Black {
		black |= extra
	} else {
		white |= extra
	}
	return FromColors(black, white, Black)
}
