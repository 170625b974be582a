package match

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// TestAsker: positions that do not follow each other are each sent as a
// game of their own, with the clock a game would leave at that point, and
// a misbehaving engine is a fault and is started again.
func TestAsker(t *testing.T) {
	var log bytes.Buffer
	a := NewAsker(fake(t, "first", 0, ""), testBinary(t), 300*time.Millisecond, &log)
	defer a.Close()
	pos := bitboard.Start()
	for _, m := range []string{"f5", "d6", "c3", "d3", "c4"} {
		sq, _ := bitboard.ParseSquare(m)
		pos = pos.Play(sq)
	}
	for _, p := range []bitboard.Position{pos, bitboard.Start(), pos} {
		m, _, err := a.Move(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		if want := bitboard.FirstSquare(p.Moves()); m != want {
			t.Errorf("%s: answered %s, want the fake engine's %s", p, m.Upper(), want.Upper())
		}
	}
	// 55 empties: 28 moves left at 0.3 s, a clock of 8.4 s, 9 s in whole
	// seconds.
	if got := log.String(); !strings.Contains(got, "BO[8 "+pos.BoardString('*', 'O', '-', " ")+"]") || !strings.Contains(got, "TI[0:09]") {
		t.Errorf("the position and its clock were not sent as a game:\n%s", got)
	}

	bad := NewAsker(fake(t, "illegal", 1, ""), testBinary(t), 300*time.Millisecond, nil)
	defer bad.Close()
	for i, want := range []FaultKind{-1, FaultIllegal, -1} {
		_, _, err := bad.Move(context.Background(), pos)
		var f *Fault
		switch {
		case want < 0 && err != nil:
			t.Errorf("move %d: %v, want a move (a fresh engine)", i+1, err)
		case want >= 0 && (!errors.As(err, &f) || f.Kind != want):
			t.Errorf("move %d: %v, want a %s fault", i+1, err, want)
		}
	}
	// A position without a legal move is refused before asking.
	s := bitboard.Start()
	if _, _, err := bad.Move(context.Background(), bitboard.Position{Opponent: s.Player | s.Opponent}); err == nil {
		t.Error("a position without a legal move: no error")
	}
}
