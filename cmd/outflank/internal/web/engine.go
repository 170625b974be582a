package web

// This file is the one place where the web server meets the play layer:
// every search, book lookup and engine move goes through analyst, so that
// the rest of the package speaks only positions and JSON-ready results.

import (
	"context"
	"math"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
)

// Config is what the web command gives the server.
type Config struct {
	Searcher play.Searcher // used by one search at a time; the server sees to that
	Book     play.Book     // nil: no opening book
	Level    int           // the page's default level (midgame depth), 1..60
	Name     string        // engine name shown on the page
	Version  string
	Threads  int // search threads, shown beside the version

	// Token, when set, is asked of every request: as ?token= (which then
	// sets a cookie, so the page's own requests carry it), the cookie, or
	// an "Authorization: token ..." header. Set it when the server listens
	// beyond loopback.
	Token string
	// AllowHosts are host names (besides the listen address and localhost)
	// that requests may name in their Host header beyond loopback: the
	// names people use to reach this machine.
	AllowHosts []string
}

// analyst runs the searches the page asks for.
type analyst struct {
	s    play.Searcher
	book play.Book
	// mover plays the engine's moves and ponders after them: one player
	// across requests, so that what a ponder found (play.Player.Ponder) is
	// there for the move that follows a ponder hit. The server lets one
	// search use the engine at a time, so one player is enough.
	mover *play.Player
}

// moverFor returns the analyst's mover with st's settings.
func (a analyst) moverFor(st settings) *play.Player {
	a.mover.Settings = a.player(st).Settings
	return a.mover
}

// settings are the page's strength settings: a level (midgame depth, with
// an exact endgame from twice as many empties, as the shell's levels) or,
// when Time is set, a time per move.
type settings struct {
	Level int
	Time  time.Duration
}

// player is the play layer's player for one request's settings. A time
// per move leaves the depth open and caps the time instead.
func (a analyst) player(st settings) *play.Player {
	p := &play.Player{Engine: a.s, Book: a.book, Settings: play.Settings{Depth: st.Level}}
	if st.Time > 0 {
		p.Settings = play.Settings{Depth: 60, Time: st.Time}
	}
	return p
}

// allMoves is a MultiPV wide enough for every legal move (at most 33 in
// any reachable position, 64 to be safe with edited boards).
const allMoves = 64

// engineMove chooses the engine's move in pos as every front end does
// (play.Player.Go: book, forced move, search). The result's Best is legal.
func (a analyst) engineMove(ctx context.Context, pos bitboard.Position, st settings, report func(result)) result {
	m, info := a.moverFor(st).Go(ctx, pos, nil, reporter(report))
	if m.How == play.FromBook {
		r := result{Best: m.Square.String(), Score: int(math.Round(m.Eval)), PV: []string{m.Square.String()}, Book: true, Selectivity: 100}
		report(r)
		return r
	}
	r := fromInfo(info)
	r.Best = m.Square.String()
	return r
}

// hint scores every legal move of pos, reporting as the search deepens;
// each result carries every move's one value, book and search merged.
func (a analyst) hint(ctx context.Context, pos bitboard.Position, st settings, report func(result)) result {
	p := a.player(st)
	book := a.legalBook(p, pos)
	withValues := func(i search.Info) result {
		r := fromInfo(i)
		for _, v := range play.HintValues(book, i) {
			score := v.Score
			if v.FromBook {
				score = roundScore(score)
			}
			r.Values = append(r.Values, hintValue{Move: v.Move.String(), Score: score, Source: v.Source(), Book: v.FromBook, Exact: v.Exact})
		}
		return r
	}
	var progress func(search.Info)
	if report != nil {
		progress = func(i search.Info) { report(withValues(i)) }
	}
	return withValues(p.Hint(ctx, pos, allMoves, progress))
}

// solve finds the exact score of pos and a best line.
func (a analyst) solve(ctx context.Context, pos bitboard.Position, report func(result)) result {
	return fromInfo(a.player(settings{}).Solve(ctx, pos, false, reporter(report)))
}

// analyze scores every position of a game, the last first, calling
// report with each position's index and result.
// A position the book knows gets the book's value where the book's search
// was deeper (play.HintValues), marked Book, as the hints show it.
func (a analyst) analyze(ctx context.Context, positions []bitboard.Position, st settings, report func(int, result)) {
	p := a.player(st)
	p.Analyze(ctx, positions, func(i int, info search.Info) {
		r := fromInfo(info)
		if vs := play.HintValues(a.legalBook(p, positions[i]), info); len(vs) > 0 && vs[0].FromBook {
			r.Score, r.Book, r.Exact = int(math.Round(vs[0].Score)), true, false
			r.Depth, r.Selectivity = vs[0].Depth, vs[0].Selectivity
		}
		report(i, r)
	})
}

// legalBook is what the book knows of pos's legal board moves.
func (a analyst) legalBook(p *play.Player, pos bitboard.Position) []play.BookMove {
	var book []play.BookMove
	for _, b := range p.BookMoves(pos, allMoves) {
		if b.Move.IsBoard() && pos.IsLegal(b.Move) {
			book = append(book, b)
		}
	}
	return book
}

// bookMoves lists what the book knows of pos's moves (nil without a book).
func (a analyst) bookMoves(pos bitboard.Position) []bookMove {
	var out []bookMove
	for _, b := range a.player(settings{}).BookMoves(pos, allMoves) {
		if b.Move.IsBoard() && pos.IsLegal(b.Move) {
			out = append(out, bookMove{Move: b.Move.String(), Score: roundScore(b.Score), Games: b.Games, Basis: b.Basis()})
		}
	}
	return out
}

// newGame makes the engine forget what it learnt of earlier positions.
func (a analyst) newGame() { a.player(settings{}).NewGame() }

func reporter(report func(result)) func(search.Info) {
	if report == nil {
		return nil
	}
	return func(i search.Info) { report(fromInfo(i)) }
}

func fromInfo(i search.Info) result {
	r := result{Depth: i.Depth, Selectivity: i.Selectivity, Exact: i.Exact, WLD: i.WLD, Score: i.Score, Steady: i.Steady(),
		Nodes: i.Nodes, Millis: i.Time.Milliseconds()}
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
