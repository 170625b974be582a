package bench

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// open4.txt, the openings of the book matches, holds every 4-move line
// that starts with f5 (every game reaches one of them in its symmetric
// forms), each once: checked against the move generator.
func TestOpen4Lines(t *testing.T) {
	data, err := os.ReadFile("open4.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(data))
	for _, line := range got {
		if _, err := bitboard.ParseMoves(line); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	var want []string
	var walk func(p bitboard.Position, line string, plies int)
	walk = func(p bitboard.Position, line string, plies int) {
		if plies == 4 {
			want = append(want, line)
			return
		}
		for m := p.Moves(); m != 0; m &= m - 1 {
			sq := bitboard.FirstSquare(m)
			q, err := p.PlayMove(sq)
			if err != nil {
				t.Fatal(err)
			}
			walk(q, line+sq.String(), plies+1)
		}
	}
	f5, _ := bitboard.ParseSquare("f5")
	p, _ := bitboard.Start().PlayMove(f5)
	walk(p, "f5", 1)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("open4.txt holds %d lines; the 4-move lines after f5 are %d:\n%v", len(got), len(want), want)
	}
}
