package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/evalcheck"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/train"
	"github.com/outflank-othello/outflank/eval"
)

func TestTrainSmall(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.weights")
	stdout, _, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--max-games", "300", "--epochs", "1",
		"--solve-empties", "8", "--quiet", "--out", out)
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stdout)
	}
	for _, want := range []string{"games: 300 used", "held-out", "wrote " + out} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if _, err := eval.Load(out); err != nil {
		t.Fatal(err)
	}
}

// Self-play games (GGF, as match --games-out writes them) train alone or
// beside WTHOR; a bad record is reported and skipped.
func TestTrainSelfPlayGames(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "self.ggf")
	if _, _, err := runMatchCmd(t, "self:depth=1", "self:depth=2", "--games", "6", "--concurrency", "1", "--games-out", games); err != nil {
		t.Fatalf("match: %v", err)
	}
	f, _ := os.OpenFile(games, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("(;GM[Othello]B[a1];)\n")
	f.Close()
	out := filepath.Join(dir, "w.weights")
	stdout, stderr, err := runCmd(t, "train", "--games", games, "--epochs", "1", "--solve-share", "0", "--quiet", "--out", out)
	if err != nil {
		t.Fatalf("train: %v\n%s%s", err, stdout, stderr)
	}
	if !strings.Contains(stdout, "games: 6 used") || !strings.Contains(stderr, "self.ggf: record 7") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if _, err := eval.Load(out); err != nil {
		t.Fatal(err)
	}
}

func TestTrainBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"train"},
		{"train", "--wthor", t.TempDir()},
		{"train", "--games", filepath.Join(t.TempDir(), "missing.ggf")},
		{"train", "--wthor", "../../testdata/wthor", "--holdout", "1"},
		{"train", "--wthor", "../../testdata/wthor", "--optimizer", "lbfgs"},
		{"train", "--wthor", "../../testdata/wthor", "--overlap", "3"},
		{"train", "--wthor", "../../testdata/wthor", "--search-depth", "4", "--label-mix", "1.5"},
		{"train", "--wthor", "../../testdata/wthor", "--search-depth", "4", "--search-selectivity", "50"},
		{"train", "--wthor", "../../testdata/wthor", "--search-labels", "x.sl"},
		{"train", "--wthor", "../../testdata/wthor", "--search-depth", "4", "--shard", "3/2", "--search-labels", "x.sl"},
		{"train", "--wthor", "../../testdata/wthor", "--search-depth", "4", "--shard", "1/2"},
	} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--search-depth", "4", "--search-selfplay"}, "needs --search-depth and --selfplay"},
		{[]string{"--search-depth", "4", "--search-labels", "a.sl", "--search-partial"}, "--search-partial fits on the shards' files"},
		{[]string{"--search-depth", "4", "--search-labels", "a.sl", "--shard", "1/2", "--search-audit", "5"}, "--search-audit measures the search labels of a fit"},
		{[]string{"--search-depth", "4", "--search-audit", "5", "--search-audit-empties", "30-20"}, "--search-audit-empties \"30-20\": want N or N-M"},
		{[]string{"--search-depth", "4", "--search-max-empties", "20"}, "--search-max-empties 20 is below --search-min-empties 25"},
		{[]string{"--search-depth", "4", "--search-selfplay", "--selfplay", "x.sp", "--search-only"}, "--search-only does not go with --search-selfplay"},
	} {
		args := append([]string{"train", "--wthor", "../../testdata/wthor"}, c.args...)
		if _, _, err := runCmd(t, args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q", args, err, c.want)
		}
	}
}

func TestEvalFlagRejectsBadFile(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.weights")
	os.WriteFile(bad, []byte("OFEV not really"), 0o644)
	_, _, err := runCmd(t, "evalcheck", "--eval", bad)
	if err == nil || !strings.Contains(err.Error(), "bad.weights") {
		t.Fatalf("evalcheck with a bad weights file: %v", err)
	}
}

