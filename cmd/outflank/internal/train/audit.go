package train

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// Label audit. A search label is worth its cost only if it is nearer the
// truth than the game label it is blended with. Where the truth is within
// the solver's reach, it can be asked directly: some searched positions
// are solved exactly and each label's error measured, which also gives
// the blend that would have erred least (the least-squares λ), before a
// fit spends hours on a guess.

// AuditPick returns up to n of labels' positions with lo to hi empties,
// drawn at random by seed, as indexes into labels, in order.
func AuditPick(samples []Sample, labels []SearchLabel, n, lo, hi int, seed uint64) []int {
	var cand []int
	for i, l := range labels {
		if e := samples[l.Index].Empties(); e >= lo && e <= hi {
			cand = append(cand, i)
		}
	}
	r := rand.New(rand.NewPCG(seed, 0xa0d17))
	r.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	cand = cand[:min(n, len(cand))]
	slices.Sort(cand)
	return cand
}

// AuditErr sums one label's errors against the exact scores.
type AuditErr struct {
	Sum, Abs, Sq float64
}

func (a *AuditErr) add(d float64) { a.Sum += d; a.Abs += math.Abs(d); a.Sq += d * d }

// AuditRow is the audit of the positions at one empties count, or of all
// of them (All).
type AuditRow struct {
	Empties, N int
	All        bool
	// The game label, the search label, the position's static evaluation
	// and the blend at the fit's λ, each against the exact score.
	Game, Search, Eval, Blend AuditErr
	// For the least-squares λ: the blend's error is (g−v) − λ(g−s), so
	// the best λ is Σ(g−s)(g−v) / Σ(g−s)².
	cross, gapSq float64
}

// BestMix returns the λ in [0, 1] whose blend has the least squared error
// on the row's positions (NaN when search and game labels never differ).
func (r *AuditRow) BestMix() float64 {
	if r.gapSq == 0 {
		return math.NaN()
	}
	return max(0, min(1, r.cross/r.gapSq))
}

// Audit solves the positions pick (indexes into labels) exactly with
// workers engines of one thread each, evaluating them with ev, and returns
// a row for each empties count and the whole (last). progress, if not nil,
// is called after each solve.
func Audit(ctx context.Context, ev search.Evaluator, samples []Sample, labels []SearchLabel, pick []int, mix float64,
	workers int, progress func(done, total int)) ([]AuditRow, error) {
	exact := make([]int, len(pick))
	var (
		mu       sync.Mutex
		next     int
		done     int
		notExact int
		wg       sync.WaitGroup
	)
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := search.New(search.Options{HashMB: 64, Eval: ev})
			for {
				mu.Lock()
				j := next
				next++
				mu.Unlock()
				if j >= len(pick) || ctx.Err() != nil {
					return
				}
				s := &samples[labels[pick[j]].Index]
				eng.Clear()
				info := eng.Search(ctx, bitboard.Position{Player: s.Player, Opponent: s.Opponent},
					search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
				mu.Lock()
				exact[j] = info.Score
				if !info.Exact && ctx.Err() == nil {
					notExact++
				}
				done++
				if progress != nil {
					progress(done, len(pick))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if notExact > 0 {
		return nil, fmt.Errorf("audit: %d of %d solves were not exact", notExact, len(pick))
	}
	byEmpties := map[int]*AuditRow{}
	all := AuditRow{All: true}
	for j, li := range pick {
		l := labels[li]
		s := &samples[l.Index]
		e := s.Empties()
		r := byEmpties[e]
		if r == nil {
			r = &AuditRow{Empties: e}
			byEmpties[e] = r
		}
		v, g, sv := float64(exact[j]), float64(s.Score), float64(l.Score)
		st := float64(ev.Evaluate(s.Player, s.Opponent))
		b := math.Round(mix*sv + (1-mix)*g)
		for _, row := range []*AuditRow{r, &all} {
			row.N++
			row.Game.add(g - v)
			row.Search.add(sv - v)
			row.Eval.add(st - v)
			row.Blend.add(b - v)
			row.cross += (g - sv) * (g - v)
			row.gapSq += (g - sv) * (g - sv)
		}
	}
	var rows []AuditRow
	for _, r := range byEmpties {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b AuditRow) int { return a.Empties - b.Empties })
	return append(rows, all), nil
}

// WriteAudit prints the audit's rows: each label's mean absolute and
// root-mean-square error in discs, and the least-squares λ; what names
// the labels audited ("search", "spread").
func WriteAudit(w io.Writer, rows []AuditRow, mix float64, what string) {
	fmt.Fprintf(w, "%-8s %6s  %-13s %-13s %-13s %s\n", "", "", "game label", what+" label", "evaluation", fmt.Sprintf("blend λ=%g", mix))
	fmt.Fprintf(w, "%-8s %6s %s best λ\n", "empties", "n", strings.Repeat("   |e|    rms", 4))
	for _, r := range rows {
		name := fmt.Sprint(r.Empties)
		if r.All {
			name = "all"
		}
		n := float64(r.N)
		cell := func(a AuditErr) string { return fmt.Sprintf("%5.2f %6.2f ", a.Abs/n, math.Sqrt(a.Sq/n)) }
		fmt.Fprintf(w, "%-8s %6d  %s %s %s %s %.2f\n", name, r.N, cell(r.Game), cell(r.Search), cell(r.Eval), cell(r.Blend), r.BestMix())
	}
	// A label that errs one way (a spread label gives away the played
	// move's regret) shows here, where |e| and rms cannot tell.
	if len(rows) > 0 {
		a := rows[len(rows)-1]
		n := float64(a.N)
		fmt.Fprintf(w, "mean signed error, all: game label %+.2f, %s label %+.2f, evaluation %+.2f, blend %+.2f\n",
			a.Game.Sum/n, what, a.Search.Sum/n, a.Eval.Sum/n, a.Blend.Sum/n)
	}
}
