//go:build ordfit

package search

// Data for fitting the endgame move order (not a test: build tag ordfit).
// For positions of WTHOR games at a few empties counts, every legal move's
// ordering features and the exact score after it, one line per move:
//
//	go test -tags ordfit -run OrdFit -v ./search -args -ordfit.out FILE
//
// FILE's columns: node, empties, move, opponent mobility, its corner moves,
// opponent potential mobility, our corners, parity (move in an odd
// quadrant), -evaluation, -depth-1 search, -depth-2 search, exact score,
// the best move's score, the nodes to search the move in a null-window
// node of alpha best-1 and best-7 (from an empty table).

import (
	"bufio"
	"flag"
	"fmt"
	"math/bits"
	"os"
	"sync/atomic"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/tt"
)

var (
	ordfitOut     = flag.String("ordfit.out", "ordfit.txt", "output file")
	ordfitGames   = flag.Int("ordfit.games", 400, "games to sample")
	ordfitEmpties = flag.String("ordfit.empties", "14,16,18", "empties counts to sample")
)

func TestOrdFit(t *testing.T) {
	_, games, _, err := wthor.ReadFile("../testdata/wthor/WTH_2025.wtb")
	if err != nil {
		t.Fatal(err)
	}
	var empties []int
	for _, f := range splitComma(*ordfitEmpties) {
		var e int
		fmt.Sscan(f, &e)
		empties = append(empties, e)
	}
	out, err := os.Create(*ordfitOut)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w := bufio.NewWriter(out)
	defer w.Flush()
	s := &searcher{tt: tt.New(256), ev: eval.Default(), checkAt: 1 << 62, stop: new(atomic.Bool)}
	c := &searcher{tt: tt.New(8), ev: s.ev, checkAt: 1 << 62, stop: new(atomic.Bool)}
	node := 0
	step := max(1, len(games) / *ordfitGames)
	for gi := 0; gi < len(games); gi += step {
		_, pos, err := games[gi].Replay()
		if err != nil {
			continue
		}
		for _, pp := range pos {
			e := pp.Empties()
			want := false
			for _, x := range empties {
				want = want || x == e
			}
			if !want || bits.OnesCount64(pp.Moves()) < 2 {
				continue
			}
			p, o := pp.Player, pp.Opponent
			par := parityOf(^(p | o))
			best := -inf
			for mm := pp.Moves(); mm != 0; mm &= mm - 1 {
				x := bits.TrailingZeros64(mm)
				f := flips(p, o, x)
				best = max(best, -s.pvsEnd(o&^f, p|f|sqBit(x), -65, 65, e-1))
			}
			for mm := pp.Moves(); mm != 0; mm &= mm - 1 {
				x := bits.TrailingZeros64(mm)
				f := flips(p, o, x)
				np, no := o&^f, p|f|sqBit(x)
				m := bitboard.Moves(np, no)
				parity := 0
				if par&quadrant[x] != 0 {
					parity = 1
				}
				ev := -s.ev.Evaluate(np, no)
				d1 := -s.mid(np, no, -inf, inf, 1)
				d2 := -s.mid(np, no, -inf, inf, 2)
				exact := -s.pvsEnd(np, no, -65, 65, e-1)
				// Nodes to search the move in null-window nodes of alpha
				// best-1 and best-7, with an empty small table (the
				// exact searches above filled the big one).
				var cost [2]uint64
				for i, a := range [2]int{best - 1, best - 7} {
					c.tt.Clear()
					c.nodes = 0
					c.nws(np, no, -a-1, e-1)
					cost[i] = c.nodes
				}
				fmt.Fprintln(w, node, e, x, bits.OnesCount64(m), bits.OnesCount64(m&cornerMask),
					bits.OnesCount64(bitboard.PotentialMoves(np, no)), bits.OnesCount64(no&cornerMask),
					parity, ev, d1, d2, exact, best, cost[0], cost[1])
			}
			node++
		}
	}
	t.Logf("%d nodes", node)
}

func splitComma(s string) []string {
	var r []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			r = append(r, s[start:i])
			start = i + 1
		}
	}
	return r
}
