package train

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// final is the score of a finished game, empty squares to the winner.
func final(p, o uint64) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	d := np - no
	switch e := 64 - np - no; {
	case d > 0:
		d += e
	case d < 0:
		d -= e
	}
	return d
}

// minimax is the naive full-width reference.
func minimax(p, o uint64) int {
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return final(p, o)
		}
		return -minimax(o, p)
	}
	best := -65
	for m := moves; m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		f := bitboard.Flips(p, o, sq)
		best = max(best, -minimax(o&^f, p|f|sq.Bit()))
	}
	return best
}

// randomEndgame plays random moves until empties are left.
func randomEndgame(rng *rand.Rand, empties int) (bitboard.Position, bool) {
	pos := bitboard.Start()
	for pos.Empties() > empties {
		m := pos.Moves()
		if m == 0 {
			if pos.GameOver() {
				return pos, false
			}
			pos = pos.Pass()
			continue
		}
		for k := rng.IntN(bits.OnesCount64(m)); k > 0; k-- {
			m &= m - 1
		}
		pos = pos.Play(bitboard.FirstSquare(m))
	}
	return pos, true
}

func TestSolveMatchesMinimax(t *testing.T) {
	s := NewSolver(1)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 300; i++ {
		pos, ok := randomEndgame(rng, 1+i%9)
		if !ok {
			continue
		}
		if got, want := s.Solve(pos.Player, pos.Opponent), minimax(pos.Player, pos.Opponent); got != want {
			t.Fatalf("%v: Solve %d, minimax %d", pos, got, want)
		}
	}
}

func TestSolveFinalPosition(t *testing.T) {
	// a game over with empties: they go to the winner.
	pos, err := bitboard.ParseBoard("XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX XXXXXXXX XXXXXX-- X")
	if err != nil {
		t.Fatal(err)
	}
	if got := NewSolver(1).Solve(pos.Player, pos.Opponent); got != 64 {
		t.Fatalf("Solve = %d, want 64", got)
	}
}

func BenchmarkSolve12(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	var pos []bitboard.Position
	for len(pos) < 20 {
		if p, ok := randomEndgame(rng, 12); ok {
			pos = append(pos, p)
		}
	}
	s := NewSolver(16)
	i := 0
	for b.Loop() {
		s.Solve(pos[i%len(pos)].Player, pos[i%len(pos)].Opponent)
		i++
	}
}

// Replayer gives the stored labels in order and reports a file that does
// not fit the games: a checked label the solver disagrees with, labels
// left over, labels missing.
func TestReplayer(t *testing.T) {
	solve := func(p, o uint64) int { return int(p % 7) }
	stored := []int8{0, 1, 2, 3, 4, 5}
	ask := func(stored []int8, n int) ([]int, error) {
		replay, done := Replayer(stored, solve, 2)
		var got []int
		for i := range n {
			got = append(got, replay(uint64(i), 0))
		}
		return got, done()
	}
	if got, err := ask(stored, 6); err != nil || fmt.Sprint(got) != "[0 1 2 3 4 5]" {
		t.Errorf("got %v, %v", got, err)
	}
	bad := []int8{0, 1, 9, 3, 4, 5} // label 2 is checked (every 2nd)
	if _, err := ask(bad, 6); err == nil || !strings.Contains(err.Error(), "label 2 is 9") {
		t.Errorf("a wrong checked label: %v", err)
	}
	if _, err := ask(stored, 5); err == nil {
		t.Error("labels left over were not reported")
	}
	if _, err := ask(stored, 7); err == nil {
		t.Error("missing labels were not reported")
	}
}
