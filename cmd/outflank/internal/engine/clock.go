package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// Clock is a GGF time control, TI[main/increment/grace]: each player has
// Main for the game, gains Increment per move, and may overrun by Grace
// (which the engine never plans to use).
type Clock struct {
	Main, Increment, Grace time.Duration
}

// ParseClock reads a GGF clock such as "15:00//02:00", "5:00", "1:00:00",
// "90" (seconds) or "10:00/5/0". Each field is [[h:]m:]s; empty fields are 0.
func ParseClock(s string) (Clock, error) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) > 3 {
		return Clock{}, fmt.Errorf("clock %q: more than three '/' fields", s)
	}
	var d [3]time.Duration
	for i, f := range parts {
		v, err := parseDuration(f)
		if err != nil {
			return Clock{}, fmt.Errorf("clock %q: %w", s, err)
		}
		d[i] = v
	}
	return Clock{Main: d[0], Increment: d[1], Grace: d[2]}, nil
}

// parseDuration reads [[h:]m:]s with an optional fraction of a second, and
// tolerates a GGS suffix letter (e.g. "15:00,N") by ignoring what follows a
// comma.
func parseDuration(f string) (time.Duration, error) {
	f = strings.TrimSpace(f)
	if i := strings.IndexByte(f, ','); i >= 0 {
		f = f[:i]
	}
	if f == "" {
		return 0, nil
	}
	fields := strings.Split(f, ":")
	if len(fields) > 3 {
		return 0, fmt.Errorf("time %q: want [[h:]m:]s", f)
	}
	var secs float64
	for i, x := range fields {
		v, err := strconv.ParseFloat(x, 64)
		// !(v >= 0 && v <= 1e6) also rejects NaN.
		if err != nil || !(v >= 0 && v <= 1e6) || (i < len(fields)-1 && v != float64(int(v))) {
			return 0, fmt.Errorf("time %q: want [[h:]m:]s", f)
		}
		secs = secs*60 + v
	}
	return time.Duration(secs * float64(time.Second)), nil
}

// GameClock returns the time left to the side to move of g, and its
// increment, from the record's clock (TB for black, TW for white, else TI)
// and the times stored with the moves. ok is false when the record has no
// clock.
func GameClock(g *bitboard.Game) (left, increment time.Duration, ok bool, err error) {
	toMove := g.Current().ToMove
	key := "TB"
	if toMove == bitboard.White {
		key = "TW"
	}
	v, found := g.Prop(key)
	if !found {
		v, found = g.Prop("TI")
	}
	if !found || strings.TrimSpace(v) == "" {
		return 0, 0, false, nil
	}
	c, err := ParseClock(v)
	if err != nil {
		return 0, 0, false, err
	}
	if c.Main == 0 && c.Increment == 0 {
		return 0, 0, false, nil
	}
	left = c.Main
	side := g.Start.ToMove
	for _, m := range g.Moves {
		if side == toMove {
			left += c.Increment
			if m.HasTime && m.Time > 0 { // NaN fails too
				left -= time.Duration(min(m.Time, 1e6) * float64(time.Second))
			}
		}
		side = side.Other()
	}
	return left, c.Increment, true, nil
}

// Budget is how long to think for one move with left on the clock, inc
// gained per move and empties squares still empty: an even share of the
// time over the moves the side still has to play, a little kept back for
// the overhead of the protocol, never less than 10ms.
func Budget(left, inc time.Duration, empties int) time.Duration {
	const minimum = 10 * time.Millisecond
	usable := left - left/20 - 100*time.Millisecond
	if usable <= 0 {
		return minimum
	}
	movesLeft := (empties + 1) / 2
	t := usable/time.Duration(movesLeft+1) + inc*4/5
	t = min(t, usable/2)
	return max(t, minimum)
}

// OnlyMove returns lim made cheap when pos has a single legal move (or
// must pass): the move is forced, so a shallow search that gives it an
// evaluation is enough, and the clock is saved for later moves.
func OnlyMove(pos bitboard.Position, lim Limits) Limits {
	if bitboard.Count(pos.Moves()) > 1 {
		return lim
	}
	const depth, empties = 4, 12
	if lim.Depth == 0 || lim.Depth > depth {
		lim.Depth = depth
	}
	if lim.EndgameEmpties == 0 || lim.EndgameEmpties > empties {
		lim.EndgameEmpties = empties
	}
	return lim
}
