package train

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/eval"
)

// relabelSamples labels a few committed WTHOR games (no solver).
func relabelSamples(t *testing.T) []Sample {
	t.Helper()
	samples, _ := Labeler{}.Extract(testGames(t)[:60], func(e error) { t.Fatal(e) }, nil)
	return samples
}

func TestRelabelPick(t *testing.T) {
	samples := relabelSamples(t)
	r := Relabel{Depth: 2, Selectivity: 100, MinEmpties: 25, Every: 3, Seed: 1, HoldOut: 0.1, Shard: 1, Of: 1}
	all := r.Pick(samples)
	if len(all) == 0 {
		t.Fatal("nothing picked")
	}
	eligible := 0
	var byEmpties, pickedBy [61]int
	for i, s := range samples {
		ok := !s.Exact && s.Empties() >= 25 && !Split(1, s.Game, 0.1)
		if ok {
			eligible++
			byEmpties[s.Empties()]++
		}
		if slices.Contains(all, int32(i)) {
			if !ok {
				t.Fatalf("picked sample %d: exact %v, %d empties, game %d", i, s.Exact, s.Empties(), s.Game)
			}
			pickedBy[s.Empties()]++
		}
	}
	if share := float64(len(all)) / float64(eligible); share < 0.3 || share > 0.37 {
		t.Fatalf("picked %d of %d eligible with Every 3: want about a third", len(all), eligible)
	}
	// Every empties count gets about its third (these games' positions at
	// 25-60 empties, 36 a game, would give every third position in order
	// to one empties count in three).
	for e, n := range byEmpties {
		if n >= 40 {
			if share := float64(pickedBy[e]) / float64(n); share < 0.15 || share > 0.52 {
				t.Errorf("%d empties: %d of %d eligible positions picked", e, pickedBy[e], n)
			}
		}
	}
	// The shards partition the selection.
	var union []int32
	for k := 1; k <= 3; k++ {
		r.Shard, r.Of = k, 3
		union = append(union, r.Pick(samples)...)
	}
	slices.Sort(union)
	if !slices.Equal(union, all) {
		t.Fatalf("shards pick %d positions, the whole selection %d", len(union), len(all))
	}
}

// TestRelabelBounds: MaxEmpties and MinGame narrow the pick to the
// positions within the empties and of the games named, and to all of them.
func TestRelabelBounds(t *testing.T) {
	samples := relabelSamples(t)
	minGame := samples[len(samples)/2].Game
	r := Relabel{MinEmpties: 28, MaxEmpties: 40, MinGame: minGame, Every: 1, Seed: 1, HoldOut: 0.1, Shard: 1, Of: 1}
	got := r.Pick(samples)
	var want []int32
	for i, s := range samples {
		if e := s.Empties(); !s.Exact && e >= 28 && e <= 40 && s.Game >= minGame && !Split(1, s.Game, 0.1) {
			want = append(want, int32(i))
		}
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("picked %d positions, want %d", len(got), len(want))
	}
	r.MaxEmpties, r.MinGame = 0, 0
	if n := len(r.Pick(samples)); n <= len(want) {
		t.Fatalf("without the bounds %d positions picked, with them %d", n, len(want))
	}
}

// TestSearchLabelsResume checks that labelling is reproducible: an
// interrupted run resumed from its file, and shards, give the labels of an
// uninterrupted run, and the scores are those of a fresh search.
func TestSearchLabelsResume(t *testing.T) {
	samples := relabelSamples(t)
	r := Relabel{Depth: 3, Selectivity: 73, MinEmpties: 25, Every: 7, Seed: 1, HoldOut: 0.1, Shard: 1, Of: 1}
	idx := r.Pick(samples)
	whole, err := NewSearcher(eval.Default(), r).Label(context.Background(), samples, idx, nil, time.Hour, nil, nil)
	if err != nil || len(whole) != len(idx) {
		t.Fatalf("%d labels of %d, %v", len(whole), len(idx), err)
	}
	fresh := NewSearcher(eval.Default(), r)
	for _, l := range whole[:5] {
		if got := fresh.Score(samples[l.Index].Player, samples[l.Index].Opponent); got != l.Score {
			t.Fatalf("position %d: %d in the run, %d searched alone", l.Index, l.Score, got)
		}
	}

	path := filepath.Join(t.TempDir(), "x.sl")
	const key = "test key"
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	save := func(ls []SearchLabel) error { return SaveSearchLabels(path, key, ls) }
	part, err := NewSearcher(eval.Default(), r).Label(ctx, samples, idx, nil, time.Nanosecond,
		func(ls []SearchLabel) error {
			if n++; n == len(idx)/2 {
				cancel() // interrupted half-way
			}
			return save(ls)
		}, nil)
	if err != nil || len(part) >= len(idx) || len(part) == 0 {
		t.Fatalf("interrupted run: %d labels of %d, %v", len(part), len(idx), err)
	}
	loaded, err := LoadSearchLabels(path, key)
	if err != nil || len(loaded) != len(part) {
		t.Fatalf("loaded %d labels, %v", len(loaded), err)
	}
	resumed, err := NewSearcher(eval.Default(), r).Label(context.Background(), samples, idx, loaded, time.Hour, save, nil)
	if err != nil || !slices.Equal(resumed, whole) {
		t.Fatalf("resumed run differs from the uninterrupted one (%v)", err)
	}

	var sharded []SearchLabel
	for k := 1; k <= 2; k++ {
		rs := r
		rs.Shard, rs.Of = k, 2
		ls, err := NewSearcher(eval.Default(), rs).Label(context.Background(), samples, rs.Pick(samples), nil, time.Hour, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		sharded = append(sharded, ls...)
	}
	slices.SortFunc(sharded, func(a, b SearchLabel) int { return int(a.Index - b.Index) })
	if !slices.Equal(sharded, whole) {
		t.Fatal("the shards' labels differ from the whole run's")
	}

	// A file made for another selection is refused, not resumed.
	if _, err := NewSearcher(eval.Default(), r).Label(context.Background(), samples, idx[1:], loaded, time.Hour, nil, nil); err == nil {
		t.Fatal("labels of another selection were accepted")
	}
}

func TestSearchLabelsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.sl")
	labels := []SearchLabel{{3, -12}, {7, 64}, {100000, -64}, {5, 0}}
	if err := SaveSearchLabels(path, "k", labels); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSearchLabels(path, "k")
	if err != nil || !slices.Equal(got, labels) {
		t.Fatalf("read back %v, %v", got, err)
	}
	if _, err := LoadSearchLabels(path, "other"); err == nil || !strings.Contains(err.Error(), "other samples") {
		t.Fatalf("another key: %v", err)
	}
	data, _ := os.ReadFile(path)
	for _, cut := range []int{0, 3, 10, len(data) / 2, len(data) - 1} {
		os.WriteFile(path, data[:cut], 0o644)
		if _, err := LoadSearchLabels(path, "k"); err == nil {
			t.Fatalf("file cut at %d bytes was read", cut)
		}
	}
	for i := range data {
		d := slices.Clone(data)
		d[i] ^= 0x10
		os.WriteFile(path, d, 0o644)
		if _, err := LoadSearchLabels(path, "k"); err == nil {
			t.Fatalf("file damaged at byte %d was read", i)
		}
	}
}

