package search

import "time"

// The time manager: every decision about time is made here. A front end
// turns its clock (GGF, GTP) into a Clock and asks it for the limits of a
// move (Clock.Limits); the root of the search asks, between iterations,
// whether another one fits (timeManager).

// Clock is the time a player has for the rest of a game, as GGF and GTP
// clocks give it.
type Clock struct {
	Left      time.Duration // on the clock now (negative when over time)
	Increment time.Duration // gained with each move
	// Moves is the number of moves to make within Left, as in a GTP
	// byo-yomi period (0: the rest of the game).
	Moves int
	// ByoYomi is the time per move guaranteed once Left is spent (GTP
	// Canadian byo-yomi: the period over its stones); 0 for none.
	ByoYomi time.Duration
}

const (
	// clockMinimum is the least time a move is given, however short the
	// clock: enough for a shallow search.
	clockMinimum = 10 * time.Millisecond
	// clockOverhead is kept back per move for what the clock counts and the
	// search does not: reading the command, starting the search, writing
	// the answer, the peer's own latency.
	clockOverhead = 20 * time.Millisecond
)

// Limits returns the soft and hard time limits (Limits.Soft and
// Limits.Time) of the next move in a position with empties empty squares.
// Soft is an even share of the usable time over the moves left; hard lets
// the search run past it (when its best move is in doubt) up to a few
// shares, never into the time kept back.
func (c Clock) Limits(empties int) (soft, hard time.Duration) {
	moves := c.Moves
	if moves <= 0 {
		moves = (empties + 1) / 2 // this side's moves left, this one included
	}
	moves = max(moves, 1)
	usable := c.Left - c.Left/20 - time.Duration(moves)*clockOverhead
	soft = usable/time.Duration(moves) + c.Increment*4/5
	hard = min(3*soft, usable/2+c.Increment*4/5)
	if c.ByoYomi > 0 {
		soft = max(soft, c.ByoYomi*8/10)
		hard = max(hard, c.ByoYomi*9/10)
	}
	soft = max(soft, clockMinimum)
	hard = max(hard, soft)
	return soft, hard
}
