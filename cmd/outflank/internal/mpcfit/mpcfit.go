// Package mpcfit fits the Multi-ProbCut model of package search: how well
// a shallow search predicts a deep one (or the exact score), as a function
// of the empties and the two depths. Collect measures sample positions
// (full-window searches to every depth up to a maximum, and optionally the
// exact score); Fit turns the samples into per-cell regressions and into
// the smooth model that the search uses, extrapolating to depth pairs too
// expensive to measure; Source writes that model as search's generated
// table.
//
// The positions come from the caller (WTHOR games, self-play games, any
// list of positions), so that the fit can be redone on other data.
package mpcfit

import (
	"context"
	"fmt"
	"go/format"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// Sample is one measured position.
type Sample struct {
	Empties int
	// Values[d] is the score of a full-window, non-selective search to
	// depth d (Values[0]: the evaluation itself).
	Values []int
	// Exact is the exact score (final disc difference) when HasExact.
	Exact    int
	HasExact bool
}

// Measure searches pos to every depth up to depth (below its empties) with
// a non-selective search, and solves it exactly if exact. The engine's
// table is cleared first.
func Measure(eng *search.Engine, ev search.Evaluator, pos bitboard.Position, depth int, exact bool) Sample {
	e := pos.Empties()
	depth = min(depth, e-1)
	s := Sample{Empties: e, Values: make([]int, depth+1)}
	s.Values[0] = ev.Evaluate(pos.Player, pos.Opponent)
	eng.Clear()
	lim := search.Limits{Depth: depth, Selectivity: 100, EndgameEmpties: 1}
	eng.Search(context.Background(), pos, lim, func(i search.Info) {
		if i.Depth >= 1 && i.Depth <= depth {
			s.Values[i.Depth] = i.Score
		}
	})
	if exact {
		eng.Clear()
		i := eng.Search(context.Background(), pos, search.Limits{Selectivity: 100, EndgameEmpties: 60}, nil)
		s.Exact, s.HasExact = i.Score, i.Exact
	}
	return s
}

// Write writes s as one line: empties, the exact score or "-", then the
// values by depth.
func (s Sample) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d ", s.Empties)
	if s.HasExact {
		fmt.Fprintf(&b, "%d", s.Exact)
	} else {
		b.WriteString("-")
	}
	for _, v := range s.Values {
		fmt.Fprintf(&b, " %d", v)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Read reads samples written by Write.
func Read(r io.Reader) ([]Sample, error) {
	var out []Sample
	ls := bitboard.NewLines(r)
	for ls.Scan() {
		f := strings.Fields(ls.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 {
			return nil, ls.Errorf("want empties, exact score or -, values")
		}
		var s Sample
		var err error
		if s.Empties, err = strconv.Atoi(f[0]); err != nil || s.Empties < 1 || s.Empties > 60 {
			return nil, ls.Errorf("empties %q", f[0])
		}
		if f[1] != "-" {
			if s.Exact, err = strconv.Atoi(f[1]); err != nil {
				return nil, ls.Errorf("exact score %q", f[1])
			}
			s.HasExact = true
		}
		for _, x := range f[2:] {
			v, err := strconv.Atoi(x)
			if err != nil || v < -64 || v > 64 {
				return nil, ls.Errorf("value %q", x)
			}
			s.Values = append(s.Values, v)
		}
		out = append(out, s)
	}
	return out, ls.Err()
}

// ReadFiles reads the samples of every named file, in order; an error
// names the file.
func ReadFiles(names ...string) ([]Sample, error) {
	var out []Sample
	for _, name := range names {
		f, err := bitboard.OpenRegular(name)
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		ss, err := Read(f)
		f.Close()
		if err != nil {
			return nil, bitboard.InFile(name, err)
		}
		out = append(out, ss...)
	}
	return out, nil
}

// DefaultMinCount is the fewest samples of a cell that the fit uses unless
// told otherwise (`outflank mpcfit fit --min-count`).
const DefaultMinCount = 30

// Cell is the regression deep ≈ A·shallow + B over the samples of one
// stage (empties Lo..Hi) and depth pair; Deep is 0 for the exact score.
// Sigma is the residual's standard deviation; Sigma1 that of deep -
// shallow (A = 1, B = 0), the error the search's model predicts.
type Cell struct {
	Lo, Hi, Shallow, Deep, N int
	A, B, Sigma, Sigma1      float64
}

// stageWidth is the width in empties of a cell's stage, and endStageWidth
// that of a cell against the exact score (whose samples span fewer
// empties).
const stageWidth, endStageWidth = 8, 2

// Cells regresses every depth pair (shallow < deep, same parity, shallow >=
// 1) in every stage of stageWidth empties, and every shallow depth against
// the exact score, keeping cells of at least minN samples.
func Cells(samples []Sample, minN int) []Cell {
	type key struct{ st, sh, dp int }
	xs := map[key][][2]float64{}
	for _, s := range samples {
		st := s.Empties / stageWidth
		est := s.Empties / endStageWidth
		for dp := 1; dp < len(s.Values); dp++ {
			for sh := dp - 2; sh >= 1; sh -= 2 {
				k := key{st, sh, dp}
				xs[k] = append(xs[k], [2]float64{float64(s.Values[sh]), float64(s.Values[dp])})
			}
		}
		if s.HasExact {
			for sh := 1; sh < len(s.Values); sh++ {
				k := key{est, sh, 0}
				xs[k] = append(xs[k], [2]float64{float64(s.Values[sh]), float64(s.Exact)})
			}
		}
	}
	var out []Cell
	for k, pts := range xs {
		if len(pts) < minN {
			continue
		}
		w := stageWidth
		if k.dp == 0 {
			w = endStageWidth
		}
		c := Cell{Lo: k.st * w, Hi: k.st*w + w - 1, Shallow: k.sh, Deep: k.dp, N: len(pts)}
		c.A, c.B, c.Sigma = regress(pts)
		var ss float64
		for _, p := range pts {
			ss += (p[1] - p[0]) * (p[1] - p[0])
		}
		c.Sigma1 = math.Sqrt(ss / float64(len(pts)))
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Deep == 0) != (b.Deep == 0) {
			return a.Deep != 0
		}
		if a.Deep != b.Deep {
			return a.Deep < b.Deep
		}
		if a.Shallow != b.Shallow {
			return a.Shallow < b.Shallow
		}
		return a.Lo < b.Lo
	})
	return out
}

// regress fits y = a·x + b by least squares; sigma is the residuals'
// standard deviation.
func regress(pts [][2]float64) (a, b, sigma float64) {
	n := float64(len(pts))
	var sx, sy, sxx, sxy float64
	for _, p := range pts {
		sx += p[0]
		sy += p[1]
		sxx += p[0] * p[0]
		sxy += p[0] * p[1]
	}
	if d := n*sxx - sx*sx; d != 0 {
		a = (n*sxy - sx*sy) / d
	} else {
		a = 1
	}
	b = (sy - a*sx) / n
	var ss float64
	for _, p := range pts {
		r := p[1] - a*p[0] - b
		ss += r * r
	}
	return a, b, math.Sqrt(ss / max(1, n-2))
}

// Model is the smooth error model the search uses.
//
// In the midgame the deep score is predicted as the shallow one (the
// cells' regressions give a = 1 and b = 0 within their noise), with error
// sigma = Mid[0] + Mid[1]·e + Mid[2]·shallow + Mid[3]·deep (e: empties),
// fitted to the cells of the depth pairs the search uses
// (search.ProbCutDepth) by least squares weighted by the cells' counts.
//
// Against the exact score the evaluation's scale is too small (a > 1), so
// the prediction is EndA·shallow + EndB (the cells' weighted means), with
// error sigma = End[0] + End[1]·e + End[2]·shallow, e clamped to
// EndLo..EndHi, the empties the data covers, so that the linear term does
// not run away when extrapolated to deeper endgames.
type Model struct {
	Mid          [4]float64
	End          [3]float64
	EndA, EndB   float64
	EndLo, EndHi int
}

// Fit fits the model to the cells.
func Fit(cells []Cell) (Model, error) {
	m := Model{EndLo: 64}
	var mid, end [][]float64
	var wm, we, ym, ye []float64
	var wsum float64
	for _, c := range cells {
		e := float64(c.Lo+c.Hi) / 2
		if c.Deep == 0 {
			end = append(end, []float64{1, e, float64(c.Shallow)})
			we, ye = append(we, float64(c.N)), append(ye, c.Sigma)
			m.EndA += float64(c.N) * c.A
			m.EndB += float64(c.N) * c.B
			wsum += float64(c.N)
			m.EndLo, m.EndHi = min(m.EndLo, c.Lo), max(m.EndHi, c.Hi)
		} else if c.Shallow == search.ProbCutDepth(c.Deep) {
			mid = append(mid, []float64{1, e, float64(c.Shallow), float64(c.Deep)})
			wm, ym = append(wm, float64(c.N)), append(ym, c.Sigma1)
		}
	}
	x, err := leastSquares(mid, ym, wm)
	if err != nil {
		return m, fmt.Errorf("midgame fit: %w", err)
	}
	copy(m.Mid[:], x)
	if len(end) == 0 {
		return m, fmt.Errorf("endgame fit: no samples with exact scores")
	}
	x, err = leastSquares(end, ye, we)
	if err != nil {
		return m, fmt.Errorf("endgame fit: %w", err)
	}
	copy(m.End[:], x)
	m.EndA /= wsum
	m.EndB /= wsum
	return m, nil
}

// MidSigma is the model's midgame error.
func (m Model) MidSigma(e, shallow, deep int) float64 {
	return m.Mid[0] + m.Mid[1]*float64(e) + m.Mid[2]*float64(shallow) + m.Mid[3]*float64(deep)
}

// EndSigma is the model's error against the exact score.
func (m Model) EndSigma(e, shallow int) float64 {
	e = max(m.EndLo, min(m.EndHi, e))
	return m.End[0] + m.End[1]*float64(e) + m.End[2]*float64(shallow)
}

// leastSquares solves the weighted normal equations of rows·x ≈ y.
func leastSquares(rows [][]float64, y, w []float64) ([]float64, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("no cells")
	}
	k := len(rows[0])
	if len(rows) < k {
		return nil, fmt.Errorf("%d cells for %d coefficients", len(rows), k)
	}
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, k+1)
	}
	for r, row := range rows {
		for i := range k {
			for j := range k {
				a[i][j] += w[r] * row[i] * row[j]
			}
			a[i][k] += w[r] * row[i] * y[r]
		}
	}
	// Gaussian elimination with partial pivoting.
	for c := range k {
		p := c
		for r := c + 1; r < k; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if math.Abs(a[p][c]) < 1e-12 {
			return nil, fmt.Errorf("singular system (the cells do not vary enough)")
		}
		a[c], a[p] = a[p], a[c]
		for r := range k {
			if r != c {
				f := a[r][c] / a[c][c]
				for j := c; j <= k; j++ {
					a[r][j] -= f * a[c][j]
				}
			}
		}
	}
	x := make([]float64, k)
	for i := range k {
		x[i] = a[i][k] / a[i][i]
	}
	return x, nil
}

