package search

import (
	"context"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/tt"
)

// parSearcher returns a searcher of its own table whose split search has
// threads threads (threads <= 1: serial).
func parSearcher(threads int) *searcher {
	e := New(Options{HashMB: 1})
	s := &searcher{tt: e.tt, ev: e.eval, checkAt: pollInterval, stop: new(atomic.Bool)}
	if threads > 1 {
		s.par.pool = &workerPool{}
		s.par.pool.reset(s, threads)
	}
	return s
}

// TestParallelAgainstSerial: on random positions above the split threshold,
// the split search gives the serial solver's result for full and null
// windows: the same exact score inside the window, a bound on the same side
// of it otherwise.
func TestParallelAgainstSerial(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	n, empties := 12, parSplitMinEmpties+2
	if testing.Short() { // small enough for go test -race -short
		n, empties = 3, parSplitMinEmpties+1
	}
	for i := 0; i < n; {
		pos, ok := randomPosition(r, empties)
		if !ok {
			continue
		}
		i++
		p, o := pos.Player, pos.Opponent
		want := parSearcher(1).pvsEnd(p, o, -65, 65, empties)
		for _, threads := range []int{2, 4} {
			s := parSearcher(threads)
			if v := s.pvsEnd(p, o, -65, 65, empties); v != want {
				t.Errorf("%v: %d threads: %+d, want %+d", pos, threads, v, want)
			}
			for _, alpha := range []int{want - 3, want - 1, want, want + 1} {
				v := parSearcher(threads).nws(p, o, alpha, empties)
				if (v > alpha) != (want > alpha) || (v > alpha && v > want) || (v <= alpha && v < want) {
					t.Errorf("%v: %d threads: null window at %+d: %+d, score %+d", pos, threads, alpha, v, want)
				}
			}
			for _, w := range [][2]int{{want - 5, want + 5}, {want + 1, want + 9}, {want - 9, want - 1}} {
				v := parSearcher(threads).pvsEnd(p, o, w[0], w[1], empties)
				switch {
				case want > w[0] && want < w[1] && v != want,
					want <= w[0] && (v > w[0] || v < want),
					want >= w[1] && (v < w[1] || v > want):
					t.Errorf("%v: %d threads: window %v: %+d, score %+d", pos, threads, w, v, want)
				}
			}
		}
	}
}

// TestParallelFFO solves FFO positions with 1, 2, 4 and 8 threads: the same
// known score at every thread count, a best move having it, and a legal PV
// that ends the game with it.
func TestParallelFFO(t *testing.T) {
	es := readFFO(t, "fforum-1-19.obf")
	n := 19
	if testing.Short() {
		n = 4 // small enough for go test -race -short
	}
	for _, threads := range []int{1, 2, 4, 8} {
		eng := New(Options{HashMB: 16, Threads: threads})
		for i, e := range es[:n] {
			eng.Clear()
			info := eng.Search(context.Background(), e.Position, Limits{EndgameEmpties: AlwaysSolve}, nil)
			want := e.Scores[0].Score
			good := false
			for _, ms := range e.Scores {
				good = good || (ms.Score == want && ms.Move == info.Best)
			}
			if !info.Exact || info.Score != want || !good {
				t.Errorf("#%d, %d threads: %s %+d (exact %v), want %+d", i+1, threads, info.Best, info.Score, info.Exact, want)
			}
			_, line, err := bitboard.Replay(e.Position, info.PV)
			if err != nil {
				t.Errorf("#%d, %d threads: PV %v: %v", i+1, threads, info.PV, err)
				continue
			}
			end := line[len(line)-1]
			sc := end.FinalScore()
			if end.ToMove != e.Position.ToMove {
				sc = -sc
			}
			if !end.GameOver() || sc != want {
				t.Errorf("#%d, %d threads: PV %v ends with %+d (over %v), want %+d", i+1, threads, info.PV, sc, end.GameOver(), want)
			}
		}
	}
}

