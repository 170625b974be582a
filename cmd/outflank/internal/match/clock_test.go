package match

import (
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// ggfWholeSeconds is a GGF clock of whole seconds, m:ss.
var ggfWholeSeconds = regexp.MustCompile(`^([0-9]+):([0-5][0-9])$`)

// readClock reads a GGF clock of whole seconds. (Not the play layer's
// reader: importing it would slow the start of the fake engines, which
// are this test binary.)
func readClock(s string) (time.Duration, bool) {
	m := ggfWholeSeconds.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	mins, _ := strconv.Atoi(m[1])
	sec, _ := strconv.Atoi(m[2])
	return time.Duration(mins*60+sec) * time.Second, true
}

// TestClockWholeSeconds: every clock the harness writes is GGF's m:ss in
// whole seconds, never a fraction, rounded up so that an engine is never
// given less than its time.
func TestClockWholeSeconds(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{time.Millisecond, "0:01"},
		{300 * time.Millisecond, "0:01"},
		{time.Second, "0:01"},
		{3250 * time.Millisecond, "0:04"},
		{59500 * time.Millisecond, "1:00"},
		{2 * time.Minute, "2:00"},
		{61*time.Minute + 1, "61:01"},
	} {
		got := clock(c.d)
		back, ok := readClock(got)
		if got != c.want || !ok || back < c.d || back >= c.d+time.Second {
			t.Errorf("clock(%s) = %q (%s), want %q", c.d, got, back, c.want)
		}
	}
}

// TestSetClocksWholeSeconds: the clocks of a game on time per move are
// whole seconds, one for each colour when they differ, and the record
// keeps them through GGF.
func TestSetClocksWholeSeconds(t *testing.T) {
	w := &worker{cfg: &Config{Engines: [2]Spec{{Time: 1500 * time.Millisecond}, {Time: 100 * time.Millisecond}}}}
	g := &bitboard.Game{Start: bitboard.Start()}
	w.setClocks(g, [2]int{0, 1})
	back, err := bitboard.ParseGGF(g.GGF())
	if err != nil {
		t.Fatal(err)
	}
	// 30 moves left at 1.5 s and at 0.1 s.
	for prop, want := range map[string]string{"TB": "0:45", "TW": "0:03"} {
		if v, ok := back.Prop(prop); !ok || v != want {
			t.Errorf("%s[%s], want %s[%s]", prop, v, prop, want)
		}
	}
}
