package play

import (
	"context"
	"fmt"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// Ponder thinks on the opponent's time: pos is the position after the
// engine's own answer, with the opponent to move. It searches the position
// the engine expects to answer next, after the reply its answer's
// principal variation expects (else the reply a shallow search of pos
// likes best; after a pass if the opponent must pass), within the
// settings' depth but with no time limit, until it is done or ctx is
// cancelled. What it finds is kept: a Ponder of the same position later
// (after a command stopped this one) goes on from it, and so does Go when
// the opponent plays the expected reply (a ponder hit: Move.Ponder), the
// move's own time coming on top of the time pondered
// (ponderCreditPercent). On a miss the search starts over, its table
// holding the pondered subtree.
//
// Where there is no position to expect (the game ends, the engine would
// have to pass, the book would answer), it searches pos itself, every
// reply of the opponent in its subtree, leaving only table entries.
func (p *Player) Ponder(ctx context.Context, pos bitboard.Position) {
	if pos.GameOver() {
		return
	}
	lim := p.Settings.Limits()
	lim.Time, lim.Soft = 0, 0
	next, ok := p.expectedReply(ctx, pos)
	if !ok {
		if ctx.Err() == nil {
			p.Engine.Search(ctx, pos, lim, nil)
		}
		return
	}
	pd := p.pondered
	if pd == nil || pd.pos != next {
		pd = &pondered{pos: next}
		p.pondered = pd
	}
	if pd.ok && pd.resume.Info.Exact {
		return // solved: nothing more to find
	}
	if pd.ok {
		rs := pd.resume
		lim.Resume = &rs
	}
	base, baseNodes, empties := pd.resume.Spent, pd.nodes, next.Empties()
	start := time.Now()
	info := Think(ctx, p.Engine, next, lim, func(in search.Info) {
		if !resumable(in, empties) || (pd.ok && !in.Exact && in.Depth <= pd.resume.Info.Depth) {
			return // not a result to go on from, or the one resumed
		}
		rs := &pd.resume
		t := base + in.Time
		rs.Prev, rs.Last = rs.Last, t-rs.Info.Time
		if !pd.ok {
			rs.Prev, rs.Last = 0, t
		}
		in.Time, in.Nodes = t, baseNodes+in.Nodes
		rs.Info, pd.ok = in, true
	})
	pd.resume.Spent = base + time.Since(start)
	pd.nodes = baseNodes + info.Nodes
}

// pondered is what pondering found about the position the engine expects
// to answer next.
type pondered struct {
	pos    bitboard.Position
	resume search.Resume // Info: the deepest result so far (when ok); Spent: all the time pondered
	ok     bool
	nodes  uint64 // all the nodes pondered
}

// expectation is the reply the engine expects to its last answer: the
// second move of the answer's principal variation.
type expectation struct {
	after bitboard.Position // the position after the answer
	reply bitboard.Square
	ok    bool
}

// ponderCreditPercent is the share of the time pondered that a ponder
// hit on a clock counts as spent on the move (search.Resume.Credit). At
// 100 a ponder that reached the move's budget is answered at once and the
// clock keeps the time; but at 10 s a game (one thread each) the
// pondering engine then used 4.6 s of its clock a game against its
// opponent's 9.0 s, the time saved left unused at the end: 53.7% ± 10.4
// over 54 XOT games. At 0 every hit gets the move's whole time on top of
// the ponder, and the time pondered (about the opponent's, with 89% hits)
// deepens the search: 60.5% ± 5.2 over 200 games
// (bench/journal/2026-12-03-pondering.md).
const ponderCreditPercent = 0

// The shallow search that picks the reply to expect when the answer's
// principal variation has none (a book move): a few plies, which take
// milliseconds.
const (
	replyDepth = 6
	replyTime  = 200 * time.Millisecond
)

// expectedReply returns the position the engine expects to answer after
// pos, where the opponent is to move (Ponder). ok is false where there is
// none worth pondering: the game ends there, the engine must pass there
// (the opponent moves again), the book answers it, or ctx was cancelled.
func (p *Player) expectedReply(ctx context.Context, pos bitboard.Position) (next bitboard.Position, ok bool) {
	switch e := p.expect; {
	case pos.MustPass():
		next = pos.Pass()
	case e.ok && e.after == pos && e.reply != bitboard.PassMove && pos.IsLegal(e.reply):
		next = pos.Play(e.reply)
	default:
		lim := search.Limits{Depth: replyDepth, EndgameEmpties: replyDepth, Selectivity: p.Settings.Selectivity, Time: replyTime}
		info := Think(ctx, p.Engine, pos, lim, nil)
		if ctx.Err() != nil || !pos.IsLegal(info.Best) || info.Best == bitboard.PassMove {
			return next, false
		}
		// Kept, so that a ponder taken up again expects the same reply.
		p.expect = expectation{after: pos, reply: info.Best, ok: true}
		next = pos.Play(info.Best)
	}
	if next.GameOver() || next.MustPass() {
		return next, false
	}
	if !p.Settings.NoBook {
		if _, inBook := BookChoice(p.Book, next); inBook {
			return next, false
		}
	}
	return next, true
}

// expectReply notes the reply that the result info of a search of pos
// expects to the move played, for Ponder.
func (p *Player) expectReply(pos bitboard.Position, move bitboard.Square, info search.Info) {
	p.expect = expectation{}
	after, err := pos.PlayMove(move)
	if err != nil || len(info.PV) < 2 || info.PV[0] != move || !after.IsLegal(info.PV[1]) {
		return
	}
	p.expect = expectation{after: after, reply: info.PV[1], ok: true}
}

// takePondered returns, for a move to choose in pos, what pondering
// found about pos when it was the position pondered (a hit), and forgets
// it either way: the game has moved on. pondered reports that the
// engine had pondered at all since its last move.
func (p *Player) takePondered(pos bitboard.Position) (pd *pondered, pondered bool) {
	pd, p.pondered = p.pondered, nil
	if pd == nil {
		return nil, false
	}
	if pd.pos != pos {
		return nil, true
	}
	return pd, true
}

// resumable reports whether a ponder's result in for a position with
// empties empty squares is one that a search can go on from: a midgame
// iteration, or an exact solve (search.Resume).
func resumable(in search.Info, empties int) bool {
	if in.Exact {
		return !in.WLD
	}
	return in.Depth > 0 && in.Depth < empties && in.Best.IsBoard()
}

// PonderResult says what pondering did for a move (Move.Ponder).
type PonderResult struct {
	Pondered bool // the engine pondered since its last move
	// Hit: it pondered this very position (the opponent played the reply
	// it expected). Depth, Selectivity and Exact are those of the deepest
	// result it had found (Depth 0: none), Time and Nodes how long and
	// how many nodes it pondered (the move's own search counts apart).
	Hit         bool
	Depth       int
	Selectivity int
	Exact       bool
	Time        time.Duration
	Nodes       uint64
}

// PonderWhileIdle ponders pos (Player.Ponder) until a line of input
// arrives, which stops it at once and is kept for Next, or the input ends
// (a GUI that has gone away gets no more thinking): a front end calls it
// before it waits for its next command, so that a ping, a quit or the
// opponent's move is read as promptly as when idle. A Ctrl-C stops it
// too, and the next read answers it as when idle (the end of input).
func (in *Input) PonderWhileIdle(p *Player, pos bitboard.Position) {
	if in.eof || len(in.pending) > 0 {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Ponder(ctx, pos)
	}()
	select {
	case l, ok := <-in.lines:
		if !ok {
			in.eof = true
		} else {
			in.pending, in.kept = append(in.pending, l), lineCost(l)
		}
	case <-in.interrupt:
		in.interrupted = true // Next answers it as when idle
	case <-done:
	}
	cancel()
	<-done
}

// String says it in a few words, as front ends show it: "ponder hit:
// depth 14@73%, 5123456 nodes in 1.20 s", "ponder miss", "" when the
// engine did not ponder.
func (pr PonderResult) String() string {
	var depth string
	switch {
	case !pr.Pondered:
		return ""
	case !pr.Hit:
		return "ponder miss"
	case pr.Exact:
		depth = "solved"
	case pr.Depth == 0:
		depth = "no iteration"
	case pr.Selectivity > 0 && pr.Selectivity < 100:
		depth = fmt.Sprintf("depth %d@%d%%", pr.Depth, pr.Selectivity)
	default:
		depth = fmt.Sprintf("depth %d", pr.Depth)
	}
	return fmt.Sprintf("ponder hit: %s, %d nodes in %.2f s", depth, pr.Nodes, pr.Time.Seconds())
}
