package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// The command's games (XOT openings, the real search) are whole legal games
// whose stored score is the solver's value where the solver took over;
// shards merge into the whole run.
func TestSelfplayCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--games", "4", "--seed", "3", "--solve", "12", "--depth", "2", "--hash", "4", "--block", "2", "--quiet"}
	whole := filepath.Join(dir, "whole.sp")
	if _, stderr, err := runCmd(t, append([]string{"selfplay", whole, "--workers", "2"}, args...)...); err != nil {
		t.Fatalf("selfplay: %v\n%s", err, stderr)
	}
	h, games, err := selfplay.ReadFile(whole)
	if err != nil || len(games) != 4 {
		t.Fatalf("read: %d games, %v", len(games), err)
	}
	if !strings.Contains(h.Params, "openings=xot:10784:") || !strings.Contains(h.Params, "solve=12") {
		t.Errorf("params %q", h.Params)
	}
	eng := search.New(search.Options{HashMB: 4, Eval: eval.Simple{}})
	for _, g := range games {
		pos, err := g.Positions()
		if err != nil {
			t.Fatal(err)
		}
		if g.Opening != 8 || g.Solved == len(g.Moves) {
			t.Errorf("game %d: %d opening moves, solved at move %d of %d", g.Index, g.Opening, g.Solved, len(g.Moves))
			continue
		}
		p := pos[g.Solved]
		info := eng.Search(context.Background(), p, search.Limits{EndgameEmpties: 60}, nil)
		if p.ToMove == bitboard.White {
			info.Score = -info.Score
		}
		if p.Empties() > 12 || !info.Exact || info.Score != g.Score {
			t.Errorf("game %d: solve point at %d empties, solver %+d (exact %v), stored %+d", g.Index, p.Empties(), info.Score, info.Exact, g.Score)
		}
	}

	var shards []string
	for _, k := range []string{"1/2", "2/2"} {
		out := filepath.Join(dir, "shard"+k[:1]+".sp")
		if _, stderr, err := runCmd(t, append([]string{"selfplay", out, "--shard", k, "--workers", "1"}, args...)...); err != nil {
			t.Fatalf("selfplay --shard %s: %v\n%s", k, err, stderr)
		}
		shards = append(shards, out)
	}
	merged := filepath.Join(dir, "merged.sp")
	stdout, _, err := runCmd(t, append([]string{"selfplay", "merge", merged, "--block", "2"}, shards...)...)
	if err != nil || !strings.Contains(stdout, "4 games") {
		t.Fatalf("merge: %v\n%s", err, stdout)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(merged)
	if string(a) != string(b) {
		t.Error("merged shards differ from the whole run")
	}
	// A shard without its end record (a stopped run) merges only on request.
	s1, _ := os.ReadFile(shards[0])
	os.WriteFile(shards[0], s1[:len(s1)-20], 0o644)
	merged2 := filepath.Join(dir, "merged2.sp")
	if _, _, err := runCmd(t, append([]string{"selfplay", "merge", merged2}, shards...)...); err == nil || !strings.Contains(err.Error(), "--unfinished") {
		t.Errorf("merge of an unfinished shard: %v", err)
	}
	if _, _, err := runCmd(t, append([]string{"selfplay", "merge", merged2, "--block", "2", "--unfinished"}, shards...)...); err != nil {
		t.Errorf("merge --unfinished: %v", err)
	} else if c, _ := os.ReadFile(merged2); string(c) != string(a) {
		t.Error("merge --unfinished of all the games differs from the whole run")
	}
	stdout, _, err = runCmd(t, "selfplay", "check", whole, merged)
	if err != nil || strings.Count(stdout, "complete, 4 of 4 games") != 2 || !strings.Contains(stdout, "4 games carry their searched moves' evaluations") {
		t.Errorf("check: %v\n%s", err, stdout)
	}
	// --labels tabulates the labels' spread by empties: one row a band of
	// 5 empties from the solve point up, and every searched position in one.
	stdout, _, err = runCmd(t, "selfplay", "check", "--labels", whole)
	if err != nil || !strings.Contains(stdout, "|corrected-score| (rms)") {
		t.Fatalf("check --labels: %v\n%s", err, stdout)
	}
	_, spGames, _ := selfplay.ReadFile(whole)
	searched, rows := 0, 0
	for _, g := range spGames {
		searched += len(g.Evals)
	}
	for _, line := range strings.Split(stdout, "\n") {
		var lo, hi, n int
		if k, _ := fmt.Sscanf(strings.TrimSpace(line), "%d-%d %d", &lo, &hi, &n); k == 3 {
			rows++
			searched -= n
			if hi != lo+4 || lo%5 != 1 {
				t.Errorf("band %d-%d", lo, hi)
			}
		}
	}
	if rows == 0 || searched != 0 {
		t.Errorf("%d rows; positions left uncounted: %d\n%s", rows, searched, stdout)
	}
	os.WriteFile(merged, b[:len(b)-30], 0o644)
	stdout, _, err = runCmd(t, "selfplay", "check", merged)
	if err == nil || !strings.Contains(stdout, "BAD") {
		t.Errorf("check of a damaged file: %v\n%s", err, stdout)
	}
}

