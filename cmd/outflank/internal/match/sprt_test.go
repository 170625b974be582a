package match

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

func TestParseSPRT(t *testing.T) {
	got, err := ParseSPRT("0, 5")
	if err != nil || got != (SPRT{0, 5, 0.05, 0.05}) {
		t.Errorf("0,5: %+v %v", got, err)
	}
	got, err = ParseSPRT("-3,2,0.1,0.2")
	if err != nil || got != (SPRT{-3, 2, 0.1, 0.2}) {
		t.Errorf("-3,2,0.1,0.2: %+v %v", got, err)
	}
	for in, want := range map[string]string{
		"5":         "want ELO0,ELO1",
		"1,2,3,4,5": "want ELO0,ELO1",
		"5,0":       "above ELO0",
		"0,x":       "not a number",
		"0,5,0.7":   "between 0 and 0.5",
		"0,5,0,.1":  "between 0 and 0.5",
		"0,NaN":     "not a number",
		"0,5000":    "±1000",
	} {
		if _, err := ParseSPRT(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want %q", in, err, want)
		}
	}
}

func TestSPRTLLR(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}
	lo, hi := s.Bounds()
	if !near(lo, -2.944439, 1e-6) || !near(hi, 2.944439, 1e-6) {
		t.Errorf("bounds %v %v", lo, hi)
	}
	// 40 pairs 10/20/10 on ½, 1, 1½ points with half a pseudo-pair per
	// outcome: mean 0.5, variance (10.5·(1/16)·2 + 0.5·(1/4)·2)/42.5, so
	// LLR = 40·(s1−½)·(½−s1)/(2σ²) with s1 = 1/(1+10^(−10/400)).
	p := [5]int{0, 10, 20, 10, 0}
	s1 := 1 / (1 + math.Pow(10, -10.0/400))
	v := (10.5/16*2 + 0.5/4*2) / 42.5
	if got, want := s.LLR(p), 40*(s1-0.5)*(0.5-s1)/(2*v); !near(got, want, 1e-9) {
		t.Errorf("LLR %v; want %v", got, want)
	}
	if s.LLR([5]int{}) != 0 || s.Verdict([5]int{}) != 0 {
		t.Errorf("no pairs: LLR %v", s.LLR([5]int{}))
	}
	// Many even pairs accept H0, many won pairs accept H1; one pair decides nothing.
	if s.Verdict([5]int{0, 600, 800, 600, 0}) != -1 || s.Verdict([5]int{0, 0, 0, 0, 60}) != 1 || s.Verdict([5]int{0, 0, 0, 0, 1}) != 0 {
		t.Errorf("verdicts %d %d %d", s.Verdict([5]int{0, 600, 800, 600, 0}), s.Verdict([5]int{0, 0, 0, 0, 60}), s.Verdict([5]int{0, 0, 0, 0, 1}))
	}
}

// A match with an SPRT stops once the test decides: here B forfeits every
// game, so H1 is accepted long before the planned games are played.
func TestMatchSPRTStops(t *testing.T) {
	test := SPRT{Elo0: 0, Elo1: 50, Alpha: 0.05, Beta: 0.05}
	rep, err := Run(context.Background(), Config{
		Engines:     [2]Spec{fake(t, "first", 0, ""), fake(t, "illegal", 0, "")},
		Openings:    XOT()[:200],
		Concurrency: 2,
		MoveTimeout: 20 * time.Second, // fail rather than hang
		SPRT:        &test,
	})
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Summary
	if test.Verdict(s.Pentanomial) != 1 || s.Games >= 400 || s.Games < 4 {
		t.Fatalf("%d games, pairs %v, %s", s.Games, s.Pentanomial, test.Status(s.Pentanomial))
	}
	if !strings.Contains(test.Status(s.Pentanomial), "H1 accepted") {
		t.Errorf("status %q", test.Status(s.Pentanomial))
	}
}
