package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	} {
		if _, _, err := runCmd(t, args...); err == nil {
			t.Errorf("%v: no error", args)
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
