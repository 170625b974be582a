package solve

import (
	"testing"

	"github.com/outflank-othello/outflank/search"
)

func TestSolveLimitsBeyondReach(t *testing.T) {
	wld := false
	// solve without --time: 30 s of deepening search and a note.
	lim, note := solveLimits(34, Flags{wld: &wld, depths: true})
	if lim.Time != solveBeyondReachTime || lim.EndgameEmpties == search.AlwaysSolve || note == "" {
		t.Errorf("solve beyond reach: %+v, note %q", lim, note)
	}
	// bench: always an exact solve, no limit, no note.
	lim, note = solveLimits(34, Flags{wld: &wld, timeSet: true})
	if lim.Time != 0 || lim.EndgameEmpties != search.AlwaysSolve || lim.Selectivity != 100 || note != "" {
		t.Errorf("bench beyond reach: %+v, note %q", lim, note)
	}
}