func TestEvalCheckFFO(t *testing.T) {
	stdout, _, err := runCmd(t, "evalcheck", "--ffo", "../../testdata/ffo/fforum-1-19.obf", "--ffo-depth", "2",
		"--games", "2", "--depth", "1", "--endgame", "8")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"FFO depth 2, A: optimal move in", "FFO depth 2, B:", "of 2: score"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestTrainSearchSolver(t *testing.T) {
	out := filepath.Join(t.TempDir(), "w.weights")
	stdout, _, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--max-games", "40", "--epochs", "1",
		"--solver", "search", "--solve-empties", "12", "--solve-share", "1", "--quiet", "--out", out)
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "the solver ") || strings.Contains(stdout, "the solver 0;") {
		t.Errorf("no solver labels:\n%s", stdout)
	}
}

// The test set is built from held-out games only, with exact labels where
// it says so, and measured back; above 24 empties a solved position joins
// its theory-labelled one, in a row of its own.
func TestEvalCheckTestSet(t *testing.T) {
	set := filepath.Join(t.TempDir(), "set.samples")
	stdout, _, err := runCmd(t, "evalcheck", "--against", "none", "--wthor", "../../testdata/wthor",
		"--testset-out", set, "--testset-games", "20", "--testset-solved", "2", "--testset-exact", "14-15,25")
	if err != nil {
		t.Fatalf("evalcheck --testset-out: %v\n%s", err, stdout)
	}
	if !strings.Contains(stdout, "from 20 held-out games") || !strings.Contains(stdout, "6 solved exactly") {
		t.Errorf("output:\n%s", stdout)
	}
	samples, err := train.LoadSamples(set, evalcheck.TestSetKey)
	if err != nil {
		t.Fatal(err)
	}
	count := map[[2]int]int{}
	for _, s := range samples {
		n, exact := s.Empties(), s.Exact
		theory := n >= 24 && n <= 40 && exact == (n == 24)
		solved := exact && (n == 14 || n == 15 || n == 25)
		if !train.Split(1, s.Game, 0.1) || !theory && !solved {
			t.Fatalf("sample of game %d at %d empties (exact %v) does not belong", s.Game, n, s.Exact)
		}
		if exact {
			count[[2]int{n, 1}]++
		} else {
			count[[2]int{n, 0}]++
		}
	}
	if count[[2]int{25, 0}] != 20 || count[[2]int{25, 1}] != 2 || count[[2]int{26, 1}] != 0 {
		t.Errorf("at 25 empties %d theory and %d exact labels, at 26 %d exact; want 20, 2, 0",
			count[[2]int{25, 0}], count[[2]int{25, 1}], count[[2]int{26, 1}])
	}
	stdout, _, err = runCmd(t, "evalcheck", "--testset", set, "--against", "simple")
	if err != nil || !strings.Contains(stdout, "     24     20 exact") ||
		!strings.Contains(stdout, "     25     20 theory") || !strings.Contains(stdout, "     25      2 exact") {
		t.Fatalf("evalcheck --testset: %v\n%s", err, stdout)
	}
	// Scored by a search: the same rows, other errors.
	stdout2, _, err := runCmd(t, "evalcheck", "--testset", set, "--against", "simple", "--testset-depth", "2")
	if err != nil || !strings.Contains(stdout2, "a depth-2 search") || !strings.Contains(stdout2, "     24     20 exact") ||
		stdout2[strings.Index(stdout2, "\n"):] == stdout[strings.Index(stdout, "\n"):] {
		t.Fatalf("evalcheck --testset-depth 2: %v\n%s", err, stdout2)
	}
	if _, _, err := runCmd(t, "evalcheck", "--testset", set, "--testset-depth", "-1"); err == nil {
		t.Error("--testset-depth -1: no error")
	}
	if _, _, err := runCmd(t, "evalcheck", "--testset-out", set); err == nil {
		t.Error("--testset-out without --wthor: no error")
	}
	for _, bad := range []string{"24", "23-25", "13", "31", "20-", "x", "20,,21"} {
		_, _, err := runCmd(t, "evalcheck", "--wthor", "../../testdata/wthor", "--testset-out", set, "--testset-exact", bad)
		if err == nil || !strings.Contains(err.Error(), "--testset-exact") {
			t.Errorf("--testset-exact %q: %v, want an error naming it", bad, err)
		}
	}
}

