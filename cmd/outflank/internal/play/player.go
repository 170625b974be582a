package play

import (
	"context"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// Searcher is what play needs of the engine; *search.Engine is one.
type Searcher interface {
	// Search analyses pos within lim, calling report as results improve
	// (after each iteration), and returns the final result. Cancelling ctx
	// makes it return promptly with the best result so far. A position
	// whose side to move must pass is searched after the pass and the
	// result given for the pass (Best PassMove); a finished game has Best
	// NoSquare and its final score.
	Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info
	// Clear forgets what earlier searches learnt (a new game).
	Clear()
}

// Factory builds a Searcher; the shell uses it to apply new threads or
// hash settings.
type Factory func(search.Options) Searcher

// Settings are a player's strength and habits, which a front end sets from
// its commands ("set depth", "level", --time, "book off").
type Settings struct {
	Depth   int           // midgame depth in plies (0: DefaultDepth)
	Endgame int           // solve exactly at or below this many empties (0: EndgameEmpties(Depth); search.AlwaysSolve: always)
	Time    time.Duration // cap on the time of any move or hint, whatever the clock says (0: none)
	NoBook  bool          // Go searches even where the book knows the position
	// Selectivity is the midgame search's Multi-ProbCut confidence in
	// percent, one of search.ValidSelectivity's levels (100: no selective
	// cuts; 0: search.DefaultSelectivity).
	Selectivity int
	// Contempt is the value, in discs from Black's side, that the player
	// gives a draw (NBoard's "set contempt": +100 for its "Draws to
	// Black", -100 for "Draws to White"); 0 scores a draw as a draw. Go
	// honours it where a solve proves moves drawn (see DrawValue); the
	// search itself has no draw bias.
	Contempt float64
}

// DrawValue is what a draw is worth to the side to move of pos under the
// contempt, in discs.
func (s Settings) DrawValue(pos bitboard.Position) float64 {
	if pos.ToMove == bitboard.White {
		return -s.Contempt
	}
	return s.Contempt
}

// DefaultDepth is the midgame depth of Settings that leave it 0.
const DefaultDepth = 12

// EndgameEmpties is the number of empties at which a player set to a
// midgame depth (a person's level, a GUI's depth) solves exactly: twice the
// depth, as strength levels of other engines do, capped where a solve could
// take minutes.
func EndgameEmpties(depth int) int {
	return max(1, min(2*depth, 24))
}

// Limits are the search limits of the settings: depth, endgame, time cap.
func (s Settings) Limits() search.Limits {
	d := s.Depth
	if d <= 0 {
		d = DefaultDepth
	}
	eg := s.Endgame
	if eg <= 0 {
		eg = EndgameEmpties(d)
	}
	return search.Limits{Depth: d, EndgameEmpties: eg, Time: s.Time, Selectivity: s.Selectivity}
}

// Player chooses moves for a front end: a searcher, an optional book and
// the settings. Its methods run one at a time (the searcher is not safe
// for concurrent searches); a front end that searches while it reads input
// runs them through Input.
type Player struct {
	Engine   Searcher
	Book     Book // nil: no book
	Settings Settings

	expect   expectation // the reply the last answer expects (Ponder)
	pondered *pondered   // what pondering found, until the next Go
}

// How says where a move came from.
type How int

const (
	Searched How = iota // a search chose it
	GameOver            // the game is over: there is no move (Square NoSquare)
	FromBook            // the opening book (Move.Book holds what it knows)
	Forced              // the only legal move, or a pass: a shallow search only evaluated it
)

// Move is the move Go chose.
type Move struct {
	Square bitboard.Square // a legal move: a board move, PassMove, or NoSquare when the game is over
	How    How
	Eval   float64  // expected final disc difference for the side that moves (the book's, or the search's score)
	Book   BookMove // when How is FromBook
	Time   time.Duration
	Ponder PonderResult // whether the engine pondered, and on this position
}

// Clock is the time a player has for the rest of a game.
type Clock = search.Clock

// Go chooses the move to play in pos with clock (nil: no clock, the
// settings' depth and time cap decide),
// calling report with the search's progress. The move is always legal.
// The returned Info is the search's result (zero for a book move; for a
// finished game, its final score with Exact set).
func (p *Player) Go(ctx context.Context, pos bitboard.Position, clock *Clock, report func(search.Info)) (Move, search.Info) {
	start := time.Now()
	pd, pondered := p.takePondered(pos)
	p.expect = expectation{}
	if pos.GameOver() {
		info := search.Info{Selectivity: 100, Exact: true, Score: pos.FinalScore(), Best: bitboard.NoSquare}
		return Move{Square: bitboard.NoSquare, How: GameOver, Eval: float64(info.Score)}, info
	}
	if !p.Settings.NoBook {
		if b, ok := BookChoice(p.Book, pos); ok {
			return Move{Square: b.Move, How: FromBook, Eval: b.Score, Book: b, Time: time.Since(start)}, search.Info{}
		}
	}
	lim := p.Settings.Limits()
	if clock != nil {
		c := *clock
		// An engine that pondered before this move will ponder after it.
		c.Ponder = c.Ponder || pondered
		soft, hard := c.Limits(pos.Empties())
		if lim.Time == 0 || hard < lim.Time {
			lim.Time = hard
		}
		lim.Soft = min(soft, lim.Time)
	}
	how := Searched
	if forced(pos) {
		how = Forced
		lim = forcedLimits(lim)
	}
	pr := PonderResult{Pondered: pondered, Hit: pd != nil}
	if pd != nil {
		pr.Time, pr.Nodes = pd.resume.Spent, pd.nodes
		if pd.ok {
			pr.Depth, pr.Selectivity, pr.Exact = pd.resume.Info.Depth, pd.resume.Info.Selectivity, pd.resume.Info.Exact
			// A ponder hit: go on from the ponder, with the move's own
			// time on top of the time pondered, less its credit on a
			// clock (ponderCreditPercent).
			rs := pd.resume
			if clock != nil {
				rs.Credit = rs.Spent * ponderCreditPercent / 100
			}
			lim.Resume = &rs
		}
	}
	info := Think(ctx, p.Engine, pos, lim, report)
	m := Move{Square: info.Best, How: how, Eval: float64(info.Score), Time: time.Since(start), Ponder: pr}
	if draw := p.Settings.DrawValue(pos); draw != 0 && how == Searched && info.Exact && !info.WLD {
		if info.Score == 0 {
			m.Eval = draw // the best move draws
		}
		if contemptMatters(info.Score, draw) {
			// Under contempt a proven draw is worth draw, not 0: a second
			// solve, with a warm table, scores every move (MultiPV) so that
			// the choice can weigh them; if it cannot finish in the time
			// left, the plain solve's move stands.
			all := lim
			all.MultiPV, all.Soft = bitboard.Count(pos.Moves()), 0
			if lim.Time > 0 {
				all.Time = lim.Time - time.Since(start) // 0 would mean no limit
			}
			if lim.Time == 0 || all.Time > 0 {
				if scored := Think(ctx, p.Engine, pos, all, nil); scored.Exact && ctx.Err() == nil {
					best, v := withContempt(scored, draw)
					if best.Move != info.Best {
						info.Best, info.Score, info.PV = best.Move, best.Score, []bitboard.Square{best.Move}
					}
					m.Square, m.Eval = best.Move, v
				}
			}
		}
		m.Time = time.Since(start)
	}
	p.expectReply(pos, m.Square, info)
	return m, info
}

// contemptMatters reports whether a move proven to draw, worth draw to
// the side to move, could be chosen instead of the best move, worth score:
// a draw better than a small win, or a small loss better than the draw.
func contemptMatters(score int, draw float64) bool {
	return (draw > 0 && score > 0 && float64(score) < draw) || (draw < 0 && score == 0)
}

// withContempt picks the best move of an exact result whose drawn moves
// are worth draw instead of 0, with its value; the search's order breaks
// ties.
func withContempt(info search.Info, draw float64) (search.MoveScore, float64) {
	value := func(score int) float64 {
		if score == 0 {
			return draw
		}
		return float64(score)
	}
	best := search.MoveScore{Move: info.Best, Score: info.Score}
	v := value(info.Score)
	for _, ms := range info.Moves {
		if w := value(ms.Score); w > v {
			best, v = ms, w
		}
	}
	return best, v
}

// BookMoves lists what the book knows of pos, best first, up to n moves
// (whatever Settings.NoBook says: a hint shows the book).
func (p *Player) BookMoves(pos bitboard.Position, n int) []BookMove {
	if p.Book == nil {
		return nil
	}
	book := p.Book.Moves(pos)
	return book[:min(len(book), max(n, 0))]
}

// Hint searches pos for its n best moves (n > 1: each with its own score,
// in Info.Moves) within the settings' limits, reporting as the search
// deepens.
func (p *Player) Hint(ctx context.Context, pos bitboard.Position, n int, report func(search.Info)) search.Info {
	lim := p.Settings.Limits()
	lim.MultiPV = n
	return Think(ctx, p.Engine, pos, lim, report)
}

// Solve searches pos to the end of the game (win/loss/draw only with wld)
// until it is solved or ctx is cancelled; the result is Exact unless the
// search was stopped.
func (p *Player) Solve(ctx context.Context, pos bitboard.Position, wld bool, report func(search.Info)) search.Info {
	lim := search.Limits{EndgameEmpties: search.AlwaysSolve, WLD: wld}
	return Think(ctx, p.Engine, pos, lim, report)
}

// Analyze evaluates every position of a game within the settings' limits,
// the last first (so that the endgame's exact results help the earlier
// positions through the transposition table), calling report with each
// position's index and result. It stops when ctx is cancelled.
func (p *Player) Analyze(ctx context.Context, positions []bitboard.Position, report func(i int, info search.Info)) {
	lim := p.Settings.Limits()
	for i := len(positions) - 1; i >= 0; i-- {
		info := Think(ctx, p.Engine, positions[i], lim, nil)
		if ctx.Err() != nil {
			return
		}
		report(i, info)
	}
}

// NewGame tells the searcher that what it learnt may mislead.
func (p *Player) NewGame() {
	p.Engine.Clear()
	p.expect, p.pondered = expectation{}, nil
}

// forced reports whether pos has a single legal move or must pass.
func forced(pos bitboard.Position) bool {
	return bitboard.Count(pos.Moves()) <= 1
}

// forcedLimits makes lim cheap for a forced move: a shallow search that
// gives the move an evaluation is enough, and the clock is saved for later
// moves.
func forcedLimits(lim search.Limits) search.Limits {
	const depth, empties = 4, 12
	if lim.Depth == 0 || lim.Depth > depth {
		lim.Depth = depth
	}
	if lim.EndgameEmpties == 0 || lim.EndgameEmpties > empties {
		lim.EndgameEmpties = empties
	}
	lim.Soft = 0
	return lim
}