func TestBlend(t *testing.T) {
	samples := []Sample{{Score: 10}, {Score: -20}, {Score: 64}}
	got, err := Blend(samples, []SearchLabel{{0, 20}, {2, -64}}, 0.75)
	if err != nil {
		t.Fatal(err)
	}
	// 0.75·20 + 0.25·10 = 17.5 → 18; -64·0.75 + 64·0.25 = -32.
	if got[0].Score != 18 || got[1].Score != -20 || got[2].Score != -32 {
		t.Fatalf("blended %d %d %d", got[0].Score, got[1].Score, got[2].Score)
	}
	if samples[0].Score != 10 {
		t.Fatal("Blend changed its input")
	}
	if _, err := Blend(samples, []SearchLabel{{3, 0}}, 0.5); err == nil {
		t.Fatal("a label past the samples was accepted")
	}
}

func TestDropUnsearched(t *testing.T) {
	samples := relabelSamples(t)
	r := Relabel{MinEmpties: 25, Every: 5, Seed: 1, HoldOut: 0.1, Shard: 1, Of: 1}
	idx := r.Pick(samples)
	labels := make([]SearchLabel, len(idx))
	for j, i := range idx {
		labels[j] = SearchLabel{Index: i}
	}
	kept := r.DropUnsearched(samples, labels)
	eligible := 0
	for i := range samples {
		if r.Eligible(&samples[i]) {
			eligible++
		}
	}
	if len(kept) != len(samples)-eligible+len(idx) {
		t.Fatalf("%d kept of %d (%d eligible, %d searched)", len(kept), len(samples), eligible, len(idx))
	}
	for _, s := range kept {
		if r.Eligible(&s) && !slices.ContainsFunc(idx, func(i int32) bool { return samples[i] == s }) {
			t.Fatal("an unsearched eligible position was kept")
		}
	}
}

// TestRelabelSpread: with a label that is one value per game for black
// and its negation for white, every spread label must come out as the
// value of its own game and side to move; with Every 3 and one ply, nearly
// every eligible position not searched gets one.
func TestRelabelSpread(t *testing.T) {
	samples := relabelSamples(t)
	r := Relabel{MinEmpties: 25, Every: 3, Seed: 1, HoldOut: 0.1, Shard: 1, Of: 1}
	// Black is to move at an even empties count (no passes in these
	// games' first 35 moves).
	value := func(s *Sample) int8 {
		v := int8(s.Game%7 + 1)
		if s.Empties()%2 == 1 {
			v = -v
		}
		return v
	}
	var labels []SearchLabel
	searched := map[int32]bool{}
	for _, i := range r.Pick(samples) {
		labels = append(labels, SearchLabel{Index: i, Score: value(&samples[i])})
		searched[i] = true
	}
	if got := r.Spread(samples, labels, 0); got != nil {
		t.Fatalf("k 0 spread %d labels", len(got))
	}
	spread := r.Spread(samples, labels, 1)
	eligible := 0
	for i := range samples {
		if r.Eligible(&samples[i]) {
			eligible++
		}
	}
	if want := eligible - len(labels); len(spread) < want*9/10 || len(spread) > want {
		t.Fatalf("%d labels spread to the %d eligible positions not searched", len(spread), want)
	}
	for _, l := range spread {
		s := &samples[l.Index]
		if searched[l.Index] || !r.Eligible(s) {
			t.Fatalf("a label spread to position %d: searched %v, eligible %v", l.Index, searched[l.Index], r.Eligible(s))
		}
		if l.Score != value(s) {
			t.Fatalf("position %d (game %d, %d empties) got %d, want %d", l.Index, s.Game, s.Empties(), l.Score, value(s))
		}
	}
	// Two plies reach no further here (every position is within one of a
	// searched one), and add nothing.
	if two := r.Spread(samples, labels, 2); len(two) < len(spread) {
		t.Fatalf("k 2 spread %d labels, k 1 %d", len(two), len(spread))
	}
}
