package train

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
)

// testGames reads the one WTHOR year committed to the repository.
func testGames(t testing.TB) []Game {
	t.Helper()
	var bad []error
	games, err := ReadWTHOR("../../../../testdata/wthor", func(e error) { bad = append(bad, e) })
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Fatalf("bad records in testdata: %v", bad)
	}
	if len(games) < 1000 {
		t.Fatalf("%d games", len(games))
	}
	return games
}

func TestExtractLabels(t *testing.T) {
	games := testGames(t)[:300]
	var bad []error
	solver := NewSolver(1)
	samples, st := Labeler{Solve: solver.Solve, SolveEmpties: 8, SolveShare: 0.5, Seed: 1}.Extract(games, func(e error) { bad = append(bad, e) }, nil)
	if len(bad) > 0 {
		t.Fatalf("bad: %v", bad)
	}
	if st.Games == 0 || st.Theory == 0 || st.Solved == 0 || len(samples) != st.Theory+st.Final+st.Solved {
		t.Fatalf("stats %+v, %d samples", st, len(samples))
	}
	perfect, cancelled, off := 0, 0, 0
	for _, s := range samples {
		e := s.Empties()
		g := games[s.Game]
		pos := bitboard.Position{Player: s.Player, Opponent: s.Opponent}
		if pos.MustPass() || pos.GameOver() {
			t.Fatalf("game %d: a position without moves was kept", s.Game)
		}
		switch {
		case e >= g.TheoryEmpties:
			// The theoretical score, for the side to move: the same
			// magnitude as black's, and exact only at TheoryEmpties.
			if th := 2*g.TheoryScore - 64; int(s.Score) != th && int(s.Score) != -th {
				t.Fatalf("game %d, %d empties: label %d, theory %d", s.Game, e, s.Score, th)
			}
			if s.Exact != (e == g.TheoryEmpties) {
				t.Fatalf("game %d, %d empties: exact %v", s.Game, e, s.Exact)
			}
		case s.Exact:
			if v := solver.Solve(s.Player, s.Opponent); int(s.Score) != v {
				t.Fatalf("game %d, %d empties: label %d, solver %d", s.Game, e, s.Score, v)
			}
		case e <= 8:
			// A perfect end's final score: right unless errors cancelled.
			perfect++
			if v := solver.Solve(s.Player, s.Opponent); int(s.Score) != v {
				cancelled++
				off += max(int(s.Score)-v, v-int(s.Score))
			}
		}
	}
	t.Logf("perfect-end labels at 8 empties or fewer: %d, %d not the perfect-play score, mean error %.2f discs",
		perfect, cancelled, float64(off)/float64(max(perfect, 1)))
	// The sign: at the start black is to move, so its label is black's
	// theoretical disc difference.
	if g := games[samples[0].Game]; samples[0].Player != bitboard.Start().Player || int(samples[0].Score) != 2*g.TheoryScore-64 {
		t.Fatalf("first sample %+v, theory %d", samples[0], g.TheoryScore)
	}
}

// Labelling games on several workers gives the same samples, in the same
// order, with the same counts and bad-record reports (in game order) as one
// worker.
func TestExtractWorkersAgree(t *testing.T) {
	games := append([]Game(nil), testGames(t)[:120]...)
	broken := games[5]
	broken.Source = "x.wtb: record 5"
	broken.BlackScore = (broken.BlackScore + 1) % 65
	games[5] = broken
	broken = games[77]
	broken.Source = "x.wtb: record 77"
	broken.Moves = append([]bitboard.Square{bitboard.SquareAt(0, 0)}, broken.Moves[1:]...)
	games[77] = broken
	run := func(workers int) ([]Sample, Stats, []string, int) {
		var bad []string
		calls := 0
		lb := Labeler{Solve: SolvePool(workers, 1), SolveEmpties: 10, SolveShare: 0.5, Seed: 3, Workers: workers}
		samples, st := lb.Extract(games, func(e error) { bad = append(bad, e.Error()) }, func(done, total int) {
			calls++
			if done > total {
				t.Errorf("progress %d of %d", done, total)
			}
		})
		return samples, st, bad, calls
	}
	s1, st1, bad1, _ := run(1)
	s3, st3, bad3, calls := run(3)
	if st1.Solved == 0 || st1.BadGames != 2 {
		t.Fatalf("one worker: stats %+v", st1)
	}
	if st3 != st1 || !slices.Equal(s3, s1) || !slices.Equal(bad3, bad1) {
		t.Fatalf("3 workers: stats %+v, %d samples, bad %v; one worker: %+v, %d samples, bad %v", st3, len(s3), bad3, st1, len(s1), bad1)
	}
	if calls == 0 {
		t.Fatal("no progress reported with 3 workers")
	}
}