// Source returns search's generated Go file holding m, naming the command
// that made it.
func (m Model) Source(command string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by %q; DO NOT EDIT.\n\npackage search\n\n", command)
	b.WriteString("// The Multi-ProbCut model fitted by cmd/outflank/internal/mpcfit (see search/README.md).\n")
	b.WriteString("var (\n")
	b.WriteString("\t// Midgame: deep ≈ shallow, sigma = mpcMidSigma · (1, empties, shallow, depth).\n")
	fmt.Fprintf(&b, "\tmpcMidSigma = [4]float64{%.6g, %.6g, %.6g, %.6g}\n", m.Mid[0], m.Mid[1], m.Mid[2], m.Mid[3])
	b.WriteString("\t// Endgame: exact ≈ mpcEndA·shallow + mpcEndB, sigma = mpcEndSigma · (1, e, shallow),\n")
	b.WriteString("\t// e the empties clamped to mpcEndMinEmpties..mpcEndMaxEmpties.\n")
	fmt.Fprintf(&b, "\tmpcEndSigma = [3]float64{%.6g, %.6g, %.6g}\n", m.End[0], m.End[1], m.End[2])
	fmt.Fprintf(&b, "\tmpcEndA, mpcEndB = %.6g, %.6g\n", m.EndA, m.EndB)
	b.WriteString(")\n\n")
	fmt.Fprintf(&b, "const mpcEndMinEmpties, mpcEndMaxEmpties = %d, %d\n", m.EndLo, m.EndHi)
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic("mpcfit: generated source does not parse: " + err.Error())
	}
	return src
}
