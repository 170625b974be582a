package bitboard

import "testing"

func TestHandicap(t *testing.T) {
	p := Handicap(4, Black)
	if p.Black()&(1|1<<7|1<<56|1<<63) != 1|1<<7|1<<56|1<<63 || p.ToMove != Black || Count(p.Black()) != 6 {
		t.Errorf("4 corners for black: %s", p)
	}
	p = Handicap(2, White)
	if p.White()&(1|1<<63) != 1|1<<63 || Count(p.White()) != 4 || p.ToMove != Black {
		t.Errorf("2 corners for white: %s", p)
	}
	if p := Handicap(0, White); p != Start() {
		t.Errorf("no handicap: %s", p)
	}
}
