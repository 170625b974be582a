package play

import (
	"fmt"
	"math"
	"strconv"

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
	return roughYears(s / (365 * 86400))
}

// roughYears writes a number of years (2 or more) to two significant
// digits in words a person reads: "360 years", "4.5 million years", never
// "3.6e+02 years".
func roughYears(y float64) string {
	name := ""
	for _, u := range []struct {
		size float64
		name string
	}{{1e12, " trillion"}, {1e9, " billion"}, {1e6, " million"}} {
		if y >= u.size {
			y, name = y/u.size, u.name
			break
		}
	}
	step := math.Pow(10, math.Floor(math.Log10(y))-1) // the second digit's place
	decimals := max(0, int(-math.Floor(math.Log10(step)+0.5)))
	return strconv.FormatFloat(math.Round(y/step)*step, 'f', decimals, 64) + name + " years"
}
