package train

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// TestAudit: labels whose errors against the exact scores are known give
// those errors, and the least-squares λ of labels that err by the same
// amount on either side is one half.
func TestAudit(t *testing.T) {
	samples := relabelSamples(t)
	ev := eval.Default()
	eng := search.New(search.Options{HashMB: 4, Eval: ev})
	var labels []SearchLabel
	for i := range samples {
		if e := samples[i].Empties(); e < 12 || e > 14 || len(labels) == 12 {
			continue
		}
		s := &samples[i]
		v := eng.Search(context.Background(), bitboard.Position{Player: s.Player, Opponent: s.Opponent},
			search.Limits{EndgameEmpties: search.AlwaysSolve}, nil).Score
		// The game label 3 below the truth, the search label 3 above.
		s.Score = int8(v - 3)
		labels = append(labels, SearchLabel{Index: int32(i), Score: int8(v + 3)})
	}
	if len(labels) < 12 {
		t.Fatalf("%d positions at 12-14 empties", len(labels))
	}
	pick := AuditPick(samples, labels, 8, 12, 14, 1)
	if len(pick) != 8 {
		t.Fatalf("picked %d of 12, want 8", len(pick))
	}
	if again := AuditPick(samples, labels, 8, 12, 14, 1); !slices.Equal(pick, again) {
		t.Fatal("the same seed picked other positions")
	}
	if none := AuditPick(samples, labels, 8, 15, 20, 1); len(none) != 0 {
		t.Fatalf("picked %d positions outside the empties bounds", len(none))
	}
	for _, i := range AuditPick(samples, labels, 12, 13, 13, 1) {
		if e := samples[labels[i].Index].Empties(); e != 13 {
			t.Fatalf("picked a position of %d empties at 13-13", e)
		}
	}
	rows, err := Audit(context.Background(), ev, samples, labels, pick, 0.25, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := rows[len(rows)-1]
	if !all.All || all.N != 8 {
		t.Fatalf("last row %+v, want all 8 positions", all)
	}
	n := float64(all.N)
	near := func(got, want float64) bool { return math.Abs(got-want) < 1e-9 }
	// The blend at λ 0.25 is round(v − 1.5): v − 2 or v − 1 (halves
	// round away from zero), an error of 1 or 2.
	if !near(all.Game.Sum/n, -3) || !near(all.Search.Sum/n, 3) {
		t.Fatalf("mean signed errors: game %v, search %v; want -3 and +3", all.Game.Sum/n, all.Search.Sum/n)
	}
	if !near(all.Game.Abs/n, 3) || !near(all.Search.Abs/n, 3) || !near(all.Game.Sq/n, 9) ||
		all.Blend.Abs/n < 1 || all.Blend.Abs/n > 2 || !near(all.BestMix(), 0.5) {
		t.Fatalf("all: game %v, search %v, blend %v, best λ %v; want 3, 3, 1-2 and 0.5",
			all.Game.Abs/n, all.Search.Abs/n, all.Blend.Abs/n, all.BestMix())
	}
	// The evaluation's error is measured too (not zero on real positions).
	if all.Eval.Abs == 0 {
		t.Error("the evaluation matched every exact score")
	}
	sum := 0
	for _, r := range rows[:len(rows)-1] {
		if r.All || r.Empties < 12 || r.Empties > 14 {
			t.Errorf("row %+v", r)
		}
		sum += r.N
	}
	if sum != 8 {
		t.Errorf("rows by empties hold %d positions, want 8", sum)
	}
	var b bytes.Buffer
	WriteAudit(&b, rows, 0.25, "search")
	if !strings.Contains(b.String(), "blend λ=0.25") || !strings.Contains(b.String(), "\nall ") ||
		!strings.Contains(b.String(), "game label -3.00, search label +3.00") {
		t.Errorf("report:\n%s", b.String())
	}
}