// A worker count out of range is refused with an error naming the flag.
func TestTrainWorkersFlag(t *testing.T) {
	for _, n := range []string{"0", "-2", "2000"} {
		_, _, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--workers", n, "--quiet")
		if err == nil || !strings.Contains(err.Error(), "--workers "+n) {
			t.Errorf("--workers %s: %v, want an error naming it", n, err)
		}
	}
}

func TestTrainAblationFlags(t *testing.T) {
	for _, args := range [][]string{
		{"train", "--wthor", "../../testdata/wthor", "--stage-tie", "7"},
		{"train", "--wthor", "../../testdata/wthor", "--optimizer", "sgd", "--smooth", "1"},
		{"train", "--wthor", "../../testdata/wthor", "--disable", "nosuchpattern", "--max-games", "20", "--epochs", "1", "--solve-share", "0", "--quiet"},
	} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
	out := filepath.Join(t.TempDir(), "w.weights")
	if _, _, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--max-games", "100", "--epochs", "1", "--solve-share", "0",
		"--disable", "row2,parity", "--stage-tie", "3", "--smooth", "0.01", "--quiet", "--out", out); err != nil {
		t.Fatal(err)
	}
	if _, err := eval.Load(out); err != nil {
		t.Fatal(err)
	}
}

// The committed test set is what eval/README.md says: 17,583 positions of
// held-out games (split seed 1), 25-40 empties labelled by the games'
// theory scores, 24 exact by theirs, and 100 each solved at 20-23, 25 and
// 26.
func TestCommittedTestSet(t *testing.T) {
	set, err := train.LoadSamples("../../eval/testdata/heldout.samples", evalcheck.TestSetKey)
	if err != nil {
		t.Fatal(err)
	}
	count, exact := map[int]int{}, map[int]int{}
	for _, s := range set {
		n := s.Empties()
		count[n]++
		if !train.Split(1, s.Game, 0.1) {
			t.Fatalf("game %d is not held out", s.Game)
		}
		if n < 20 || n > 40 || n <= 24 && !s.Exact || n > 26 && s.Exact {
			t.Fatalf("game %d: a position at %d empties, exact %v", s.Game, n, s.Exact)
		}
		if s.Exact && n != 24 {
			exact[n]++
		}
	}
	if len(set) != 17583 || count[24] != 999 || count[30] != 999 || count[25] != 1099 {
		t.Errorf("%d positions, %d at 24 empties, %d at 25, %d at 30", len(set), count[24], count[25], count[30])
	}
	for _, n := range []int{20, 21, 22, 23, 25, 26} {
		if exact[n] != 100 {
			t.Errorf("%d solved positions at %d empties, want 100", exact[n], n)
		}
	}
}

// Self-play files of "outflank selfplay" train alone (their labels need no
// solving); a damaged file is refused, not half read.
func TestTrainSelfPlayFile(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "games.sp")
	if _, _, err := runCmd(t, "selfplay", sp, "--games", "6", "--depth", "1", "--solve", "10", "--workers", "1", "--hash", "1", "--quiet"); err != nil {
		t.Fatalf("selfplay: %v", err)
	}
	out := filepath.Join(dir, "w.weights")
	stdout, stderr, err := runCmd(t, "train", "--selfplay", sp, "--epochs", "1", "--quiet", "--out", out)
	if err != nil {
		t.Fatalf("train: %v\n%s%s", err, stdout, stderr)
	}
	if !strings.Contains(stdout, "games.sp: 6 games") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if _, err := eval.Load(out); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(sp)
	os.WriteFile(sp, data[:len(data)-7], 0o644)
	if _, _, err := runCmd(t, "train", "--selfplay", sp, "--epochs", "1", "--quiet", "--out", out); err == nil {
		t.Error("a truncated self-play file was accepted")
	}
}