// --bounded scores only the moves the softmax can choose exactly, so it
// plays the same games as the full scores; it is part of the job's level,
// so a run cannot continue a file of the other kind.
func TestSelfplayBounded(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--games", "6", "--seed", "5", "--solve", "12", "--depth", "4", "--hash", "4", "--workers", "2", "--quiet"}
	full, bnd := filepath.Join(dir, "full.sp"), filepath.Join(dir, "bounded.sp")
	if _, stderr, err := runCmd(t, append([]string{"selfplay", full}, args...)...); err != nil {
		t.Fatalf("selfplay: %v\n%s", err, stderr)
	}
	if _, stderr, err := runCmd(t, append([]string{"selfplay", bnd, "--bounded"}, args...)...); err != nil {
		t.Fatalf("selfplay --bounded: %v\n%s", err, stderr)
	}
	hf, gf, err := selfplay.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	hb, gb, err := selfplay.ReadFile(bnd)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(hf.Params, "margin:") || !strings.Contains(hb.Params, ",margin:14\"") {
		t.Errorf("levels: %q and %q", hf.Params, hb.Params)
	}
	if len(gf) != 6 || len(gb) != 6 {
		t.Fatalf("%d and %d games", len(gf), len(gb))
	}
	for i := range gf {
		if !reflect.DeepEqual(gf[i], gb[i]) {
			t.Errorf("game %d differs:\n%+v\n%+v", i, gf[i], gb[i])
		}
	}
	// The same command on its own finished file is fine; with --bounded
	// added, only the level differs, and the file refuses it.
	if _, stderr, err := runCmd(t, append([]string{"selfplay", full}, args...)...); err != nil {
		t.Fatalf("selfplay again on its finished file: %v\n%s", err, stderr)
	}
	if _, _, err := runCmd(t, append([]string{"selfplay", full, "--bounded"}, args...)...); err == nil || !strings.Contains(err.Error(), "margin:14") {
		t.Errorf("a bounded run on a file of full scores: %v", err)
	}
}

// --final-multipv plays whole games, and says so in the level.
func TestSelfplayFinalMultiPV(t *testing.T) {
	out := filepath.Join(t.TempDir(), "final.sp")
	if _, stderr, err := runCmd(t, "selfplay", out, "--games", "4", "--seed", "5", "--solve", "12", "--depth", "4", "--hash", "4", "--workers", "2", "--quiet", "--bounded", "--final-multipv"); err != nil {
		t.Fatalf("selfplay: %v\n%s", err, stderr)
	}
	h, games, err := selfplay.ReadFile(out)
	if err != nil || len(games) != 4 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	if !strings.Contains(h.Params, ",margin:14,multipv-final\"") {
		t.Errorf("level %q", h.Params)
	}
	for _, g := range games {
		if _, err := g.Positions(); err != nil || len(g.Evals) == 0 {
			t.Errorf("game %d: %v, %d evaluations", g.Index, err, len(g.Evals))
		}
	}
}

func TestSelfplayBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.sp")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"selfplay"}, "one output file"},
		{[]string{"selfplay", out, "--shard", "3/2"}, "--shard"},
		{[]string{"selfplay", out, "--shard", "x"}, "--shard"},
		{[]string{"selfplay", out, "--solve", "70"}, "--solve 70"},
		{[]string{"selfplay", out, "--temperature", "-1"}, "temperature"},
		{[]string{"selfplay", out, "--openings", filepath.Join(dir, "none.txt")}, "--openings"},
		{[]string{"selfplay", "merge", out}, "at least one input"},
		{[]string{"selfplay", "merge", out, filepath.Join(dir, "none.sp")}, "none.sp"},
		{[]string{"selfplay", "check"}, "FILE"},
	} {
		_, _, err := runCmd(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.want)
		}
	}
}
