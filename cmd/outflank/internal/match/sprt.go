package match

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// SPRT is a sequential probability ratio test between H0: "A is Elo0 or
// less stronger than B" and H1: "A is Elo1 or more stronger", with false
// positive rate Alpha and false negative rate Beta: the match stops as soon
// as the log-likelihood ratio leaves [ln(β/(1−α)), ln((1−β)/α)].
//
// The samples are the opening pairs (A's points in the two games of an
// opening: 0, ½, 1, 1½ or 2), with the usual normal approximation to the
// generalised SPRT: LLR = N·(s1−s0)·(2m−s0−s1) / (2σ²), where m and σ² are
// the mean and variance of the pair scores (per game), s0 and s1 the
// scores that Elo0 and Elo1 give. Half a pseudo-pair in each of the five
// outcomes keeps σ² above 0 when every pair has ended alike and keeps the
// test from deciding on a handful of pairs; over the hundreds of pairs a
// test needs its pull is a fraction of a percent.
type SPRT struct {
	Elo0, Elo1  float64
	Alpha, Beta float64
}

// ParseSPRT reads "ELO0,ELO1[,ALPHA[,BETA]]" (α and β default to 0.05).
func ParseSPRT(s string) (SPRT, error) {
	t := SPRT{Alpha: 0.05, Beta: 0.05}
	f := strings.Split(s, ",")
	if len(f) < 2 || len(f) > 4 {
		return t, fmt.Errorf("sprt %q: want ELO0,ELO1[,ALPHA[,BETA]]", s)
	}
	var v [4]float64
	for i, x := range f {
		n, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return t, fmt.Errorf("sprt %q: %q is not a number", s, x)
		}
		v[i] = n
	}
	t.Elo0, t.Elo1 = v[0], v[1]
	if len(f) > 2 {
		t.Alpha = v[2]
		t.Beta = v[2]
	}
	if len(f) > 3 {
		t.Beta = v[3]
	}
	switch {
	case t.Elo1 <= t.Elo0:
		return t, fmt.Errorf("sprt %q: ELO1 must be above ELO0", s)
	case t.Elo0 <= -1000 || t.Elo1 >= 1000:
		return t, fmt.Errorf("sprt %q: Elo bounds must lie within ±1000", s)
	case t.Alpha <= 0 || t.Alpha >= 0.5 || t.Beta <= 0 || t.Beta >= 0.5:
		return t, fmt.Errorf("sprt %q: ALPHA and BETA must lie between 0 and 0.5", s)
	}
	return t, nil
}

// Bounds returns the LLR at which H0 and H1 are accepted.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// score is the expected score of an engine stronger by elo.
func score(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// LLR is the log-likelihood ratio of H1 over H0 given the pentanomial
// counts of the complete opening pairs.
func (t SPRT) LLR(penta [5]int) float64 {
	n := 0
	for _, c := range penta {
		n += c
	}
	if n == 0 {
		return 0
	}
	const eps = 0.5
	var total, mean float64
	for i, c := range penta {
		w := float64(c) + eps
		total += w
		mean += w * float64(i) / 4
	}
	mean /= total
	var v float64
	for i, c := range penta {
		d := float64(i)/4 - mean
		v += (float64(c) + eps) * d * d
	}
	v /= total
	s0, s1 := score(t.Elo0), score(t.Elo1)
	return float64(n) * (s1 - s0) * (2*mean - s0 - s1) / (2 * v)
}

// Verdict is +1 when H1 is accepted, -1 when H0 is, 0 while undecided.
func (t SPRT) Verdict(penta [5]int) int {
	lo, hi := t.Bounds()
	switch llr := t.LLR(penta); {
	case llr >= hi:
		return 1
	case llr <= lo:
		return -1
	}
	return 0
}

// String describes the test, e.g. "SPRT Elo0 0 Elo1 10 α 0.05 β 0.05".
func (t SPRT) String() string {
	return fmt.Sprintf("SPRT Elo0 %g Elo1 %g α %g β %g", t.Elo0, t.Elo1, t.Alpha, t.Beta)
}

// Status is the test's state for reports: "LLR 1.23 [-2.94, 2.94]" and the
// verdict once there is one.
func (t SPRT) Status(penta [5]int) string {
	lo, hi := t.Bounds()
	s := fmt.Sprintf("LLR %.2f [%.2f, %.2f]", t.LLR(penta), lo, hi)
	switch t.Verdict(penta) {
	case 1:
		s += fmt.Sprintf(", H1 accepted (A - B >= %+g Elo)", t.Elo1)
	case -1:
		s += fmt.Sprintf(", H0 accepted (A - B <= %+g Elo)", t.Elo0)
	}
	return s
}
