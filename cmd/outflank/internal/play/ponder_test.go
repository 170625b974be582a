package play_test

import (
	"context"
	"math/bits"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
)

// ponderRecorder is a searcher that notes the position and limits of each
// search and reports three iterations, going on from a Resume as the
// search does; its PV is the first legal move and the first legal reply.
type ponderRecorder struct{ calls []ponderCall }

type ponderCall struct {
	pos bitboard.Position
	lim search.Limits
}

func (r *ponderRecorder) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	r.calls = append(r.calls, ponderCall{pos, lim})
	best := bitboard.FirstSquare(pos.Moves())
	pv := []bitboard.Square{best}
	if next := pos.Play(best); next.Moves() != 0 {
		pv = append(pv, bitboard.FirstSquare(next.Moves()))
	}
	first := 1
	if lim.Resume != nil {
		first = lim.Resume.Info.Depth + 1
	}
	var info search.Info
	for d := first; d < first+3; d++ {
		info = search.Info{Depth: d, Selectivity: 73, Score: d, Best: best, PV: pv, Nodes: 100 * uint64(d-first+1), Time: time.Duration(d-first+1) * time.Millisecond}
		report(info)
	}
	return info
}

func (*ponderRecorder) Clear() {}

func (r *ponderRecorder) last() ponderCall { return r.calls[len(r.calls)-1] }

// TestPonderExpectedReply: Ponder searches the position after the reply
// the answer's PV expects, with no time limit, and a Ponder taken up
// again goes on from what the last one found; Go on that position (a hit)
// goes on from it too, crediting time on a clock only; Go on another
// position (a miss) starts over.
func TestPonderExpectedReply(t *testing.T) {
	ctx := context.Background()
	clock := &play.Clock{Left: time.Minute}
	for _, hit := range []bool{true, false} {
		for _, withClock := range []bool{true, false} {
			rec := &ponderRecorder{}
			p := &play.Player{Engine: rec}
			pos := bitboard.Start()
			m, info := p.Go(ctx, pos, nil, nil)
			after := pos.Play(m.Square)
			want := after.Play(info.PV[1])
			p.Ponder(ctx, after)
			if len(rec.calls) != 2 {
				t.Fatalf("%d searches for a move and a ponder; want 2 (the PV says what to expect)", len(rec.calls))
			}
			if c := rec.last(); c.pos != want || c.lim.Resume != nil || c.lim.Time != 0 || c.lim.Soft != 0 {
				t.Fatalf("ponder searched %v with %+v; want the position after the expected reply %v, no time limit, no resume",
					c.pos, c.lim, info.PV[1])
			}
			p.Ponder(ctx, after) // stopped by a command, taken up again
			if c := rec.last(); c.pos != want || c.lim.Resume == nil || c.lim.Resume.Info.Depth != 3 {
				t.Fatalf("ponder taken up again: %v with %+v; want it to go on from depth 3", c.pos, c.lim.Resume)
			}
			next := want
			if !hit {
				next = after.Play(lastSquare(after.Moves()))
			}
			var c *play.Clock
			if withClock {
				c = clock
			}
			m, info = p.Go(ctx, next, c, nil)
			lim := rec.last().lim
			switch {
			case !next.IsLegal(m.Square):
				t.Fatalf("hit %v: illegal move %v", hit, m.Square)
			case hit && (lim.Resume == nil || lim.Resume.Info.Depth != 6 || lim.Resume.Credit > lim.Resume.Spent || (!withClock && lim.Resume.Credit != 0)):
				t.Errorf("hit, clock %v: the search got Resume %+v; want depth 6, no credit without a clock", withClock, lim.Resume)
			case hit && (!m.Ponder.Hit || m.Ponder.Depth != 6 || info.Depth != 9 || m.Ponder.Nodes != 600):
				t.Errorf("hit: %+v, result depth %d", m.Ponder, info.Depth)
			case !hit && (lim.Resume != nil || !m.Ponder.Pondered || m.Ponder.Hit || info.Depth != 3):
				t.Errorf("miss: Resume %+v, %+v, result depth %d; want a search from scratch", lim.Resume, m.Ponder, info.Depth)
			}
			// The ponder is spent: the next Go did not ponder.
			if m, _ := p.Go(ctx, next, c, nil); m.Ponder.Pondered || rec.last().lim.Resume != nil {
				t.Errorf("a second Go reuses the ponder: %+v", m.Ponder)
			}
		}
	}
}

