package match

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// Asker asks one engine for its move in positions that need not follow
// each other, as a match asks during a game: each position is sent as a
// game of its own ("set game" with the position as the board it starts
// from), with the spec's limits and, for an engine on time, the GGF clock
// it would have at that point of a game (its time per move for each move
// it has left), so that an engine built before this harness answers
// without new code in it. The engine process lives from the first Move
// to Close; one that misbehaves is killed and started again by the next
// Move.
type Asker struct {
	cfg *Config
	w   *worker
}

// NewAsker prepares to ask the engine of sp; self is the path of this
// binary (for self specs), log receives every protocol line if not nil.
// Without a depth, time or clock in sp the engine gets moveTime a move.
func NewAsker(sp Spec, self string, moveTime time.Duration, log io.Writer) *Asker {
	cfg := &Config{Engines: [2]Spec{sp, sp}, Self: self, Time: moveTime, Log: log}
	return &Asker{cfg: cfg, w: &worker{cfg: cfg, logMu: &sync.Mutex{}}}
}

// Move returns the engine's move in pos (which must have a legal move)
// and how long the engine took. An engine that does not answer in time,
// answers something other than a legal move, or exits, gives a *Fault.
func (a *Asker) Move(ctx context.Context, pos bitboard.Position) (bitboard.Square, time.Duration, error) {
	if pos.Moves() == 0 {
		return bitboard.NoSquare, 0, fmt.Errorf("ask: position has no legal move")
	}
	w := a.w
	if w.clients[0] == nil {
		c, err := w.start(ctx, 0)
		if err != nil {
			return bitboard.NoSquare, 0, err
		}
		w.clients[0] = c
	}
	c := w.clients[0]
	g := &bitboard.Game{Start: pos}
	g.Props = []bitboard.Prop{{Key: "PC", Value: "outflank ask"}, {Key: "RE", Value: "?"}, {Key: "TY", Value: "8"}}
	w.setClocks(g, [2]int{0, 0})
	fail := func(err error) (bitboard.Square, time.Duration, error) {
		if _, ok := err.(*Fault); ok {
			c.Kill()
			w.clients[0] = nil
		}
		return bitboard.NoSquare, 0, err
	}
	if err := c.Sync(g, g.GGF); err != nil {
		return fail(err)
	}
	now := time.Now()
	lim := Limits{Hard: now.Add(a.cfg.moveTimeout(0))}
	if _, t := a.cfg.limits(0); t > 0 {
		lim.Soft = now.Add(t)
	}
	m, dt, err := c.Go(ctx, lim)
	if err != nil {
		return fail(err)
	}
	if err := checkAnswer(pos, m.Square); err != nil {
		return fail(err)
	}
	return m.Square, dt, nil
}

// Close ends the engine.
func (a *Asker) Close() { a.w.close() }