func TestExtractReportsBadGames(t *testing.T) {
	g := testGames(t)[0]
	illegal := g
	illegal.Source = "x.wtb: record 7"
	illegal.Moves = append([]bitboard.Square{bitboard.SquareAt(0, 0)}, g.Moves[1:]...)
	wrong := g
	wrong.Source = "x.wtb: record 8"
	wrong.BlackScore = (g.BlackScore + 1) % 65
	var bad []error
	samples, st := Labeler{}.Extract([]Game{illegal, wrong}, func(e error) { bad = append(bad, e) }, nil)
	if len(samples) != 0 || st.BadGames != 2 || len(bad) != 2 {
		t.Fatalf("%d samples, stats %+v, bad %v", len(samples), st, bad)
	}
	for i, want := range []string{"record 7", "record 8"} {
		if !strings.Contains(bad[i].Error(), want) {
			t.Errorf("error %q does not name %s", bad[i], want)
		}
	}
}

func TestFitLearnsAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("fits twice")
	}
	samples, _ := Labeler{}.Extract(testGames(t)[:1500], func(error) {}, nil)
	dir := t.TempDir()
	cfg := Config{Seed: 3, HoldOut: 0.2, Epochs: 3, Optimizer: "adam", Batch: 64, Rate: 0.03, FinalRate: 0.003, L2: 1e-4, Overlap: 1}
	full, reps, err := Fit(samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 3 || reps[2].TrainAll.MAE >= reps[0].TrainAll.MAE {
		t.Fatalf("training error did not fall: %+v", reps)
	}
	if reps[2].TestAll.N == 0 || reps[2].TrainAll.N == 0 {
		t.Fatal("empty split")
	}
	// Interrupt a run with checkpoints after epoch 2 (the checkpoint is
	// written before the epoch's report), then resume it: the weights must
	// be those of the uninterrupted run.
	half := cfg
	half.Checkpoint = filepath.Join(dir, "ck")
	half.Resume = true
	half.EpochReport = func(r Report) {
		if r.Epoch == 2 {
			panic(stopFit{})
		}
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopFit); !ok {
					panic(r)
				}
			}
		}()
		Fit(samples, half)
	}()
	half.EpochReport = nil
	resumed, _, err := Fit(samples, half)
	if err != nil {
		t.Fatal(err)
	}
	if !equalWeights(full.Packed(), resumed.Packed()) {
		t.Fatal("a resumed fit differs from an uninterrupted one")
	}
	// A checkpoint made with other settings is refused.
	other := half
	other.Rate = 0.01
	if _, _, err := Fit(samples, other); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Fatalf("checkpoint with other settings: %v", err)
	}
}

type stopFit struct{}

