package web

// This file is the one place where the web server meets the engine: every
// search, book lookup and engine move goes through analyst, so that the
// rest of the package speaks only positions and JSON-ready results.

import (
	"context"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
)

// Config is what the web command gives the server.
type Config struct {
	Searcher engine.Searcher // used by one search at a time; the server sees to that
	Book     engine.Book     // nil: no opening book
	Level    int             // the page's default level (midgame depth), 1..60
	Name     string          // engine name shown on the page
	Version  string
}

// analyst runs the searches the page asks for.
type analyst struct {
	s    engine.Searcher
	book engine.Book
}

// settings are the page's strength settings: a level (midgame depth, with
// an exact endgame from twice as many empties, as the shell's levels) or,
// when Time is set, a time per move.
type settings struct {
	Level int
	Time  time.Duration
}

func (st settings) limits() engine.Limits {
	if st.Time > 0 {
		return engine.Limits{Time: st.Time}
	}
	return engine.Limits{Depth: st.Level, EndgameEmpties: engine.EndgameEmpties(st.Level)}
}

// allMoves is a MultiPV wide enough for every legal move (at most 33 in
// any reachable position, 64 to be safe with edited boards).
const allMoves = 64

// engineMove chooses the engine's move in pos: a book move when the book
// knows one with enough games, otherwise a search. The result's Best is
// legal (a pass when the side must pass; NoSquare when the game is over).
func (a analyst) engineMove(ctx context.Context, pos bitboard.Position, st settings, report func(result)) result {
	if b, ok := engine.BookChoice(a.book, pos); ok {
		r := result{Best: b.Move.String(), Score: int(b.Score), PV: []string{b.Move.String()}, Book: true}
		report(r)
		return r
	}
	return a.think(ctx, pos, engine.OnlyMove(pos, st.limits()), report)
}

// hint scores every legal move of pos, reporting as the search deepens.
func (a analyst) hint(ctx context.Context, pos bitboard.Position, st settings, report func(result)) result {
	lim := st.limits()
	lim.MultiPV = allMoves
	return a.think(ctx, pos, lim, report)
}

// solve finds the exact score of pos and a best line.
func (a analyst) solve(ctx context.Context, pos bitboard.Position, report func(result)) result {
	return a.think(ctx, pos, engine.Limits{EndgameEmpties: 64}, report)
}

// evaluate scores pos for the evaluation graph.
func (a analyst) evaluate(ctx context.Context, pos bitboard.Position, st settings) result {
	return a.think(ctx, pos, st.limits(), nil)
}

func (a analyst) think(ctx context.Context, pos bitboard.Position, lim engine.Limits, report func(result)) result {
	var r func(engine.Info)
	if report != nil {
		r = func(i engine.Info) { report(fromInfo(i)) }
	}
	return fromInfo(engine.Think(ctx, a.s, pos, lim, r))
}

// bookMoves lists what the book knows of pos's moves (nil without a book).
func (a analyst) bookMoves(pos bitboard.Position) []bookMove {
	if a.book == nil {
		return nil
	}
	var out []bookMove
	for _, b := range a.book.Moves(pos) {
		if b.Move.IsBoard() && pos.IsLegal(b.Move) {
			out = append(out, bookMove{Move: b.Move.String(), Score: roundScore(b.Score), Games: b.Games})
		}
	}
	return out
}

// newGame makes the engine forget what it learnt of earlier positions.
func (a analyst) newGame() { a.s.Clear() }

func fromInfo(i engine.Info) result {
	r := result{Depth: i.Depth, Exact: i.Exact, WLD: i.WLD, Score: i.Score, Nodes: i.Nodes,
		Millis: i.Time.Milliseconds()}
	if i.Best != bitboard.NoSquare {
		r.Best = i.Best.String()
	}
	for _, m := range i.PV {
		r.PV = append(r.PV, m.String())
	}
	for _, m := range i.Moves {
		r.Moves = append(r.Moves, moveScore{Move: m.Move.String(), Score: m.Score})
	}
	return r
}
