package search

import (
	"context"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
)

// minimax is a plain exact solver for checking the fast one.
func minimax(p, o uint64) int {
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -minimax(o, p)
	}
	best := -inf
	for ; moves != 0; moves &= moves - 1 {
		x := bits.TrailingZeros64(moves)
		f := flips(p, o, x)
		best = max(best, -minimax(o&^f, p|f|sqBit(x)))
	}
	return best
}

// randomPosition plays random moves from the start until empties remain.
func randomPosition(r *rand.Rand, empties int) (bitboard.Position, bool) {
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
		n := r.IntN(bits.OnesCount64(m))
		for range n {
			m &= m - 1
		}
		pos = pos.Play(bitboard.FirstSquare(m))
	}
	return pos, true
}

func newTestSearcher() *searcher {
	e := New(Options{HashMB: 4})
	return &searcher{tt: e.tt, ev: e.eval, checkAt: 1 << 62, stop: new(atomic.Bool)}
}

// TestSolverAgainstMinimax checks exact scores and null-window bounds of
// the solver layers against plain minimax on random positions.
func TestSolverAgainstMinimax(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := newTestSearcher()
	count := 220 // 1 to 11 empties: every layer, the local table's up to 11 included
	if testing.Short() {
		count = 66
	}
	for i := 0; i < count; i++ {
		empties := 1 + i%11
		pos, ok := randomPosition(r, empties)
		if !ok {
			continue
		}
		p, o := pos.Player, pos.Opponent
		want := minimax(p, o)
		if got := s.pvsEnd(p, o, -65, 65, pos.Empties()); got != want {
			t.Fatalf("%s: pvsEnd = %d, want %d", pos, got, want)
		}
		for _, alpha := range []int{want - 3, want - 1, want, want + 2} {
			v := s.nws(p, o, alpha, pos.Empties())
			if (v > alpha) != (want > alpha) || (v > alpha && v > want) || (v <= alpha && v < want) {
				t.Fatalf("%s: nws(alpha %d) = %d, exact %d", pos, alpha, v, want)
			}
		}
	}
}

func TestStableDiscs(t *testing.T) {
	// Column packing: row r of column c becomes bit r, and back.
	for c := uint(0); c < 8; c++ {
		for r := uint(0); r < 8; r++ {
			b := uint64(1) << (8*r + c)
			if got := packColumn(b|^uint64(0x0101010101010101<<c), c); got != 1<<r {
				t.Fatalf("pack column %d row %d: %#x", c, r, got)
			}
			if got := unpackColumn(1<<r, c); got != b {
				t.Fatalf("unpack column %d row %d: %#x", c, r, got)
			}
		}
	}
	// No disc called stable ever flips in random continuations.
	r := rand.New(rand.NewPCG(3, 4))
	for range 400 {
		pos, ok := randomPosition(r, 5+r.IntN(40))
		if !ok {
			continue
		}
		st := stableDiscs(pos.Player, pos.Opponent)
		if st&^pos.Player != 0 {
			t.Fatalf("%s: stable discs %x not all the player's", pos, st)
		}
		black := pos.ToMove == bitboard.Black
		for range 20 {
			q := pos
			for !q.GameOver() {
				m := q.Moves()
				if m == 0 {
					q = q.Pass()
					continue
				}
				n := r.IntN(bits.OnesCount64(m))
				for range n {
					m &= m - 1
				}
				q = q.Play(bitboard.FirstSquare(m))
				mine := q.Black()
				if !black {
					mine = q.White()
				}
				if st&^mine != 0 {
					t.Fatalf("%s: disc(s) %s called stable were flipped", pos, bitboard.SquaresString(st&^mine))
				}
			}
		}
	}
	// A full board: everything is stable.
	pos, _ := bitboard.ParseBoard("XXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOOXXXXXXXXOOOOOOOO X")
	if got := stableDiscs(pos.Player, pos.Opponent); got != pos.Player {
		t.Fatalf("full board: stable %x, want %x", got, pos.Player)
	}
}