// The fit's threads (--workers) change its speed, never its weights: the
// same data and flags give the same file, byte for byte, with 1, 2 (a
// thread reading ahead) or 3 (threads sharing each batch).
func TestTrainWorkersSameWeights(t *testing.T) {
	dir := t.TempDir()
	var files [][]byte
	for _, w := range []string{"1", "2", "3"} {
		out := filepath.Join(dir, w+".weights")
		if stdout, stderr, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--max-games", "200", "--solve-share", "0",
			"--epochs", "2", "--stages", "30", "--smooth", "2", "--quiet", "--workers", w, "--out", out); err != nil {
			t.Fatalf("--workers %s: %v\n%s%s", w, err, stdout, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil || len(data) == 0 {
			t.Fatalf("--workers %s: %v", w, err)
		}
		files = append(files, data)
	}
	for i, w := range []string{"2", "3"} {
		if !bytes.Equal(files[0], files[i+1]) {
			t.Fatalf("--workers 1 and --workers %s wrote different weights", w)
		}
	}
}

// --solve-labels: the first run solves and writes the labels, the second
// reads them and writes the same weights; a damaged file or one made from
// other games is an error, never a fit on wrong labels.
func TestTrainSolveLabels(t *testing.T) {
	dir := t.TempDir()
	labels := filepath.Join(dir, "solve.labels.gz")
	run := func(games, out string) (string, error) {
		stdout, stderr, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--max-games", games, "--solve-empties", "10",
			"--epochs", "1", "--quiet", "--solve-labels", labels, "--out", filepath.Join(dir, out))
		return stdout + stderr, err
	}
	out, err := run("80", "a.weights")
	if err != nil || !strings.Contains(out, "written to") {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	out, err = run("80", "b.weights")
	if err != nil || !strings.Contains(out, "read from") {
		t.Fatalf("second run: %v\n%s", err, out)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.weights"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.weights"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatal("the stored labels gave other weights than the solver's")
	}
	if out, err := run("60", "c.weights"); err == nil || !strings.Contains(err.Error(), "other games") {
		t.Errorf("a labels file of other games was accepted: %v\n%s", err, out)
	}
	data, _ := os.ReadFile(labels)
	os.WriteFile(labels, data[:len(data)-9], 0o644)
	if out, err := run("80", "d.weights"); err == nil || !strings.Contains(err.Error(), "solver labels file") {
		t.Errorf("a truncated labels file was accepted: %v\n%s", err, out)
	}
}

// Search labels: two shards labelled separately and merged give the same
// weights file, byte for byte, as one run that labels everything; a run
// resumed from a finished labels file searches nothing.
func TestTrainSearchLabels(t *testing.T) {
	dir := t.TempDir()
	common := []string{"train", "--wthor", "../../testdata/wthor", "--max-games", "100", "--solve-share", "0", "--epochs", "1",
		"--quiet", "--search-depth", "2", "--search-every", "5", "--label-mix", "0.7"}
	run := func(args ...string) string {
		t.Helper()
		stdout, stderr, err := runCmd(t, append(slices.Clone(common), args...)...)
		if err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, stdout, stderr)
		}
		return stdout
	}
	one := filepath.Join(dir, "one.sl")
	stdout := run("--search-labels", one, "--out", filepath.Join(dir, "one.weights"))
	toSearch := regexp.MustCompile(`search labels: (\d+) positions to search`).FindStringSubmatch(stdout)
	if toSearch == nil || !strings.Contains(stdout, "blended with λ = 0.7") {
		t.Fatalf("output:\n%s", stdout)
	}
	stdout = run("--search-labels", one, "--out", filepath.Join(dir, "again.weights"))
	if !strings.Contains(stdout, "already searched") || strings.Contains(stdout, "searched 1") {
		t.Errorf("a finished labels file was searched again:\n%s", stdout)
	}
	// A run cut short (--search-limit) reads a prefix of a longer run's
	// file without searching or shortening it.
	before, _ := os.ReadFile(one)
	stdout = run("--search-labels", one, "--search-limit", "10", "--out", filepath.Join(dir, "prefix.weights"))
	if after, _ := os.ReadFile(one); !bytes.Equal(before, after) || !strings.Contains(stdout, "search labels: 10 positions") {
		t.Errorf("--search-limit 10 changed the labels file or used other labels:\n%s", stdout)
	}
	s1, s2 := filepath.Join(dir, "s1.sl"), filepath.Join(dir, "s2.sl")
	run("--search-labels", s1, "--shard", "1/2")
	run("--search-labels", s2, "--shard", "2/2")
	run("--search-labels", s1+","+s2, "--out", filepath.Join(dir, "merged.weights"))
	a, _ := os.ReadFile(filepath.Join(dir, "one.weights"))
	b, _ := os.ReadFile(filepath.Join(dir, "again.weights"))
	c, _ := os.ReadFile(filepath.Join(dir, "merged.weights"))
	if len(a) == 0 || !bytes.Equal(a, b) || !bytes.Equal(a, c) {
		t.Fatal("the same labels and flags gave different weights files")
	}
	// Shard files given in the wrong order are refused (their keys name
	// their shard).
	if _, _, err := runCmd(t, append(slices.Clone(common), "--search-labels", s2+","+s1)...); err == nil {
		t.Error("shard files in the wrong order were accepted")
	}
	// --search-partial fits on what the shards hold so far: with both
	// shards whole it changes nothing; with shard 2 not begun the fit uses
	// shard 1's labels alone, which a fit without the flag refuses.
	run("--search-labels", s1+","+s2, "--search-partial", "--out", filepath.Join(dir, "partial-whole.weights"))
	if d, _ := os.ReadFile(filepath.Join(dir, "partial-whole.weights")); !bytes.Equal(a, d) {
		t.Error("--search-partial on whole shards gave other weights")
	}
	missing := filepath.Join(dir, "not-begun.sl")
	if _, _, err := runCmd(t, append(slices.Clone(common), "--search-labels", s1+","+missing, "--out", filepath.Join(dir, "x.weights"))...); err == nil {
		t.Error("a shard's missing file was accepted without --search-partial")
	}
	stdout = run("--search-labels", s1+","+missing, "--search-partial", "--out", filepath.Join(dir, "partial.weights"))
	if !regexp.MustCompile(`shard 2/2, 0 of its \d+ positions searched so far`).MatchString(stdout) {
		t.Errorf("--search-partial did not say what shard 2 holds:\n%s", stdout)
	}
	if d, _ := os.ReadFile(filepath.Join(dir, "partial.weights")); len(d) == 0 || bytes.Equal(a, d) {
		t.Error("--search-partial with one shard of two gave the weights of both")
	}
	// A shard's file in another shard's place is refused, partial or not.
	if _, _, err := runCmd(t, append(slices.Clone(common), "--search-labels", missing+","+s1, "--search-partial")...); err == nil {
		t.Error("--search-partial accepted shard 1's file as shard 2's")
	}
	// Self-play positions carry their own labels (--selfplay-label): the
	// search picks the WTHOR positions alone, so the labels file made
	// without them serves a fit with them, and nothing is searched again.
	sp := filepath.Join(dir, "games.sp")
	if _, _, err := runCmd(t, "selfplay", sp, "--games", "4", "--depth", "1", "--solve", "10", "--workers", "1", "--hash", "1", "--quiet"); err != nil {
		t.Fatalf("selfplay: %v", err)
	}
	stdout = run("--search-labels", one, "--selfplay", sp, "--out", filepath.Join(dir, "sp.weights"))
	if !strings.Contains(stdout, "games.sp: 4 games") || strings.Contains(stdout, "searched 1") ||
		!strings.Contains(stdout, toSearch[0]+fmt.Sprintf(" (depth 2, selectivity 73), %s already searched", toSearch[1])) {
		t.Errorf("with self-play games, want the same positions to search, all already searched:\n%s", stdout)
	}
	// --search-selfplay searches the self-play positions within the
	// empties bounds instead, and its shards merge to one run's weights.
	spArgs := []string{"--selfplay", sp, "--search-selfplay", "--search-every", "1", "--search-min-empties", "30", "--search-max-empties", "50"}
	spRun := func(args ...string) string {
		t.Helper()
		return run(append(slices.Clone(spArgs), args...)...)
	}
	spOne := filepath.Join(dir, "sp-one.sl")
	stdout = spRun("--search-labels", spOne, "--out", filepath.Join(dir, "sp-one.weights"))
	spSearch := regexp.MustCompile(`search labels: (\d+) positions to search`).FindStringSubmatch(stdout)
	if spSearch == nil || spSearch[1] == "0" || spSearch[1] == toSearch[1] || !strings.Contains(stdout, "mean |search - game label|") {
		t.Fatalf("--search-selfplay, output:\n%s", stdout)
	}
	// 4 games of at most 60 positions: some 20 each in 30-50 empties.
	if n, _ := strconv.Atoi(spSearch[1]); n > 4*21 {
		t.Errorf("%d self-play positions to search: more than 4 games hold within 30-50 empties", n)
	}
	sp1, sp2 := filepath.Join(dir, "sp1.sl"), filepath.Join(dir, "sp2.sl")
	spRun("--search-labels", sp1, "--shard", "1/2")
	spRun("--search-labels", sp2, "--shard", "2/2")
	spRun("--search-labels", sp1+","+sp2, "--out", filepath.Join(dir, "sp-merged.weights"))
	spRun("--search-labels", spOne, "--label-mix", "0", "--out", filepath.Join(dir, "sp-none.weights"))
	a, _ = os.ReadFile(filepath.Join(dir, "sp-one.weights"))
	b, _ = os.ReadFile(filepath.Join(dir, "sp-merged.weights"))
	c, _ = os.ReadFile(filepath.Join(dir, "sp-none.weights"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Error("--search-selfplay: the merged shards gave other weights than one run")
	}
	if bytes.Equal(a, c) {
		t.Error("--search-selfplay: the search labels changed nothing (the same weights as --label-mix 0)")
	}
	// --search-audit solves some searched positions and reports the
	// labels' errors instead of fitting.
	auditOut := filepath.Join(dir, "audit.weights")
	stdout = spRun("--search-min-empties", "12", "--search-max-empties", "16", "--search-labels", filepath.Join(dir, "audit.sl"),
		"--search-audit", "3", "--search-audit-empties", "12-16", "--out", auditOut)
	if !strings.Contains(stdout, "search labels audited: 3 positions solved exactly") ||
		!regexp.MustCompile(`(?m)^all +3 +[0-9.]+ +[0-9.]+ `).MatchString(stdout) {
		t.Errorf("--search-audit, output:\n%s", stdout)
	}
	if _, err := os.Stat(auditOut); err == nil {
		t.Error("--search-audit fitted and wrote weights")
	}
	// --search-spread: with a third searched, the others within a ply take
	// their neighbour's label; the audit then measures those.
	spreadArgs := []string{"--search-every", "3", "--search-min-empties", "12", "--search-max-empties", "30",
		"--search-labels", filepath.Join(dir, "spread.sl"), "--search-spread", "1"}
	stdout = spRun(append(slices.Clone(spreadArgs), "--out", filepath.Join(dir, "spread.weights"))...)
	spreadN := regexp.MustCompile(`search labels spread: (\d+) unsearched positions`).FindStringSubmatch(stdout)
	if spreadN == nil || spreadN[1] == "0" {
		t.Fatalf("--search-spread 1, output:\n%s", stdout)
	}
	spRun(append(slices.Clone(spreadArgs), "--search-spread", "0", "--out", filepath.Join(dir, "nospread.weights"))...)
	a, _ = os.ReadFile(filepath.Join(dir, "spread.weights"))
	b, _ = os.ReadFile(filepath.Join(dir, "nospread.weights"))
	if len(a) == 0 || bytes.Equal(a, b) {
		t.Error("--search-spread 1 gave the weights of no spread")
	}
	stdout = spRun(append(slices.Clone(spreadArgs), "--search-audit", "2", "--search-audit-empties", "12-16")...)
	if !strings.Contains(stdout, "spread labels audited: 2 positions") {
		t.Errorf("--search-audit with --search-spread, output:\n%s", stdout)
	}
	// The labels file of the WTHOR search is not one of the self-play's.
	if _, _, err := runCmd(t, append(append(slices.Clone(common), spArgs...), "--search-labels", one)...); err == nil {
		t.Error("--search-selfplay accepted the labels file of the WTHOR positions")
	}
}

