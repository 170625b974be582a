package play

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// TimeControl is a GGF time control, TI[main/increment/grace]: each player
// has Main for the game, gains Increment per move, and may overrun by Grace
// (which the engine never plans to use).
type TimeControl struct {
	Main, Increment, Grace time.Duration
}

// ParseClock reads a GGF clock such as "15:00//02:00", "5:00", "1:00:00",
// "90" (seconds) or "10:00/5/0". Each field is [[h:]m:]s; empty fields are 0.
func ParseClock(s string) (TimeControl, error) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) > 3 {
		return TimeControl{}, fmt.Errorf("clock %q: more than three '/' fields", s)
	}
	var d [3]time.Duration
	for i, f := range parts {
		v, err := parseDuration(f)
		if err != nil {
			return TimeControl{}, fmt.Errorf("clock %q: %w", s, err)
		}
		d[i] = v
	}
	return TimeControl{Main: d[0], Increment: d[1], Grace: d[2]}, nil
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

// GameClock returns the clock of the side to move of g: the time left and
// the increment, from the record's time control (TB for black, TW for
// white, else TI) and the times stored with the moves. ok is false when the
// record has no clock.
func GameClock(g *bitboard.Game) (clock Clock, ok bool, err error) {
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
		return Clock{}, false, nil
	}
	c, err := ParseClock(v)
	if err != nil {
		return Clock{}, false, err
	}
	if c.Main == 0 && c.Increment == 0 {
		return Clock{}, false, nil
	}
	left := c.Main
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
	return Clock{Left: left, Increment: c.Increment}, true, nil
}

var errTimeRange = errors.New("want a time from 0 (no limit) to 1000000 seconds")

// ParseTime reads a time limit as people write it: a number of seconds
// ("5", "2.5") or a Go duration with its unit ("5s", "500ms", "1m30s").
// Zero means no limit. Errors do not repeat the text (callers name it).
// The shell's "time" command and every --time flag read times with it, so
// that both forms work in both places.
func ParseTime(text string) (time.Duration, error) {
	if v, err := strconv.ParseFloat(text, 64); err == nil {
		if !(v >= 0 && v <= 1e6) { // NaN fails too
			return 0, errTimeRange
		}
		return time.Duration(v * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		return 0, errors.New("not a time: want seconds (5) or a duration with a unit (5s, 500ms, 1m)")
	}
	if d < 0 || d > 1e6*time.Second {
		return 0, errTimeRange
	}
	return d, nil
}