func TestSearchBasics(t *testing.T) {
	eng := New(Options{HashMB: 4})
	ctx := context.Background()
	start := bitboard.Start()
	var reports int
	info := eng.Search(ctx, start, Limits{Depth: 6}, func(Info) { reports++ })
	if info.Depth != 6 || !start.IsLegal(info.Best) || reports != 6 {
		t.Fatalf("depth 6 from start: %+v (%d reports)", info, reports)
	}
	if _, _, err := bitboard.Replay(start, info.PV); err != nil || info.PV[0] != info.Best {
		t.Fatalf("PV %v illegal: %v", info.PV, err)
	}
	// Game over.
	full, _ := bitboard.ParseBoard("XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX- O")
	info = eng.Search(ctx, full, Limits{}, nil)
	if info.Best != bitboard.NoSquare || !info.Exact || info.Score != -64 {
		t.Fatalf("finished game: %+v", info)
	}
	// Node limit and cancellation still give a legal move.
	info = eng.Search(ctx, start, Limits{Nodes: 10}, nil)
	if !start.IsLegal(info.Best) {
		t.Fatalf("node-limited search: %+v", info)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	info = eng.Search(cctx, start, Limits{}, nil)
	if !start.IsLegal(info.Best) {
		t.Fatalf("cancelled search: %+v", info)
	}
	// Time limit on a long search returns (the bound itself is not asserted).
	info = eng.Search(ctx, start, Limits{Time: 50 * time.Millisecond}, nil)
	if !start.IsLegal(info.Best) {
		t.Fatalf("timed search: %+v", info)
	}
	// Set-up boards far from any game: few discs (62 empties), many moves.
	for _, b := range []string{
		"XO" + strings.Repeat("-", 62) + " X",
		strings.Repeat("-O-O-O-O", 4) + strings.Repeat("XXXXXXXX", 4) + " X",
	} {
		q, err := bitboard.ParseBoard(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, lim := range []Limits{{Depth: 4}, {EndgameEmpties: AlwaysSolve, Nodes: 200000}} {
			info := eng.Search(ctx, q, lim, nil)
			if !q.IsLegal(info.Best) && !(q.GameOver() && info.Best == bitboard.NoSquare) {
				t.Fatalf("%s %+v: %+v", b, lim, info)
			}
		}
	}
	// A solve cut short by time still answers with a legal move; one that
	// finishes is exact.
	ffo := readFFO(t, "fforum-40-59.obf")[5] // #45: far too long for 30 ms
	info = eng.Search(ctx, ffo.Position, Limits{Time: 30 * time.Millisecond}, nil)
	if !ffo.Position.IsLegal(info.Best) || info.Exact {
		t.Fatalf("timed solve of #45: %+v", info)
	}
	ffo = readFFO(t, "fforum-1-19.obf")[0]
	info = eng.Search(ctx, ffo.Position, Limits{Time: time.Minute}, nil)
	if !info.Exact || info.Score != ffo.Scores[0].Score {
		t.Fatalf("timed solve of #1: %+v", info)
	}
}

func TestMultiPV(t *testing.T) {
	eng := New(Options{HashMB: 4})
	pos := readFFO(t, "fforum-1-19.obf")[0]
	info := eng.Search(context.Background(), pos.Position, Limits{EndgameEmpties: AlwaysSolve, MultiPV: 3}, nil)
	if len(info.Moves) != 3 {
		t.Fatalf("MultiPV 3: %+v", info.Moves)
	}
	for i, ms := range info.Moves {
		if ms != pos.Scores[i] {
			t.Errorf("move %d: %v, want %v", i, ms, pos.Scores[i])
		}
	}
}

// TestMultiPVMargin checks the margin's contract against the known score
// of every move: exact within the margin of the best, an upper bound below
// best-margin beyond it.
func TestMultiPVMargin(t *testing.T) {
	const margin = 4
	for _, pos := range readFFO(t, "fforum-1-19.obf")[:4] {
		eng := New(Options{HashMB: 4})
		info := eng.Search(context.Background(), pos.Position, Limits{EndgameEmpties: AlwaysSolve, MultiPV: 64, MultiPVMargin: margin}, nil)
		if len(info.Moves) != len(pos.Scores) {
			t.Fatalf("%s: %d moves scored, want %d", pos.Position, len(info.Moves), len(pos.Scores))
		}
		want := map[bitboard.Square]int{}
		for _, ms := range pos.Scores {
			want[ms.Move] = ms.Score
		}
		best, bounded := pos.Scores[0].Score, 0
		for _, ms := range info.Moves {
			w := want[ms.Move]
			switch {
			case w >= best-margin && ms.Score != w:
				t.Errorf("%s: %s scored %d, want exactly %d (within the margin)", pos.Position, ms.Move, ms.Score, w)
			case w < best-margin && (ms.Score < w || ms.Score > best-margin-1):
				t.Errorf("%s: %s scored %d, want a bound in [%d, %d]", pos.Position, ms.Move, ms.Score, w, best-margin-1)
			case w < best-margin:
				bounded++
			}
		}
		if info.Score != best || info.Best != pos.Scores[0].Move && want[info.Best] != best {
			t.Errorf("%s: best %s %d, want %d", pos.Position, info.Best, info.Score, best)
		}
		full := New(Options{HashMB: 4}).Search(context.Background(), pos.Position, Limits{EndgameEmpties: AlwaysSolve, MultiPV: 64}, nil)
		if bounded > 0 && info.Nodes >= full.Nodes {
			t.Errorf("%s: %d nodes with the margin, %d without: the bounds saved nothing", pos.Position, info.Nodes, full.Nodes)
		}
		t.Logf("%s: %d of %d moves beyond the margin; %d nodes, %d without it", pos.Position, bounded, len(info.Moves), info.Nodes, full.Nodes)
	}
}

// TestMultiPVFinal: scoring every root move in the last iteration only
// still gives every move a score, the best first, for fewer nodes; and a
// depth past the end still ends in every move's exact score.
func TestMultiPVFinal(t *testing.T) {
	ctx := context.Background()
	for _, pos := range readFFO(t, "fforum-40-59.obf")[:3] {
		lim := Limits{Depth: 6, MultiPV: 64, EndgameEmpties: 1, Selectivity: 100}
		full := New(Options{HashMB: 4}).Search(ctx, pos.Position, lim, nil)
		lim.MultiPVFinal = true
		last := New(Options{HashMB: 4}).Search(ctx, pos.Position, lim, nil)
		n := bits.OnesCount64(bitboard.Moves(pos.Position.Player, pos.Position.Opponent))
		if len(full.Moves) != n || len(last.Moves) != n {
			t.Fatalf("%s: %d and %d moves scored, want %d", pos.Position, len(full.Moves), len(last.Moves), n)
		}
		if last.Moves[0].Score != last.Score || last.Moves[0].Move != last.Best || last.Score != full.Score {
			t.Errorf("%s: best %s %d (first listed %v), full multi-PV %d", pos.Position, last.Best, last.Score, last.Moves[0], full.Score)
		}
		if last.Nodes >= full.Nodes {
			t.Errorf("%s: %d nodes scoring the last iteration only, %d scoring all", pos.Position, last.Nodes, full.Nodes)
		}
		t.Logf("%s: %d nodes, %d with every iteration scoring all moves", pos.Position, last.Nodes, full.Nodes)
	}
	pos := readFFO(t, "fforum-1-19.obf")[0]
	info := New(Options{HashMB: 4}).Search(ctx, pos.Position, Limits{Depth: 40, MultiPV: 64, MultiPVFinal: true, EndgameEmpties: 1, Selectivity: 100}, nil)
	if !info.Exact || len(info.Moves) != len(pos.Scores) {
		t.Fatalf("past the end: exact %v, %d moves, want %d", info.Exact, len(info.Moves), len(pos.Scores))
	}
	for i, ms := range info.Moves {
		if ms.Score != pos.Scores[i].Score {
			t.Errorf("past the end: move %d %v, want score %d", i, ms, pos.Scores[i].Score)
		}
	}
}

func readFFO(t testing.TB, name string) []bitboard.OBFEntry {
	f, err := os.Open("../testdata/ffo/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	es, err := bitboard.ReadOBF(f)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// neighbours[sq] are the squares next to sq, built square by square: the
// reference that isolatedEmpties' shifts are checked against.
var neighbours = func() (t [64]uint64) {
	for sq := range 64 {
		c, r := sq%8, sq/8
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				if (dr != 0 || dc != 0) && c+dc >= 0 && c+dc < 8 && r+dr >= 0 && r+dr < 8 {
					t[sq] |= 1 << uint((r+dr)*8+c+dc)
				}
			}
		}
	}
	return t
}()

// TestIsolatedEmpties checks isolatedEmpties against the neighbour table on
// random sets of empty squares.
func TestIsolatedEmpties(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 10000 {
		empty := r.Uint64() & r.Uint64() & r.Uint64() // sparse, as in an endgame
		var want uint64
		for e := empty; e != 0; e &= e - 1 {
			x := bits.TrailingZeros64(e)
			if neighbours[x]&empty == 0 {
				want |= sqBit(x)
			}
		}
		if got := isolatedEmpties(empty); got != want {
			t.Fatalf("isolatedEmpties(%#x) = %#x, want %#x", empty, got, want)
		}
	}
}

// TestThreads runs lazy SMP searches (run with -race): same exact answers.
func TestThreads(t *testing.T) {
	es := readFFO(t, "fforum-1-19.obf")
	eng := New(Options{HashMB: 8, Threads: 3})
	for i, e := range es[:6] {
		info := eng.Search(context.Background(), e.Position, Limits{EndgameEmpties: AlwaysSolve}, nil)
		if info.Score != e.Scores[0].Score {
			t.Errorf("#%d: %+d, want %+d", i+1, info.Score, e.Scores[0].Score)
		}
	}
	info := eng.Search(context.Background(), bitboard.Start(), Limits{Depth: 8}, nil)
	if !bitboard.Start().IsLegal(info.Best) {
		t.Fatalf("midgame with threads: %+v", info)
	}
}

// negamax is a plain depth-limited search with the same conventions as mid:
// a pass uses no depth, a finished game scores exactly.
func negamax(ev Evaluator, p, o uint64, depth int) int {
	moves := bitboard.Moves(p, o)
	if moves == 0 {
		if bitboard.Moves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -negamax(ev, o, p, depth)
	}
	if depth == 0 {
		return ev.Evaluate(p, o)
	}
	best := -inf
	for ; moves != 0; moves &= moves - 1 {
		x := bits.TrailingZeros64(moves)
		f := flips(p, o, x)
		best = max(best, -negamax(ev, o&^f, p|f|sqBit(x), depth-1))
	}
	return best
}

// TestMidgameAgainstNegamax: the PVS with table, ordering and fail-soft
// windows must return exactly the plain negamax value (a position's
// remaining depth depends only on its empties, so the table cannot mix
// depths within one search).
func TestMidgameAgainstNegamax(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 60 {
		pos, ok := randomPosition(r, 20+r.IntN(35))
		if !ok || pos.Moves() == 0 {
			continue
		}
		s := newTestSearcher()
		d := 1 + i%5
		want := negamax(s.ev, pos.Player, pos.Opponent, d)
		if got := s.mid(pos.Player, pos.Opponent, -inf, inf, d); got != want {
			t.Fatalf("%s depth %d: mid %d, negamax %d", pos, d, got, want)
		}
		// Null windows around the value give correct bounds.
		for _, a := range []int{want - 1, want} {
			s := newTestSearcher()
			v := s.mid(pos.Player, pos.Opponent, a, a+1, d)
			if (v > a) != (want > a) {
				t.Fatalf("%s depth %d window (%d,%d): %d, value %d", pos, d, a, a+1, v, want)
			}
		}
	}
}

// TestSelectiveSearch: a selective search reports its confidence, is never
// Exact below 100%, gives legal PVs, and the exact search after the
// selective endgame levels still finds the FFO scores.
func TestSelectiveSearch(t *testing.T) {
	es := readFFO(t, "fforum-1-19.obf")
	eng := New(Options{HashMB: 8})
	for _, e := range es[:4] {
		var infos []Info
		// Deepening to the end (no solve limit): the selective endgame
		// levels, then the exact iteration.
		info := eng.Search(context.Background(), e.Position, Limits{Selectivity: 73, EndgameEmpties: 1}, func(i Info) { infos = append(infos, i) })
		if !info.Exact || info.Selectivity != 100 || info.Score != e.Scores[0].Score {
			t.Errorf("%s: %+v, want exact %+d", e.Position, info, e.Scores[0].Score)
		}
		levels := 0
		for _, i := range infos {
			if i.Selectivity < 100 && i.Exact {
				t.Errorf("%s: selective result marked exact: %+v", e.Position, i)
			}
			if i.Depth == e.Position.Empties() && i.Selectivity < 100 {
				levels++
			}
			checkPV(t, e.Position, i.PV)
		}
		if levels != len(selectivityLevels)-1 {
			t.Errorf("%s: %d selective endgame results, want one per level below 100%%", e.Position, levels)
		}
	}
	pos := bitboard.Start().Play(bitboard.Square(19)) // d3
	info := eng.Search(context.Background(), pos, Limits{Depth: 10, Selectivity: 87}, nil)
	if info.Selectivity != 87 || info.Exact || info.Depth != 10 {
		t.Errorf("midgame at 87%%: %+v", info)
	}
	checkPV(t, pos, info.PV)
}

// TestEndJump checks that a selective search with time to reach the end
// stops its midgame iterations midEndJumpEmpties short of it and searches
// to the end instead, selective levels first, then exact.
func TestEndJump(t *testing.T) {
	if midEndJumpEmpties <= 0 {
		t.Skip("midEndJumpEmpties is 0: no jump")
	}
	eng := New(Options{HashMB: 8})
	for _, e := range readFFO(t, "fforum-1-19.obf")[:3] {
		n := e.Position.Empties()
		var infos []Info
		info := eng.Search(context.Background(), e.Position, Limits{Selectivity: 73, EndgameEmpties: 1, Time: time.Minute}, func(i Info) { infos = append(infos, i) })
		if !info.Exact || info.Score != e.Scores[0].Score {
			t.Errorf("%s: %+v, want exact %+d", e.Position, info, e.Scores[0].Score)
		}
		ends := 0
		for _, i := range infos {
			if i.Depth < n && i.Depth > n-midEndJumpEmpties {
				t.Errorf("%s (%d empties): a midgame iteration to depth %d, want none past %d", e.Position, n, i.Depth, n-midEndJumpEmpties)
			}
			if i.Depth == n && i.Selectivity < 100 {
				ends++
				if i.Exact {
					t.Errorf("%s: selective result marked exact: %+v", e.Position, i)
				}
			}
		}
		if ends == 0 {
			t.Errorf("%s: no selective search to the end", e.Position)
		}
	}
}

// TestSolveAfterEnd checks that a timed selective search of a position it
// will solve reports its search to the end at the selective levels before
// the exact result, when midSolveAfterEnd asks for it.
func TestSolveAfterEnd(t *testing.T) {
	if midSolveAfterEnd == 0 || midEndJumpEmpties <= 0 {
		t.Skip("midSolveAfterEnd is 0: the solve may come right after the pre-search")
	}
	eng := New(Options{HashMB: 8})
	for _, e := range readFFO(t, "fforum-1-19.obf")[:3] {
		var infos []Info
		info := eng.Search(context.Background(), e.Position, Limits{Selectivity: 73, Time: time.Minute}, func(i Info) { infos = append(infos, i) })
		if !info.Exact || info.Score != e.Scores[0].Score {
			t.Errorf("%s: %+v, want exact %+d", e.Position, info, e.Scores[0].Score)
		}
		levels := 0
		for _, i := range infos {
			if i.Depth == e.Position.Empties() && i.Selectivity < 100 {
				levels++
			}
		}
		if levels != len(selectivityLevels)-1 {
			t.Errorf("%s: %d selective results to the end before the solve, want one per level below 100%%", e.Position, levels)
		}
	}
}

func checkPV(t *testing.T, pos bitboard.Position, pv []bitboard.Square) {
	t.Helper()
	for _, m := range pv {
		if m == bitboard.PassMove {
			if !pos.MustPass() {
				t.Fatalf("%s: PV %v passes with moves", pos, pv)
			}
			pos = pos.Pass()
			continue
		}
		if !pos.IsLegal(m) {
			t.Fatalf("%s: PV %v: illegal %v", pos, pv, m)
		}
		pos = pos.Play(m)
	}
}

// TestTTDepth: the packed depth and confidence settle exactly the searches
// they may.
func TestTTDepth(t *testing.T) {
	for d := 0; d <= 41; d++ {
		for sel := range selectivityLevels {
			e := ttDepth(d, sel)
			for qd := 0; qd <= 45; qd++ {
				for qs := range selectivityLevels {
					want := qd <= d && sel <= qs
					if got := ttDeepEnough(e, qd, qs); got != want {
						t.Fatalf("entry (%d, %d), search (%d, %d): %v, want %v", d, sel, qd, qs, got, want)
					}
				}
			}
		}
	}
	if ttDepth(50, 0) != ttDepth(41, 0) {
		t.Errorf("depth 50 not clamped")
	}
}

// TestEndOrderIncrementalEvaluation: the endgame order's evaluation term,
// computed from the node's pattern indexes by one Play a child, equals the
// evaluation of each child's bare board (an Init-Play mistake would change
// the order, not the answers, so only this test would see it).
func TestEndOrderIncrementalEvaluation(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	s := newTestSearcher()
	checked := 0
	for i := 0; checked < 300 && i < 3000; i++ {
		empties := endEvalOrderMinEmpties + i%(endSearchOrderMinEmpties-endEvalOrderMinEmpties)
		pos, l, ok := randomOrderNode(r, empties)
		if !ok || l.n == 0 {
			continue
		}
		p, o := pos.Player, pos.Opponent
		s.valueEndMoves(l.ms[:l.n], p, o, 0, empties, -1)
		par := parityOf(^(p | o))
		for _, m := range l.ms[:l.n] {
			x := int(m.sq)
			if want := evalOrderWant(s, p, o, m, par); m.val != want {
				t.Fatalf("%v, move %d: order value %d, want %d (from the bare board)", pos, x, m.val, want)
			}
		}
		checked++
	}
	if checked < 300 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// randomOrderNode returns a random position with the given empties and
// its moves, unvalued, for the order tests (ok false where randomPosition
// found none).
func randomOrderNode(r *rand.Rand, empties int) (pos bitboard.Position, l moveList, ok bool) {
	pos, ok = randomPosition(r, empties)
	if ok {
		l.fill(pos.Player, pos.Opponent, bitboard.Moves(pos.Player, pos.Opponent))
	}
	return pos, l, ok
}

// evalOrderWant is the evaluation order's value of the move m of (p, o),
// computed from the child's bare board (par: the node's odd quadrants).
func evalOrderWant(s *searcher, p, o uint64, m move, par uint8) int32 {
	x := int(m.sq)
	np, no := o&^m.flips, p|m.flips|sqBit(x)
	want := endOrderValue(np, no) + int32(-s.ev.Evaluate(np, no))*int32(endOrderEvalWeight)
	if par&quadrant[x] != 0 {
		want += int32(endOrderParityBonus)
	}
	switch x {
	case 0, 7, 56, 63: // a1, h1, a8, h8
		want += int32(endOrderCornerMoveBonus)
	case 9, 14, 49, 54: // b2, g2, b7, g7
		want -= int32(endOrderXMovePenalty)
	}
	return want
}

// TestEndOrderSearchTopK checks the order from endSearchOrderMinEmpties to
// endSearchTopKMaxEmpties: every move is valued as by the evaluation order,
// and only the endSearchTopK best by that value get the shallow search's
// term instead of the evaluation's. A slip here would change the order,
// not the answers, so only this test would see it.
func TestEndOrderSearchTopK(t *testing.T) {
	if endSearchTopKMaxEmpties < endSearchOrderMinEmpties || endSearchTopK <= 0 {
		t.Skip("no top-K shallow-search order in this build")
	}
	r := rand.New(rand.NewPCG(23, 24))
	s := newTestSearcher()
	checked, changed := 0, 0
	span := endSearchTopKMaxEmpties - endSearchOrderMinEmpties + 1
	for i := 0; checked < 100 && i < 3000; i++ {
		empties := endSearchOrderMinEmpties + i%span
		pos, l, ok := randomOrderNode(r, empties)
		if !ok || l.n <= endSearchTopK {
			continue
		}
		p, o := pos.Player, pos.Opponent
		s.valueEndMoves(l.ms[:l.n], p, o, 0, empties, -1)
		par := parityOf(^(p | o))
		want := make([]int32, l.n)
		for i, m := range l.ms[:l.n] {
			want[i] = evalOrderWant(s, p, o, m, par)
		}
		// The top K by the evaluation's value, the first of equals first.
		top := make([]bool, l.n)
		for range endSearchTopK {
			b := -1
			for i := range want {
				if !top[i] && (b < 0 || want[i] > want[b]) {
					b = i
				}
			}
			top[b] = true
		}
		for i, m := range l.ms[:l.n] {
			switch {
			case !top[i] && m.val != want[i]:
				t.Fatalf("%v, move %d, not among the %d best: order value %d, want the evaluation's %d", pos, m.sq, endSearchTopK, m.val, want[i])
			case top[i] && m.val != want[i]:
				changed++
			}
		}
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d positions checked", checked)
	}
	if changed == 0 {
		t.Fatal("no move's value came from the shallow search")
	}
}

// TestParityOf checks the folded quadrant parity against counting.
func TestParityOf(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 100000; i++ {
		e := r.Uint64() & r.Uint64()
		if i%3 == 0 {
			e = r.Uint64()
		}
		var want uint8
		for q := range 4 {
			if bits.OnesCount64(e&quadrantMask[1<<q])&1 != 0 {
				want |= 1 << q
			}
		}
		if got := parityOf(e); got != want {
			t.Fatalf("parityOf(%#x) = %04b, want %04b", e, got, want)
		}
	}
}

// TestFullLines checks fullLines against walking each square's four lines
// on random occupancies, dense ones included (most lines are full only
// near the end).
func TestFullLines(t *testing.T) {
	ref := func(occ uint64, sq, dr, dc int) bool {
		r, c := sq/8, sq%8
		for r >= 0 && r < 8 && c >= 0 && c < 8 {
			if occ&(1<<uint(r*8+c)) == 0 {
				return false
			}
			r, c = r+dr, c+dc
		}
		return true
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 20000 {
		occ := rng.Uint64()
		for range i % 4 { // denser and denser boards
			occ |= rng.Uint64()
		}
		if i == 0 {
			occ = ^uint64(0)
		}
		lines := [4]uint64{}
		lines[0], lines[1], lines[2], lines[3] = fullLines(occ)
		dirs := [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}}
		for d, dir := range dirs {
			var want uint64
			for sq := range 64 {
				if ref(occ, sq, dir[0], dir[1]) && ref(occ, sq, -dir[0], -dir[1]) {
					want |= 1 << uint(sq)
				}
			}
			if lines[d] != want {
				t.Fatalf("occupancy %#x, direction %d: full %#x, want %#x", occ, d, lines[d], want)
			}
		}
	}
}

// lopsidedPosition returns a set-up board with the given empties on which
// the side to move holds all but a few of the discs (1 to 6 for the
// opponent), so that wipeouts and many stable discs, the ends of the score
// scale, are common.
func lopsidedPosition(r *rand.Rand, empties int) bitboard.Position {
	var p, o uint64
	few := 1 + r.IntN(6)
	for i, x := range r.Perm(64)[empties:] { // the first empties squares stay empty
		if i < few {
			o |= 1 << uint(x)
		} else {
			p |= 1 << uint(x)
		}
	}
	return bitboard.Position{Player: p, Opponent: o, ToMove: bitboard.Black}
}

// TestSolverExtremeWindows checks the solver at every null window, the ones
// beyond the scores included, and full windows reaching past -64 and 64,
// against minimax on lopsided positions: the stability cutoff's mirror
// (our own stable discs) and the window's narrowing to [-64, 64] act there.
func TestSolverExtremeWindows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := newTestSearcher()
	count, extreme := 60, 0
	if testing.Short() {
		count = 20
	}
	for i := 0; i < count; i++ {
		pos := lopsidedPosition(r, 4+i%8)
		for _, side := range []bitboard.Position{pos, pos.Pass()} {
			p, o := side.Player, side.Opponent
			want := minimax(p, o)
			if want >= 56 || want <= -56 {
				extreme++
			}
			for alpha := -66; alpha <= 65; alpha++ {
				v := s.nws(p, o, alpha, side.Empties())
				if (v > alpha) != (want > alpha) || (v > alpha && v > want) || (v <= alpha && v < want) {
					t.Fatalf("%s: nws(alpha %d) = %d, exact %d", side, alpha, v, want)
				}
			}
			for _, w := range [][2]int{{-65, 65}, {-66, 66}, {63, 65}, {-65, -63}, {64, 65}, {-65, -64}, {want - 1, 99}, {-99, want + 1}} {
				v := s.pvsEnd(p, o, w[0], w[1], side.Empties())
				switch {
				case v <= w[0] && v < want, v >= w[1] && v > want, v > w[0] && v < w[1] && v != want:
					t.Fatalf("%s: pvsEnd(%d, %d) = %d, exact %d", side, w[0], w[1], v, want)
				}
			}
		}
	}
	if extreme == 0 {
		t.Fatal("no position scored 56 or more either way: the test misses the ends of the scale")
	}
}

// TestEvalOrderStates: the endgame order's evaluation states, derived from
// the parent's (a move or a pass), reused, or read from the board, always
// evaluate as the board does. Games are played from 20 empties down, each
// node's state set as valueEndMoves sets it, with jumps to unrelated
// positions (the parent's state stale) and repeated nodes mixed in.
func TestEvalOrderStates(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	s := &searcher{ev: eval.Default()}
	check := func(p, o uint64, empties int) {
		t.Helper()
		s.startEvalOrder(p, o, empties)
		st := &s.endEvals[empties]
		if st.P != p || st.O != o {
			t.Fatalf("state holds %x %x, want %x %x", st.P, st.O, p, o)
		}
		if got, want := s.ie.EvaluateState(st), s.ev.Evaluate(p, o); got != want {
			t.Fatalf("%d empties: state evaluates %d, board %d", empties, got, want)
		}
		// Each child valued from it as evalOrderValue does.
		for m := bitboard.Moves(p, o); m != 0; m &= m - 1 {
			x := bits.TrailingZeros64(m)
			f := flips(p, o, x)
			if got, want := s.evalOrderValue(empties, x, f), -int32(s.ev.Evaluate(o&^f, p|f|sqBit(x)))*int32(endOrderEvalWeight); got != want {
				t.Fatalf("%d empties, move %d: order value %d, want %d", empties, x, got, want)
			}
		}
	}
	passes := 0
	for game := 0; game < 60; game++ {
		pos, ok := randomPosition(r, 20)
		if !ok {
			continue
		}
		p, o := pos.Player, pos.Opponent
		for empties := 20; empties > 0; {
			check(p, o, empties)
			if r.IntN(8) == 0 {
				check(p, o, empties) // the same node again
			}
			m := bitboard.Moves(p, o)
			if m == 0 {
				if bitboard.Moves(o, p) == 0 {
					break
				}
				p, o = o, p
				passes++
				continue
			}
			if r.IntN(10) == 0 { // elsewhere: the next parent's state is stale
				if q, ok := randomPosition(r, empties); ok {
					p, o = q.Player, q.Opponent
					continue
				}
			}
			for n := r.IntN(bits.OnesCount64(m)); n > 0; n-- {
				m &= m - 1
			}
			x := bits.TrailingZeros64(m)
			f := flips(p, o, x)
			p, o = o&^f, p|f|sqBit(x)
			empties--
		}
	}
	if passes == 0 {
		t.Error("no pass played: the pass path is untested")
	}
}

// TestFewReplies checks fewReplies' bit trick against the rule it stands
// for: at most endQuickReplies replies, a corner counting double. Every
// reply set of up to two squares, and random larger ones.
func TestFewReplies(t *testing.T) {
	check := func(r uint64) {
		want := bits.OnesCount64(r)+bits.OnesCount64(r&cornerMask) <= endQuickReplies
		if got := fewReplies(r); got != want {
			t.Fatalf("fewReplies(%#x) = %v, want %v", r, got, want)
		}
	}
	check(0)
	for a := 0; a < 64; a++ {
		for b := a; b < 64; b++ {
			check(1<<a | 1<<b)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 10000; i++ {
		check(rng.Uint64() & rng.Uint64() & rng.Uint64())
	}
}

// TestSquareTerms checks the move orders' square terms against the board's
// geometry: corners (both coordinates on an edge) get the bonus, X squares
// (both one step in from an edge) the penalty, every other square nothing.
func TestSquareTerms(t *testing.T) {
	edge := func(i int) bool { return i == 0 || i == 7 }
	inner := func(i int) bool { return i == 1 || i == 6 }
	for _, c := range []struct {
		name      string
		t         [64]int32
		corner, x int
	}{
		{"endgame", squareOrderBonus, endOrderCornerMoveBonus, endOrderXMovePenalty},
		{"midgame", midSquareBonus, midOrderCornerMoveBonus, midOrderXMovePenalty},
	} {
		for sq := range 64 {
			r, f := sq/8, sq%8
			want := int32(0)
			switch {
			case edge(r) && edge(f):
				want = int32(c.corner)
			case inner(r) && inner(f):
				want = -int32(c.x)
			}
			if c.t[sq] != want {
				t.Errorf("%s order, %s: square term %d, want %d", c.name, bitboard.Square(sq), c.t[sq], want)
			}
		}
	}
}

// TestSteady: a midgame iteration's Steady is the mean of its score and
// the score one ply shallower, and the scores of successive iterations
// swing less around it; an exact result's Steady is its score.
func TestSteady(t *testing.T) {
	e := New(Options{HashMB: 4})
	pos := bitboard.Start()
	var infos []Info
	e.Search(context.Background(), pos, Limits{Depth: 10, EndgameEmpties: 1}, func(i Info) { infos = append(infos, i) })
	if len(infos) < 9 {
		t.Fatalf("%d iterations reported", len(infos))
	}
	for k, in := range infos[1:] {
		prev := infos[k]
		if in.Depth != prev.Depth+1 {
			continue
		}
		if in.BeforeDepth != prev.Depth || in.Before != prev.Score || in.Steady() != float64(in.Score+prev.Score)/2 {
			t.Errorf("depth %d: Before %d at %d, Steady %.1f; the iteration before scored %d at %d", in.Depth, in.Before, in.BeforeDepth, in.Steady(), prev.Score, prev.Depth)
		}
	}
	var swing, steadySwing float64
	for k := 2; k < len(infos); k++ {
		swing += math.Abs(float64(infos[k].Score - infos[k-1].Score))
		steadySwing += math.Abs(infos[k].Steady() - infos[k-1].Steady())
	}
	if steadySwing >= swing/2 {
		t.Errorf("depths 2-10 from the start: the scores swing by %.0f in all, Steady by %.1f", swing, steadySwing)
	}
	ffo, _, err := bitboard.ParseOBFLine("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
	if err != nil {
		t.Fatal(err)
	}
	solved := e.Search(context.Background(), ffo.Position, Limits{EndgameEmpties: AlwaysSolve}, nil)
	if !solved.Exact || solved.Steady() != float64(solved.Score) {
		t.Errorf("solve: exact %v, score %d, Steady %.1f", solved.Exact, solved.Score, solved.Steady())
	}
}
