package search

import (
	"context"
	"slices"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// checkFFO solves positions and checks the score against the file's best
// score and the move against the moves having it.
func checkFFO(t *testing.T, name string, first, n int, wld bool) {
	es := readFFO(t, name)
	eng := New(Options{HashMB: 16})
	for i, e := range es[:min(n, len(es))] {
		eng.Clear()
		info := eng.Search(context.Background(), e.Position, Limits{EndgameEmpties: AlwaysSolve, WLD: wld}, nil)
		want := e.Scores[0].Score
		if wld {
			want = wldClass(want)
		}
		var good []bitboard.Square
		for _, ms := range e.Scores {
			sc := ms.Score
			if wld {
				sc = wldClass(sc)
			}
			if sc == want {
				good = append(good, ms.Move)
			}
		}
		if !info.Exact || info.Score != want || !slices.Contains(good, info.Best) {
			t.Errorf("#%d: %s %+d (exact %v), want %+d by %v", first+i, info.Best, info.Score, info.Exact, want, good)
		}
		if _, _, err := bitboard.Replay(e.Position, info.PV); err != nil {
			t.Errorf("#%d: PV %v: %v", first+i, info.PV, err)
		}
		if !wld {
			end := e.Position
			for _, m := range info.PV {
				end, _ = end.PlayMove(m)
			}
			if !end.GameOver() {
				t.Errorf("#%d: PV %v does not end the game", first+i, info.PV)
			}
			sc := end.FinalScore()
			if end.ToMove != e.Position.ToMove {
				sc = -sc
			}
			if sc != want {
				t.Errorf("#%d: PV %v ends with %+d, want %+d", first+i, info.PV, sc, want)
			}
		}
	}
}

func TestFFO1to19(t *testing.T)    { checkFFO(t, "fforum-1-19.obf", 1, 19, false) }
func TestFFO1to19WLD(t *testing.T) { checkFFO(t, "fforum-1-19.obf", 1, 19, true) }
func TestFFO20to39(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 8
	}
	checkFFO(t, "fforum-20-39.obf", 20, n, false)
}

// TestFFO40to42 solves the first three positions of the benchmark suite
// (about 100 M nodes, a few seconds); the rest are benchmarks (bench/).
func TestFFO40to42(t *testing.T) {
	if testing.Short() {
		t.Skip("long: FFO #40-#42")
	}
	checkFFO(t, "fforum-40-59.obf", 40, 3, false)
}
