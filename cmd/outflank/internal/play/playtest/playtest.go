// Package playtest provides stand-in searchers for testing the play layer
// and the front ends without the real search: a one-ply greedy player and a
// searcher that thinks until it is stopped. Like the real search they
// answer a position whose side to move must pass with the pass. They are
// for tests only; the outflank binary never uses them.
package playtest

import (
	"context"
	"sort"
	"sync/atomic"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
)

// Greedy scores each move by the disc difference right after it (one ply)
// and reports one iteration. When every move ends the game its scores are
// final, and it says so (Exact), so that solves of such positions can be
// tested. It counts its searches and clears.
type Greedy struct {
	Searches, Clears atomic.Int64
}

// Search implements play.Searcher.
func (g *Greedy) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	g.Searches.Add(1)
	info := greedy(pos, lim)
	if report != nil {
		report(info)
	}
	return info
}

// Clear implements play.Searcher.
func (g *Greedy) Clear() { g.Clears.Add(1) }

func greedy(pos bitboard.Position, lim search.Limits) search.Info {
	if pos.MustPass() {
		// As the search does: the result after the pass, for the pass.
		in := greedy(pos.Pass(), lim)
		in.Score = -in.Score
		in.Best = bitboard.PassMove
		in.PV = append([]bitboard.Square{bitboard.PassMove}, in.PV...)
		in.Moves = []search.MoveScore{{Move: bitboard.PassMove, Score: in.Score}}
		return in
	}
	var moves []search.MoveScore
	exact := true
	for b := pos.Moves(); b != 0; b &= b - 1 {
		sq := bitboard.FirstSquare(b)
		next := pos.Play(sq)
		score := -next.DiscDiff()
		if next.GameOver() {
			score = -next.FinalScore()
		} else {
			exact = false
		}
		moves = append(moves, search.MoveScore{Move: sq, Score: score})
	}
	sort.SliceStable(moves, func(i, j int) bool { return moves[i].Score > moves[j].Score })
	info := search.Info{Depth: 1, Selectivity: 100, Exact: exact, Nodes: uint64(len(moves)) + 1}
	if len(moves) > 0 {
		info.Best, info.Score = moves[0].Move, moves[0].Score
		info.PV = []bitboard.Square{info.Best}
	}
	if lim.MultiPV > 1 {
		info.Moves = moves[:min(len(moves), lim.MultiPV)]
	}
	return info
}

// Slow reports a greedy result at "depth" 1, 2, 3, ... every Tick until its
// context is cancelled or its time limit (if any) is spent, as a search with
// no limit would for minutes. Started
// receives a value when each search begins (if not nil; it must be
// buffered or drained).
type Slow struct {
	Tick    time.Duration
	Started chan struct{}
}

// Search implements play.Searcher.
func (s *Slow) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	if s.Started != nil {
		s.Started <- struct{}{}
	}
	tick := s.Tick
	if tick == 0 {
		tick = 10 * time.Millisecond
	}
	info := greedy(pos, lim)
	if lim.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, lim.Time)
		defer cancel()
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for d := 1; ; d++ {
		info.Depth = d
		if report != nil {
			report(info)
		}
		select {
		case <-ctx.Done():
			return info
		case <-t.C:
		}
	}
}

// Clear implements play.Searcher.
func (s *Slow) Clear() {}

// Book is a fixed opening book: the moves listed for each position.
type Book map[bitboard.Position][]play.BookMove

// Moves implements play.Book.
func (b Book) Moves(pos bitboard.Position) []play.BookMove { return b[pos] }