// TestTrainSelfPlayGrowing: a self-play job still running (no end record)
// trains on its whole games, and the label cache (--samples) holds only the
// labels that cost solving, so a file that has grown since is read whole,
// not stale from the cache.
func TestTrainSelfPlayGrowing(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "games.sp")
	gen := func(games string) {
		t.Helper()
		if _, _, err := runCmd(t, "selfplay", sp, "--games", games, "--depth", "1", "--solve", "10", "--workers", "1", "--hash", "1", "--block", "2", "--quiet"); err != nil {
			t.Fatalf("selfplay: %v", err)
		}
	}
	gen("4")
	data, _ := os.ReadFile(sp)
	const endRecord = 20 // OFSE, games u64, blocks u32, CRC u32
	os.WriteFile(sp, data[:len(data)-endRecord], 0o644)
	out := filepath.Join(dir, "w.weights")
	cache := filepath.Join(dir, "samples")
	train := func() string {
		t.Helper()
		stdout, stderr, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--max-games", "50", "--solve-share", "0",
			"--samples", cache, "--selfplay", sp, "--epochs", "1", "--quiet", "--out", out)
		if err != nil {
			t.Fatalf("train: %v\n%s%s", err, stdout, stderr)
		}
		return stdout
	}
	if got := train(); !strings.Contains(got, "games.sp: 4 games") || !strings.Contains(got, "still running") {
		t.Errorf("an unfinished self-play file:\n%s", got)
	}
	// A longer job over the same games: the file grows.
	os.Remove(sp)
	gen("8")
	got := train()
	if !strings.Contains(got, "read from") || !strings.Contains(got, "games.sp: 8 games") {
		t.Errorf("after the file grew, want the cache's WTHOR labels and 8 self-play games:\n%s", got)
	}
}

