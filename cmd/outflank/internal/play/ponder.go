package play

import (
	"context"

	"github.com/outflank-othello/outflank/bitboard"
)

// Ponder thinks on the opponent's time: it searches pos, the position
// after the engine's own answer with the opponent to move, within the
// settings' depth but with no time limit, until it is done or ctx is
// cancelled. Its result is not used; what it leaves in the searcher's
// transposition table is: every reply of the opponent is searched in its
// subtree, so whichever the opponent plays, the next search starts warm
// (Edax and Egaroucid ponder the same way, on all replies at once).
func (p *Player) Ponder(ctx context.Context, pos bitboard.Position) {
	if pos.GameOver() {
		return
	}
	lim := p.Settings.Limits()
	lim.Time, lim.Soft = 0, 0
	p.Engine.Search(ctx, pos, lim, nil)
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
