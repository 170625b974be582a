package selfplay

import (
	"fmt"
	"os"
	"testing"
)

func TestZZAnalyse(t *testing.T) {
	f := os.Getenv("ANA_FILE")
	if f == "" {
		t.Skip()
	}
	_, games, _ := ReadFile(f)
	type acc struct{ n, dc, ds, dsc, sumc2 float64 }
	var b [7]acc
	ng := 0
	for _, g := range games {
		if g.Evals == nil {
			continue
		}
		ng++
		ss, err := g.Samples()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			if !s.Searched {
				continue
			}
			e := s.Pos.Empties()
			k := min(6, (e-21)/5)
			a := &b[k]
			a.n++
			d := float64(s.Corrected - s.Score)
			if d < 0 {
				d = -d
			}
			a.dc += d
			a.sumc2 += d * d
			d = float64(s.Search - s.Score)
			if d < 0 {
				d = -d
			}
			a.ds += d
			d = float64(s.Search - s.Corrected)
			if d < 0 {
				d = -d
			}
			a.dsc += d
		}
	}
	fmt.Println("games with evals", ng)
	for k, a := range b {
		if a.n == 0 {
			continue
		}
		fmt.Printf("empties %d-%d: n %.0f  |corr-score| %.2f (rms %.2f)  |search-score| %.2f  |search-corr| %.2f\n", 21+5*k, 25+5*k, a.n, a.dc/a.n, sqrt(a.sumc2/a.n), a.ds/a.n, a.dsc/a.n)
	}
}

func sqrt(x float64) float64 {
	z := x
	for range 50 {
		if z == 0 {
			return 0
		}
		z = (z + x/z) / 2
	}
	return z
}