// TestTrainFinerStages: --stages writes weights of that many stages, which
// the engine loads and plays with; a count that does not divide 60 is
// refused.
func TestTrainFinerStages(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w30.weights")
	if stdout, stderr, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--max-games", "200", "--solve-share", "0",
		"--stages", "30", "--smooth", "0.1", "--epochs", "1", "--quiet", "--out", out); err != nil {
		t.Fatalf("train: %v\n%s%s", err, stdout, stderr)
	}
	ev, err := eval.Load(out)
	if err != nil || ev.Stages() != 30 {
		t.Fatalf("load: %v, %d stages", err, ev.Stages())
	}
	if _, stderr, err := runCmd(t, "evalcheck", "--eval", out, "--games", "2", "--depth", "2"); err != nil {
		t.Fatalf("evalcheck with 30 stages: %v\n%s", err, stderr)
	}
	if _, _, err := runCmd(t, "train", "--wthor", "../../testdata/wthor", "--stages", "7", "--out", out); err == nil || !strings.Contains(err.Error(), "--stages 7") {
		t.Errorf("--stages 7: %v", err)
	}
}

// A truncated WTHOR file is used for its whole records, and said so: it
// was reported as "skipped" and counted as a bad record, yet its games
// were trained on.
func TestTrainTruncatedWTHOR(t *testing.T) {
	data, err := os.ReadFile("../../testdata/wthor/WTH_2025.wtb")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "WTH_2025.wtb"), data[:16+68*200+30], 0o644)
	stdout, stderr, err := runCmd(t, "train", "--wthor", dir, "--epochs", "1", "--solve-empties", "8", "--quiet",
		"--out", filepath.Join(dir, "w.weights"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "note: ") || !strings.Contains(stderr, "its 200 whole records are read") || strings.Contains(stderr, "skipped") ||
		!strings.Contains(stdout, "games: 200 used, 0 unfinished, 0 bad records skipped") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
}

