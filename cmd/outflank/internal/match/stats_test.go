package match

import (
	"math"
	"testing"
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
	if z := Summarize(nil); z.Games != 0 || !math.IsNaN(z.Score) {
		t.Errorf("empty %+v", z)
	}
	if one := Summarize([]GameResult{res(0, 1, 3)}); !math.IsNaN(one.ScoreErr) || !math.IsNaN(one.EloLow) {
		t.Errorf("one game: error %v", one.ScoreErr)
	}
}