// TestPonderWithoutPV: after a move whose result has no second move (a
// book move, a player that did not search), Ponder expects the reply a
// shallow search prefers; after NewGame nothing pondered is used.
func TestPonderWithoutPV(t *testing.T) {
	ctx := context.Background()
	rec := &ponderRecorder{}
	p := &play.Player{Engine: rec}
	after := bitboard.Start().Play(sq("f5"))
	p.Ponder(ctx, after)
	if len(rec.calls) != 2 {
		t.Fatalf("%d searches, want a shallow one and the ponder", len(rec.calls))
	}
	shallow, ponder := rec.calls[0], rec.calls[1]
	reply := bitboard.FirstSquare(after.Moves()) // the ponderRecorder's choice
	if shallow.pos != after || shallow.lim.Depth > 8 || shallow.lim.Time == 0 || ponder.pos != after.Play(reply) {
		t.Errorf("shallow search %+v of %v, then ponder of %v; want the ponder after %v", shallow.lim, shallow.pos, ponder.pos, reply)
	}
	p.Ponder(ctx, after)
	if len(rec.calls) != 3 || rec.last().lim.Resume == nil {
		t.Errorf("taken up again: %d searches, Resume %+v; want one more search going on from the first", len(rec.calls), rec.last().lim.Resume)
	}
	p.NewGame()
	if m, _ := p.Go(ctx, after.Play(reply), nil, nil); m.Ponder.Pondered || rec.last().lim.Resume != nil {
		t.Errorf("after NewGame: %+v", m.Ponder)
	}
}

// TestPonderHitAnswersAtOnce: with the real search, a ponder that
// reached the depth asked makes the hit's answer that result, with no
// node searched and the pondered depth reported; a miss searches as a
// player that never pondered does.
func TestPonderHitAnswersAtOnce(t *testing.T) {
	ctx := context.Background()
	pos := bitboard.Start().Play(sq("f5")).Play(sq("d6")).Play(sq("c3")).Play(sq("d3"))
	newPlayer := func() *play.Player {
		return &play.Player{Engine: search.New(search.Options{HashMB: 16}), Settings: play.Settings{Depth: 8, NoBook: true}}
	}
	p := newPlayer()
	m, info := p.Go(ctx, pos, nil, nil)
	if len(info.PV) < 2 {
		t.Fatalf("PV %v", info.PV)
	}
	after := pos.Play(m.Square)
	next := after.Play(info.PV[1])
	p.Ponder(ctx, after) // depth 8 with no time limit: it ends by itself
	var first int
	m, info = p.Go(ctx, next, nil, func(in search.Info) {
		if first == 0 {
			first = in.Depth
		}
	})
	if !m.Ponder.Hit || m.Ponder.Depth != 8 || m.Ponder.Nodes == 0 || info.Depth != 8 || first != 8 || info.Nodes != 0 || !next.IsLegal(m.Square) {
		t.Errorf("hit after a ponder to depth 8: %+v, result depth %d (first report %d), %d nodes, move %v; want depth 8 at once",
			m.Ponder, info.Depth, first, info.Nodes, m.Square)
	}
	// A miss: the same search as a player that did not ponder.
	after = next.Play(m.Square)
	expected := info.PV[1]
	p.Ponder(ctx, after)
	reply := bitboard.FirstSquare(after.Moves())
	if reply == expected {
		reply = lastSquare(after.Moves())
	}
	if reply == expected {
		t.Fatal("no reply other than the expected one")
	}
	miss := after.Play(reply)
	m, info = p.Go(ctx, miss, nil, nil)
	_, fresh := newPlayer().Go(ctx, miss, nil, nil)
	if m.Ponder.Hit || !m.Ponder.Pondered || info.Depth != 8 || info.Nodes == 0 || fresh.Depth != 8 || !miss.IsLegal(m.Square) {
		t.Errorf("miss: %+v, depth %d, %d nodes (without pondering: depth %d); want a search to depth 8", m.Ponder, info.Depth, info.Nodes, fresh.Depth)
	}
}

func lastSquare(b uint64) bitboard.Square { return bitboard.Square(63 - bits.LeadingZeros64(b)) }