// TestTrainSelfPlayWeight: --selfplay-weight N trains every self-play
// position N times, copies of a game staying on its side of the held-out
// split (the training and held-out counts both grow N times).
func TestTrainSelfPlayWeight(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "games.sp")
	if _, _, err := runCmd(t, "selfplay", sp, "--games", "6", "--depth", "1", "--solve", "10", "--workers", "1", "--hash", "1", "--quiet"); err != nil {
		t.Fatalf("selfplay: %v", err)
	}
	allRow := func(w string) (train, held int) {
		t.Helper()
		stdout, stderr, err := runCmd(t, "train", "--selfplay", sp, "--selfplay-weight", w, "--holdout", "0.3", "--epochs", "1", "--quiet", "--out", filepath.Join(dir, "w"+w))
		if err != nil {
			t.Fatalf("train: %v\n%s", err, stderr)
		}
		for _, l := range strings.Split(stdout, "\n") {
			var a, b float64
			if _, err := fmt.Sscanf(l, "all %d %f %d %f", &train, &a, &held, &b); err == nil {
				return train, held
			}
		}
		t.Fatalf("no error table:\n%s", stdout)
		return 0, 0
	}
	t1, h1 := allRow("1")
	t3, h3 := allRow("3")
	if t1 == 0 || t3 != 3*t1 || h3 != 3*h1 {
		t.Errorf("weight 3: %d training and %d held-out positions, weight 1: %d and %d", t3, h3, t1, h1)
	}
	if _, _, err := runCmd(t, "train", "--selfplay", sp, "--selfplay-weight", "0"); err == nil {
		t.Error("--selfplay-weight 0 accepted")
	}
}