func equalWeights(a, b []int16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSamplesFile(t *testing.T) {
	samples, _ := Labeler{}.Extract(testGames(t)[:50], func(error) {}, nil)
	path := filepath.Join(t.TempDir(), "s")
	if err := SaveSamples(path, "key", samples); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSamples(path, "key")
	if err != nil || len(got) != len(samples) || got[len(got)-1] != samples[len(samples)-1] {
		t.Fatalf("round trip: %v, %d of %d", err, len(got), len(samples))
	}
	if _, err := LoadSamples(path, "other"); err == nil {
		t.Fatal("another key accepted")
	}
	data, _ := os.ReadFile(path)
	os.WriteFile(path, data[:len(data)-3], 0o644)
	if _, err := LoadSamples(path, "key"); err == nil {
		t.Fatal("truncated file accepted")
	}
	if _, err := LoadSamples(filepath.Join(t.TempDir(), "none"), "key"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestSplitIsStable(t *testing.T) {
	n := 0
	for g := int32(0); g < 10000; g++ {
		if Split(1, g, 0.1) {
			n++
		}
		if Split(1, g, 0.1) != Split(1, g, 0.1) {
			t.Fatal("split not deterministic")
		}
	}
	if n < 900 || n > 1100 {
		t.Fatalf("%d of 10000 held out at 10%%", n)
	}
}

// Ablation options do what they say: a disabled family's weights stay 0,
// tied stages are equal, and neither stops the fit from learning.
func TestFitAblationOptions(t *testing.T) {
	games := testGames(t)
	samples, _ := Labeler{}.Extract(games[:200], func(error) {}, nil)
	cfg := Config{Seed: 1, HoldOut: 0.1, Epochs: 2, Rate: 0.03, FinalRate: 0.01, L2: 1e-4, Overlap: 1,
		Disable: []string{"row2", "parity"}, StageTie: 3, Smooth: 0.01}
	e, reps, err := Fit(samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reps[len(reps)-1].TrainAll.MAE >= reps[0].TrainAll.MAE+1 {
		t.Errorf("training error rose: %v then %v", reps[0].TrainAll.MAE, reps[len(reps)-1].TrainAll.MAE)
	}
	w := e.Packed()
	stride := eval.PackedStride()
	var f [eval.NumFeatures]int32
	nonzero := 0
	for _, s := range samples {
		st := eval.StageOf(e.Stages(), eval.Features(s.Player, s.Opponent, &f))
		for k, i := range f {
			v := w[st*stride+int(i)]
			if fam := eval.FeatureFamily(k); (fam == "row2" || fam == "parity") && v != 0 {
				t.Fatalf("disabled family %s has weight %d", fam, v)
			}
			if v != 0 {
				nonzero++
			}
			if lead := st - st%3; w[lead*stride+int(i)] != v {
				t.Fatalf("stages %d and %d are tied but differ", st, lead)
			}
		}
	}
	if nonzero == 0 {
		t.Fatal("nothing learned")
	}
	if _, _, err := Fit(samples, Config{Seed: 1, HoldOut: 0.1, Epochs: 1, Rate: 0.03, FinalRate: 0.03, Disable: []string{"nosuch"}}); err == nil {
		t.Error("unknown family: no error")
	}
}

// TestMeasureCopies checks that Measure told which samples train more
// than once reports what it reports reading the copies written out, that
// Fit gives the same weights bit for bit either way, and that Fit refuses
// copies that do not fit the samples.
func TestMeasureCopies(t *testing.T) {
	base, _ := Labeler{}.Extract(testGames(t)[:60], func(error) {}, nil)
	// WTHOR-like samples, then a block trained 3 times, more samples, a
	// block trained twice; compact holds each once, samples the copies.
	a, b, c := base[:400], base[400:700], base[700:]
	compact := slices.Concat(a, b, c)
	copies := []Copies{{From: len(a), To: len(a) + len(b), Times: 3}, {From: len(a) + len(b) + 100, To: len(compact), Times: 2}}
	samples := slices.Concat(a, b, b, b, c[:100], c[100:], c[100:])
	if n, err := checkCopies(copies, len(compact)); err != nil || n != len(samples) {
		t.Fatalf("checkCopies: %d, %v; want %d", n, err, len(samples))
	}
	// The index in compact of each written-out sample, block by block.
	var wantIdx []int32
	for _, r := range [][2]int{{0, 700}, {400, 700}, {400, 700}, {700, len(compact)}, {800, len(compact)}} {
		for j := r[0]; j < r[1]; j++ {
			wantIdx = append(wantIdx, int32(j))
		}
	}
	x := newCopyIndex(copies)
	for i := range samples {
		if j := x.of(int32(i)); j != wantIdx[i] || samples[i] != compact[j] {
			t.Fatalf("written-out sample %d: the index says sample %d, want %d", i, j, wantIdx[i])
		}
	}
	cfg := Config{Seed: 1, HoldOut: 0.1, Epochs: 2, Rate: 0.03, FinalRate: 0.01, Batch: 64, Stages: 30, Overlap: 1, Smooth: 2}
	ew, _, err := Fit(samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Copies = copies
	ec, _, err := Fit(compact, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ew.Encode(), ec.Encode()) {
		t.Error("Fit with copies named gives other weights than with them written out")
	}
	e := eval.Default()
	want := Measure(e, samples, nil, 5, 0.3, nil)
	got := Measure(e, compact, copies, 5, 0.3, nil)
	same := func(what string, x, y StageError) {
		if x.N != y.N || math.Abs(x.MAE-y.MAE) > 1e-9 {
			t.Errorf("%s: %+v with copies, %+v reading each", what, y, x)
		}
	}
	same("train", want.TrainAll, got.TrainAll)
	same("held out", want.TestAll, got.TestAll)
	if want.TestAll.N == 0 || want.TrainAll.N == 0 {
		t.Fatal("empty split")
	}
	for st := range want.Train {
		same(fmt.Sprint("train stage ", st), want.Train[st], got.Train[st])
		same(fmt.Sprint("held-out stage ", st), want.Test[st], got.Test[st])
	}
	if len(want.TestExactByEmpties) != len(got.TestExactByEmpties) {
		t.Fatalf("exact rows: %d with copies, %d reading each", len(got.TestExactByEmpties), len(want.TestExactByEmpties))
	}
	for k, x := range want.TestExactByEmpties {
		same(fmt.Sprint("exact at ", k), *x, *got.TestExactByEmpties[k])
	}
	for _, bad := range [][]Copies{
		{{From: 0, To: 10, Times: 0}},
		{{From: 10, To: 5, Times: 2}},
		{{From: len(compact) - 10, To: len(compact) + 1, Times: 2}},
		{{From: 100, To: 200, Times: 2}, {From: 150, To: 260, Times: 2}},
	} {
		if _, _, err := Fit(compact, Config{Seed: 1, HoldOut: 0.1, Epochs: 1, Copies: bad}); err == nil {
			t.Errorf("copies %v accepted", bad)
		}
	}
}

// TestFitInit checks that a fit with Config.Init starts from those
// weights: a step too small to move any weight by a unit gives them back
// unchanged, where a fit from zero gives others; that initial weights of
// other stages are refused; and that a checkpoint of a run from zero does
// not resume one from weights.
func TestFitInit(t *testing.T) {
	samples, _ := Labeler{}.Extract(testGames(t)[:60], func(error) {}, nil)
	cfg := Config{Seed: 1, HoldOut: 0.1, Epochs: 1, Rate: 0.03, FinalRate: 0.03, Batch: 64, Stages: 30, Overlap: 1, Smooth: 2}
	first, _, err := Fit(samples, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tiny := cfg
	tiny.Rate, tiny.FinalRate = 1e-9, 1e-9
	zero, _, err := Fit(samples, tiny)
	if err != nil {
		t.Fatal(err)
	}
	tiny.Init = first
	again, _, err := Fit(samples, tiny)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Encode(), first.Encode()) {
		t.Error("a fit from weights, with a step that cannot move them, changed them")
	}
	if bytes.Equal(zero.Encode(), first.Encode()) {
		t.Fatal("the fit from zero gives the initial weights: the test cannot tell")
	}
	other := tiny
	other.Stages = 15
	if _, _, err := Fit(samples, other); err == nil {
		t.Error("initial weights of 30 stages accepted by a fit of 15")
	}
	ck := filepath.Join(t.TempDir(), "fit.ck")
	fromZero := cfg
	fromZero.Checkpoint = ck
	if _, _, err := Fit(samples, fromZero); err != nil {
		t.Fatal(err)
	}
	resumed := fromZero
	resumed.Init, resumed.Resume = first, true
	if _, _, err := Fit(samples, resumed); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("checkpoint of a fit from zero resumed a fit from weights: %v", err)
	}
}
