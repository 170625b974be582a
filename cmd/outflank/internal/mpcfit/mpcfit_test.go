package mpcfit

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/search"
)

// synthetic makes samples whose deeper values drift from the shallower
// by a known spread, and whose exact score is 1.2·value + 1 plus noise.
func synthetic(n int) []Sample {
	r := rand.New(rand.NewPCG(1, 2))
	var out []Sample
	for i := range n {
		e := 16 + i%40
		s := Sample{Empties: e, Values: make([]int, 13)}
		v := float64(r.IntN(21) - 10)
		for d := range s.Values {
			s.Values[d] = int(math.Round(v + r.NormFloat64()*2))
		}
		if e <= 22 {
			s.Exact, s.HasExact = int(math.Round(1.2*v+1+r.NormFloat64()*3)), true
		}
		out = append(out, s)
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	ss := synthetic(50)
	var b bytes.Buffer
	for _, s := range ss {
		if err := s.Write(&b); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Read(&b)
	if err != nil || len(got) != len(ss) {
		t.Fatalf("read %d samples, %v", len(got), err)
	}
	for i := range ss {
		if got[i].Empties != ss[i].Empties || got[i].HasExact != ss[i].HasExact || got[i].Exact != ss[i].Exact || len(got[i].Values) != len(ss[i].Values) {
			t.Fatalf("sample %d: %+v, want %+v", i, got[i], ss[i])
		}
	}
	if _, err := Read(bytes.NewBufferString("20 x 1 2\n")); err == nil {
		t.Error("bad exact score accepted")
	}
}

// TestFit: the fit finds the spread and scale the samples were made with.
func TestFit(t *testing.T) {
	m, err := Fit(Cells(synthetic(4000), 30))
	if err != nil {
		t.Fatal(err)
	}
	// Two independent errors of 2 (after rounding): sigma near 2.9.
	for _, d := range []int{4, 8, 12} {
		if s := m.MidSigma(30, search.ProbCutDepth(d), d); s < 2.5 || s > 3.3 {
			t.Errorf("midgame sigma at depth %d: %.2f, want about 2.9", d, s)
		}
	}
	// The shallow value's own noise (variance 4 against the values'
	// 36.7) attenuates the slope: a = 1.2·36.7/40.7.
	if math.Abs(m.EndA-1.08) > 0.05 || math.Abs(m.EndB-1) > 0.5 {
		t.Errorf("endgame a, b = %.2f, %.2f, want 1.08, 1", m.EndA, m.EndB)
	}
	if s := m.EndSigma(20, 6); s < 3 || s > 4.5 {
		t.Errorf("endgame sigma %.2f, want about 3.7", s)
	}
	if _, err := Fit(nil); err == nil {
		t.Error("fit of nothing succeeded")
	}
}

// TestCommittedTable: the committed search/mpc_table.go is what its header's
// command writes from the committed samples, so the table cannot drift from
// the samples beside it (new weights mean a new collection and fit of both).
func TestCommittedTable(t *testing.T) {
	const tablePath = "../../../../search/mpc_table.go"
	want, err := os.ReadFile(tablePath)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(want), "\n")
	_, rest, ok := strings.Cut(first, `"`)
	cmd, _, ok2 := strings.Cut(rest, `"`)
	if !ok || !ok2 {
		t.Fatalf("%s: no generating command in %q", tablePath, first)
	}
	var names []string
	for _, arg := range strings.Fields(cmd) {
		if name, found := strings.CutPrefix(arg, "cmd/outflank/internal/mpcfit/"); found {
			names = append(names, name)
		}
	}
	samples, err := ReadFiles(names...)
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) == 0 {
		t.Fatalf("no samples named in %q", cmd)
	}
	m, err := Fit(Cells(samples, DefaultMinCount))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Source(cmd); !bytes.Equal(got, want) {
		t.Errorf("%s differs from the fit of its samples; regenerate it with %q", tablePath, cmd)
	}
}
