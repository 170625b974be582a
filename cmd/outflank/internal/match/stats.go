package match

import (
	"math"
	"time"
)

// WDL counts wins, draws and losses.
type WDL struct{ Wins, Draws, Losses int }

func (r *WDL) add(score float64) {
	switch score {
	case 1:
		r.Wins++
	case 0.5:
		r.Draws++
	default:
		r.Losses++
	}
}

// Summary is the running result of a match from engine A's side.
type Summary struct {
	Games int
	WDL
	AsBlack, AsWhite WDL // A's results with each colour
	// Score is A's score rate, (wins + draws/2) / games, and ScoreErr the
	// half-width of its 95% confidence interval (NaN below two samples; for
	// a shutout, a score of 0 or 1, the distance to the interval's far end).
	// When every game's colour-swapped twin is in, the samples are the
	// opening pairs (Paired), which removes the openings' own imbalance from
	// the error; otherwise they are single games.
	Score, ScoreErr float64
	Paired          bool
	// Pentanomial counts the complete opening pairs by A's points in
	// them: 0, ½, 1, 1½, 2.
	Pentanomial [5]int
	// Elo is A's rating difference over B, -400·log10(1/Score − 1), with the
	// interval that the score's interval maps to (±Inf at a score of 0 or 1).
	Elo, EloLow, EloHigh float64
	// Margin is the mean disc margin (A minus B, empties to the winner) over
	// the MarginGames games played out, with its 95% half-width.
	Margin, MarginErr float64
	MarginGames       int
	// Per engine: moves answered, time spent on them, nodes reported.
	Moves [2]int
	Think [2]time.Duration
	Nodes [2]uint64
	// The moves and time of the games whose nodes are known (not read back
	// from a record), for nodes a move and a second.
	NodeMoves [2]int
	NodeThink [2]time.Duration
	Longest   [2]time.Duration        // the longest move
	Over      [2]int                  // moves longer than the engine's time a move
	Late      [2]int                  // of those, moves later than LateMargin past it
	Forfeits  [2]int                  // games lost by forfeit, per engine
	Faults    [2][len(faultNames)]int // the same by kind
}

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959964

// Summarize computes the summary of a set of results.
func Summarize(rs []GameResult) Summary {
	var s Summary
	s.Games = len(rs)
	byIndex := make(map[int]float64, len(rs))
	var total float64
	var margins []float64
	for _, r := range rs {
		byIndex[r.Index] = r.Score
		for i := range 2 {
			s.Moves[i] += r.Moves[i]
			s.Think[i] += r.Think[i]
			s.Nodes[i] += r.Nodes[i]
			if !r.NoNodes {
				s.NodeMoves[i] += r.Moves[i]
				s.NodeThink[i] += r.Think[i]
			}
			s.Longest[i] = max(s.Longest[i], r.Longest[i])
			s.Over[i] += r.Over[i]
			s.Late[i] += r.Late[i]
		}
		total += r.Score
		s.add(r.Score)
		if r.Black == 0 {
			s.AsBlack.add(r.Score)
		} else {
			s.AsWhite.add(r.Score)
		}
		if r.Forfeit != nil {
			s.Forfeits[r.Forfeit.Engine]++
			s.Faults[r.Forfeit.Engine][r.Forfeit.Fault.Kind]++
		} else {
			margins = append(margins, float64(r.Margin))
		}
	}
	if s.Games == 0 {
		s.Score, s.ScoreErr, s.Margin, s.MarginErr = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		s.Elo, s.EloLow, s.EloHigh = math.NaN(), math.NaN(), math.NaN()
		return s
	}
	s.Score = total / float64(s.Games)

	s.Paired = true
	for _, r := range rs {
		b, ok := byIndex[r.Index^1]
		if !ok {
			s.Paired = false
		} else if r.Index%2 == 0 {
			s.Pentanomial[int(math.Round(2*(r.Score+b)))]++
		}
	}
	var samples []float64
	if s.Paired {
		for _, r := range rs {
			if r.Index%2 == 0 {
				samples = append(samples, (r.Score+byIndex[r.Index+1])/2)
			}
		}
	} else {
		for _, r := range rs {
			samples = append(samples, r.Score)
		}
	}
	_, s.ScoreErr = meanErr(samples)
	if (s.Score == 0 || s.Score == 1) && len(samples) > 1 {
		// A shutout has no spread to measure, yet a few games prove
		// little: the Wilson interval's far end, z²/(n+z²) from the score.
		n := float64(len(samples))
		s.ScoreErr = z95 * z95 / (n + z95*z95)
	}
	s.Elo = Elo(s.Score)
	s.EloLow = Elo(s.Score - s.ScoreErr)
	s.EloHigh = Elo(s.Score + s.ScoreErr)
	if math.IsNaN(s.ScoreErr) {
		s.EloLow, s.EloHigh = math.NaN(), math.NaN()
	}
	s.MarginGames = len(margins)
	s.Margin, s.MarginErr = meanErr(margins)
	return s
}

// meanErr returns the mean of xs and the half-width of its 95% confidence
// interval from the sample variance (NaN below two samples).
func meanErr(xs []float64) (mean, half float64) {
	n := float64(len(xs))
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, z95 * math.Sqrt(ss/(n-1)/n)
}

// Elo converts a score rate into a rating difference (the logistic model):
// -400·log10(1/s − 1); ±Inf at 1 and 0 and beyond.
func Elo(s float64) float64 {
	switch {
	case math.IsNaN(s):
		return s
	case s <= 0:
		return math.Inf(-1)
	case s >= 1:
		return math.Inf(1)
	}
	return -400 * math.Log10(1/s-1)
}
