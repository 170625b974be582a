package search

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// resumeFixture searches a midgame position to depth 7 and returns it
// with the Resume of that search, as pondering leaves it.
func resumeFixture(t *testing.T) (*Engine, bitboard.Position, Resume) {
	t.Helper()
	pos, ok := randomPosition(rand.New(rand.NewPCG(77, 1)), 44)
	if !ok {
		t.Fatal("no position")
	}
	e := New(Options{HashMB: 16})
	var last []Info
	info := e.Search(context.Background(), pos, Limits{Depth: 7}, func(in Info) { last = append(last, in) })
	if info.Depth != 7 || len(last) != 7 {
		t.Fatalf("fixture: %+v after %d reports", info, len(last))
	}
	rs := Resume{Info: last[6], Spent: info.Time, Last: last[6].Time - last[5].Time, Prev: last[5].Time - last[4].Time}
	return e, pos, rs
}

// TestResumeGoesOn: a search with a Resume starts where it left off
// (its first report is the resumed result, the next one ply deeper) and,
// where the resumed depth is all that is asked, answers without a node.
func TestResumeGoesOn(t *testing.T) {
	e, pos, rs := resumeFixture(t)
	ctx := context.Background()
	var depths []int
	info := e.Search(ctx, pos, Limits{Depth: 9, Resume: &rs}, func(in Info) { depths = append(depths, in.Depth) })
	if info.Depth != 9 || len(depths) != 3 || depths[0] != 7 || depths[1] != 8 {
		t.Errorf("resumed at depth 7, searched to 9: reports at depths %v, result %+v", depths, info)
	}
	if !pos.IsLegal(info.Best) || info.PV[0] != info.Best {
		t.Errorf("result %+v", info)
	}
	info = e.Search(ctx, pos, Limits{Depth: 7, Resume: &rs}, nil)
	if info.Depth != 7 || info.Best != rs.Info.Best || info.Score != rs.Info.Score || info.Nodes != 0 {
		t.Errorf("resumed at the depth asked: %+v, want the resumed result with no node", info)
	}
}

// TestResumeIgnored: a Resume that does not fit the search (another
// selectivity, MultiPV, an illegal move) is ignored: the search starts
// over from depth 1.
func TestResumeIgnored(t *testing.T) {
	e, pos, rs := resumeFixture(t)
	other := rs
	other.Info.Best = bitboard.FirstSquare(^(pos.Player | pos.Opponent) &^ pos.Moves())
	for name, lim := range map[string]Limits{
		"selectivity": {Depth: 8, Selectivity: 95, Resume: &rs},
		"multipv":     {Depth: 8, MultiPV: 3, Resume: &rs},
		"illegal":     {Depth: 8, Resume: &other},
	} {
		var first int
		e.Search(context.Background(), pos, lim, func(in Info) {
			if first == 0 {
				first = in.Depth
			}
		})
		if first != 1 {
			t.Errorf("%s: first report at depth %d, want 1", name, first)
		}
	}
}

// TestResumeCredit: credited (on a clock) with pondering longer than its
// soft limit, a resumed search answers at once with the pondered result;
// without the credit it searches deeper in its own time.
func TestResumeCredit(t *testing.T) {
	e, pos, rs := resumeFixture(t)
	rs.Spent = max(rs.Spent, 2*time.Second)
	credited := rs
	credited.Credit = rs.Spent
	lim := Limits{Time: 10 * time.Second, Soft: time.Second, Resume: &credited}
	info := e.Search(context.Background(), pos, lim, nil)
	if info.Depth != rs.Info.Depth || info.Nodes != 0 || info.Time > 500*time.Millisecond {
		t.Errorf("credited %v against a soft limit of 1 s: depth %d, %d nodes, %v; want depth %d at once",
			rs.Spent, info.Depth, info.Nodes, info.Time, rs.Info.Depth)
	}
	lim = Limits{Time: 10 * time.Second, Soft: 300 * time.Millisecond, Resume: &rs}
	info = e.Search(context.Background(), pos, lim, nil)
	if info.Depth <= rs.Info.Depth || info.Nodes == 0 {
		t.Errorf("not credited: depth %d, %d nodes; want deeper than %d", info.Depth, info.Nodes, rs.Info.Depth)
	}
}

// TestResumeUsesOwnTime: resumed after a ponder so long that the next
// iteration is not predicted to finish within the move's own time, an
// uncredited search still gives that time to the next iteration, cut at
// its soft limit, rather than answering at once with the ponder's result;
// credited with the same ponder (its time counted as the move's), it
// answers at once.
func TestResumeUsesOwnTime(t *testing.T) {
	e, pos, rs := resumeFixture(t)
	rs.Spent, rs.Info.Time = time.Minute, time.Minute
	rs.Last, rs.Prev = 40*time.Second, 10*time.Second // the next iteration: minutes
	lim := Limits{Time: 20 * time.Second, Soft: 400 * time.Millisecond, Resume: &rs}
	start := time.Now()
	info := e.Search(context.Background(), pos, lim, nil)
	wall := time.Since(start)
	if info.Nodes == 0 || !pos.IsLegal(info.Best) {
		t.Errorf("resumed with its own 400 ms: %d nodes, best %v; want the next iteration searched", info.Nodes, info.Best)
	}
	if wall > 10*time.Second {
		t.Errorf("resumed with its own 400 ms: ran %v, want it cut near its soft limit, not its hard one", wall)
	}
	credited := rs
	credited.Credit = rs.Spent
	lim.Resume = &credited
	if info := e.Search(context.Background(), pos, lim, nil); info.Nodes != 0 || info.Depth != rs.Info.Depth {
		t.Errorf("credited: depth %d, %d nodes; want the resumed depth %d at once", info.Depth, info.Nodes, rs.Info.Depth)
	}
}

// TestResumeExact: an exact result is the answer at once.
func TestResumeExact(t *testing.T) {
	pos, ok := randomPosition(rand.New(rand.NewPCG(77, 2)), 12)
	if !ok {
		t.Fatal("no position")
	}
	e := New(Options{HashMB: 16})
	solved := e.Search(context.Background(), pos, Limits{EndgameEmpties: AlwaysSolve}, nil)
	if !solved.Exact {
		t.Fatalf("not solved: %+v", solved)
	}
	e.Clear()
	rs := Resume{Info: solved, Spent: solved.Time}
	info := e.Search(context.Background(), pos, Limits{EndgameEmpties: AlwaysSolve, Resume: &rs}, nil)
	if !info.Exact || info.Score != solved.Score || info.Best != solved.Best || info.Nodes != 0 {
		t.Errorf("resumed exact result: %+v, want %+v with no node", info, solved)
	}
	rs.Info.WLD = true // a WLD result does not answer an exact solve
	info = e.Search(context.Background(), pos, Limits{EndgameEmpties: AlwaysSolve, Resume: &rs}, nil)
	if !info.Exact || info.Nodes == 0 {
		t.Errorf("WLD result resumed for an exact solve: %+v", info)
	}
}
