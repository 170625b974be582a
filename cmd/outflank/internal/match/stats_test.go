package match

import (
	"math"
	"strings"
	"testing"
	"time"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

func TestElo(t *testing.T) {
	for _, c := range []struct{ s, elo float64 }{
		{0.5, 0}, {0.75, 190.848}, {0.25, -190.848}, {10.0 / 11, 400}, {0.64, 99.96},
	} {
		if got := Elo(c.s); !near(got, c.elo, 0.01) {
			t.Errorf("Elo(%v) = %v; want %v", c.s, got, c.elo)
		}
	}
	if !math.IsInf(Elo(1), 1) || !math.IsInf(Elo(0), -1) || !math.IsNaN(Elo(math.NaN())) {
		t.Errorf("Elo at the ends: %v %v", Elo(1), Elo(0))
	}
}

func res(index int, score float64, margin int) GameResult {
	return GameResult{Index: index, Black: index % 2, Score: score, Margin: margin}
}

func TestSummarize(t *testing.T) {
	// Per game: scores 1,1,0.5,0 (no complete pair for game 3: index 4).
	s := Summarize([]GameResult{res(0, 1, 10), res(1, 1, 4), res(2, 0.5, 0), res(4, 0, -6)})
	if s.Games != 4 || s.Wins != 2 || s.Draws != 1 || s.Losses != 1 || s.Paired {
		t.Fatalf("counts %+v", s)
	}
	// mean 0.625; sample variance (.375²·2 + .125² + .625²)/3 = 0.6875/3;
	// half-width 1.959964·sqrt(0.6875/3/4).
	if !near(s.Score, 0.625, 1e-12) || !near(s.ScoreErr, 1.959964*math.Sqrt(0.6875/3/4), 1e-9) {
		t.Errorf("score %v ± %v", s.Score, s.ScoreErr)
	}
	if !near(s.Elo, Elo(0.625), 1e-9) || !near(s.EloLow, Elo(0.625-s.ScoreErr), 1e-9) || !math.IsInf(s.EloHigh, 1) {
		t.Errorf("Elo %v [%v, %v]", s.Elo, s.EloLow, s.EloHigh)
	}
	if s.AsBlack != (WDL{1, 1, 1}) || s.AsWhite != (WDL{1, 0, 0}) {
		t.Errorf("by colour %+v %+v", s.AsBlack, s.AsWhite)
	}
	if !near(s.Margin, 2, 1e-12) || s.MarginGames != 4 {
		t.Errorf("margin %v over %d", s.Margin, s.MarginGames)
	}

	// Paired: pairs (1,0) (1,0.5) (0.5,0.5): pair means 0.5 0.75 0.5.
	p := Summarize([]GameResult{res(0, 1, 2), res(1, 0, -2), res(2, 1, 8), res(3, 0.5, 0), res(4, 0.5, 0), res(5, 0.5, 0)})
	if !p.Paired || !near(p.Score, 0.5833333333, 1e-9) {
		t.Fatalf("paired %v score %v", p.Paired, p.Score)
	}
	// pair means mean 0.58333, sample variance ((-1/12)²·2 + (1/6)²)/2 = 1/48.
	if !near(p.ScoreErr, 1.959964*math.Sqrt(1.0/48/3), 1e-9) {
		t.Errorf("paired error %v", p.ScoreErr)
	}

	// Forfeits count in the score but not in the margin.
	f := Summarize([]GameResult{res(0, 1, 0), {Index: 1, Black: 1, Score: 1, Forfeit: &Forfeit{Engine: 1, Fault: Fault{Kind: FaultCrash}}}})
	if f.Forfeits != [2]int{0, 1} || f.Faults[1][FaultCrash] != 1 || f.MarginGames != 1 || f.Wins != 2 {
		t.Errorf("forfeits %+v", f)
	}
	// The longest move is the longest of all games; moves over are summed.
	l := Summarize([]GameResult{{Index: 0, Score: 1, Longest: [2]time.Duration{3, 9}, Over: [2]int{1, 2}, Late: [2]int{0, 1}},
		{Index: 1, Score: 0, Longest: [2]time.Duration{7, 4}, Over: [2]int{0, 5}, Late: [2]int{0, 3}}})
	if l.Longest != [2]time.Duration{7, 9} || l.Over != [2]int{1, 7} || l.Late != [2]int{0, 4} {
		t.Errorf("longest %v over %v late %v; want [7 9], [1 7] and [0 4]", l.Longest, l.Over, l.Late)
	}
	if z := Summarize(nil); z.Games != 0 || !math.IsNaN(z.Score) {
		t.Errorf("empty %+v", z)
	}
	if one := Summarize([]GameResult{res(0, 1, 3)}); !math.IsNaN(one.ScoreErr) || !math.IsNaN(one.EloLow) {
		t.Errorf("one game: error %v", one.ScoreErr)
	}
}

// TestShutout: a score of 0 or 1 gets an interval from the number of
// samples (Wilson), not "± 0.0" and an infinite Elo alone.
func TestShutout(t *testing.T) {
	var lost, won []GameResult
	for i := range 10 {
		lost = append(lost, res(i, 0, -20))
		won = append(won, res(i, 1, 20))
	}
	s := Summarize(lost)
	// Five opening pairs: z²/(5+z²) = 0.434.
	if !near(s.ScoreErr, 0.434, 0.001) || math.IsInf(s.EloHigh, 0) || s.EloHigh > -40 {
		t.Errorf("shutout: score ± %v, Elo up to %v", s.ScoreErr, s.EloHigh)
	}
	if line := ProgressLine(s, 10, nil); !strings.Contains(line, "score 0.0% (up to 43.4%)  Elo below -46") {
		t.Errorf("shutout progress line: %q", line)
	}
	if line := ProgressLine(Summarize(won), 10, nil); !strings.Contains(line, "score 100.0% (down to 56.6%)  Elo above +46") {
		t.Errorf("whitewash progress line: %q", line)
	}
}

// TestOpeningsText: the report says what an odd number of games does.
func TestOpeningsText(t *testing.T) {
	for _, c := range []struct {
		planned, openings int
		want              string
	}{
		{200, 100, "100 openings each with both colours"},
		{3, 2, "1 opening with both colours, 1 with A as black only"},
		{10, 1, "5 openings each with both colours (the 1 openings repeat)"},
	} {
		if got := openingsText(c.planned, c.openings); got != c.want {
			t.Errorf("openingsText(%d, %d) = %q, want %q", c.planned, c.openings, got, c.want)
		}
	}
}