// TestParallelStop cancels a 4-thread solve far from its end, once 20 ms
// after the start and once 50 ms into the split solve (after the presearch's
// last iteration): the search must return promptly (every worker polls the
// stop within a few thousand nodes; the bound below is generous for a loaded
// machine) with a legal move, not claiming an exact result, and leave no
// worker running.
func TestParallelStop(t *testing.T) {
	es := readFFO(t, "fforum-40-59.obf")
	pos := es[10].Position // FFO #50: seconds of work even with 4 fast threads
	presearch := min(pos.Empties()-solvePresearchOffset, solvePresearchMaxDepth)
	eng := New(Options{HashMB: 16, Threads: 4})
	before := runtime.NumGoroutine()
	for _, inSolve := range []bool{false, true} {
		eng.Clear()
		ctx, cancel := context.WithCancel(context.Background())
		cancelled := make(chan time.Time, 1)
		cancelAfter := func(d time.Duration) {
			time.AfterFunc(d, func() {
				cancelled <- time.Now()
				cancel()
			})
		}
		var once sync.Once
		report := func(i Info) {
			if inSolve && i.Depth >= presearch && !i.Exact {
				once.Do(func() { cancelAfter(50 * time.Millisecond) })
			}
		}
		if !inSolve {
			cancelAfter(20 * time.Millisecond)
		}
		info := eng.Search(ctx, pos, Limits{EndgameEmpties: AlwaysSolve}, report)
		var took time.Duration
		select {
		case at := <-cancelled:
			took = time.Since(at)
		default:
			cancel()
			t.Fatalf("in the solve %v: the search ended before the stop; the test needs a harder position", inSolve)
		}
		t.Logf("in the solve %v: returned %v after the stop", inSolve, took)
		if took > 250*time.Millisecond {
			t.Errorf("in the solve %v: returned %v after the stop", inSolve, took)
		}
		if info.Exact || !pos.IsLegal(info.Best) {
			t.Errorf("in the solve %v: %+v", inSolve, info)
		}
	}
	// Workers end before Search returns; allow the stop goroutines a moment.
	for range 100 {
		if runtime.NumGoroutine() <= before {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines left running, %d before", g, before)
	}
}

// TestParallelWLDAndNodes: a win/loss/draw solve gives the same class at
// every thread count, and a node limit stops a split search (the main
// search's count only; workers stop with it) with a legal move, not exact.
func TestParallelWLDAndNodes(t *testing.T) {
	es := readFFO(t, "fforum-1-19.obf")
	for _, threads := range []int{1, 3} {
		eng := New(Options{HashMB: 8, Threads: threads})
		for i, e := range es[:3] {
			eng.Clear()
			info := eng.Search(context.Background(), e.Position, Limits{EndgameEmpties: AlwaysSolve, WLD: true}, nil)
			if want := wldClass(e.Scores[0].Score); !info.Exact || info.Score != want {
				t.Errorf("#%d, %d threads, WLD: %+d (exact %v), want %+d", i+1, threads, info.Score, info.Exact, want)
			}
		}
		eng.Clear()
		pos := readFFO(t, "fforum-40-59.obf")[0].Position
		info := eng.Search(context.Background(), pos, Limits{EndgameEmpties: AlwaysSolve, Nodes: 200000}, nil)
		if info.Exact || !pos.IsLegal(info.Best) {
			t.Errorf("%d threads, node limit: %+v", threads, info)
		}
	}
}

// TestParallelMidgame: without selectivity a midgame search to a fixed
// depth has one value (TestMidgameAgainstNegamax), which the split search
// must find at any thread count; with Multi-ProbCut (73%) it must still
// return a legal move and a selective result.
func TestParallelMidgame(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	n, depth := 6, parMidSplitMinDepth+3
	if testing.Short() {
		n, depth = 2, parMidSplitMinDepth+1
	}
	engs := map[int]*Engine{}
	for _, th := range []int{1, 2, 4} {
		engs[th] = New(Options{HashMB: 4, Threads: th})
	}
	for i := 0; i < n; {
		pos, ok := randomPosition(r, 36+r.IntN(10))
		if !ok || pos.Moves() == 0 {
			continue
		}
		i++
		var want int
		for _, th := range []int{1, 2, 4} {
			engs[th].Clear()
			info := engs[th].Search(context.Background(), pos, Limits{Depth: depth, Selectivity: 100}, nil)
			if th == 1 {
				want = info.Score
			} else if info.Score != want || !pos.IsLegal(info.Best) || info.Depth != depth {
				t.Errorf("%v, %d threads: %s %+d at depth %d, want %+d at depth %d", pos, th, info.Best, info.Score, info.Depth, want, depth)
			}
			engs[th].Clear()
			info = engs[th].Search(context.Background(), pos, Limits{Depth: depth, Selectivity: 73}, nil)
			if !pos.IsLegal(info.Best) || info.Selectivity != 73 || info.Exact {
				t.Errorf("%v, %d threads, 73%%: %+v", pos, th, info)
			}
		}
	}
}

// TestEndTableMove: the null-window endgame node (nwsDeep, serial or split)
// searches a table move first only from a proven entry or a deep heuristic
// one. A split node that took any entry's move (the shallow ordering
// searches' moves, taken first) cost FFO #59 1.36 billion nodes on two
// threads against 53 million.
func TestEndTableMove(t *testing.T) {
	deep := uint8(endTTHeuristicMoveDepth * tt.DepthUnit)
	for _, c := range []struct {
		name string
		e    tt.Entry
		want int
	}{
		{"no move", tt.Entry{Move: tt.NoMove, Proven: true, Depth: 20}, -1},
		{"proven", tt.Entry{Move: 19, Proven: true, Depth: 7}, 19},
		{"heuristic, deep", tt.Entry{Move: 37, Depth: deep}, 37},
		{"heuristic, deeper", tt.Entry{Move: 37, Depth: deep + tt.DepthUnit}, 37},
		{"heuristic, a ply short", tt.Entry{Move: 37, Depth: deep - tt.DepthUnit}, -1},
		{"heuristic, shallow", tt.Entry{Move: 37, Depth: 2 * tt.DepthUnit}, -1},
	} {
		if got := endTableMove(c.e); got != c.want {
			t.Errorf("%s: endTableMove = %d, want %d", c.name, got, c.want)
		}
	}
}
