package play

import (
	"fmt"

	"github.com/outflank-othello/outflank/search"
)

// SolveEstimate says roughly how long an exact solve of a position with
// the given empties takes on one thread ("3 hours", "2.1e+03 years"), for
// the warnings of the solve command and the shell's solve.
func SolveEstimate(empties int) string { return roughDuration(search.EstimateSolveSeconds(empties)) }

// roughDuration writes seconds as a rough human duration.
func roughDuration(s float64) string {
	switch {
	case s < 120:
		return fmt.Sprintf("%.0f seconds", s)
	case s < 2*3600:
		return fmt.Sprintf("%.0f minutes", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.0f hours", s/3600)
	case s < 2*365*86400:
		return fmt.Sprintf("%.0f days", s/86400)
	}
	return fmt.Sprintf("%.2g years", s/(365*86400))
}