// TestTrainSelfPlayFirstGames: --selfplay-games N fits exactly the job's first N
// games, whatever else the file holds by then: the same weights, byte for
// byte, as a fit on a file of those N games alone (the job is decided by its
// seed, so its first games are the same in both files); with several files,
// one N per file.
func TestTrainSelfPlayFirstGames(t *testing.T) {
	dir := t.TempDir()
	gen := func(name, games string) string {
		t.Helper()
		sp := filepath.Join(dir, name)
		if _, _, err := runCmd(t, "selfplay", sp, "--games", games, "--depth", "1", "--solve", "10", "--workers", "1", "--hash", "1", "--quiet"); err != nil {
			t.Fatalf("selfplay: %v", err)
		}
		return sp
	}
	fit := func(sp, out string, flags ...string) (string, []byte) {
		t.Helper()
		args := append([]string{"train", "--selfplay", sp, "--epochs", "1", "--quiet", "--out", filepath.Join(dir, out)}, flags...)
		stdout, stderr, err := runCmd(t, args...)
		if err != nil {
			t.Fatalf("train: %v\n%s", err, stderr)
		}
		b, err := os.ReadFile(filepath.Join(dir, out))
		if err != nil {
			t.Fatal(err)
		}
		return stdout, b
	}
	three, six := gen("three.sp", "3"), gen("six.sp", "6")
	_, want := fit(three, "a")
	stdout, got := fit(six, "b", "--selfplay-games", "3")
	if !bytes.Equal(got, want) {
		t.Error("--selfplay-games 3 on six games: other weights than a fit on the first three")
	}
	if !strings.Contains(stdout, ": 3 games, ") || !strings.Contains(stdout, "job indices below 3") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if _, all := fit(six, "c"); bytes.Equal(all, want) {
		t.Error("six games fit the same weights as three: the test cannot tell")
	}

	// One N per file, in the files' order (0: all of that file's games).
	_, want2 := fit(three, "d", "--selfplay", six)
	_, got2 := fit(six, "e", "--selfplay", six, "--selfplay-games", "3,0")
	if !bytes.Equal(got2, want2) {
		t.Error("--selfplay-games 3,0 on two six-game files: other weights than a fit on three and six games")
	}
	if _, _, err := runCmd(t, "train", "--selfplay", six, "--selfplay", six, "--selfplay-games", "3,3,3", "--out", filepath.Join(dir, "f")); err == nil || !strings.Contains(err.Error(), "3 values for 2 --selfplay files") {
		t.Errorf("three counts for two files: %v", err)
	}
	if _, _, err := runCmd(t, "train", "--selfplay", six, "--selfplay-games", "-1", "--out", filepath.Join(dir, "f")); err == nil {
		t.Error("--selfplay-games -1 accepted")
	}
}
