package trainrun

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplayrun"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/train"
	"github.com/spf13/pflag"
)

// TestTrainSelfPlayLabels: --selfplay-label picks each position's label
// from what the game file carries (the score, the regret-corrected score,
// the search value), and --selfplay-from with --selfplay-games picks a
// range of the job's games.
func TestTrainSelfPlayLabels(t *testing.T) {
	dir := t.TempDir()
	sp := filepath.Join(dir, "six.sp")
	if err := playSelf(sp, "--games", "6", "--depth", "1", "--solve", "10", "--temperature", "4", "--workers", "1", "--hash", "1", "--quiet"); err != nil {
		t.Fatalf("selfplay: %v", err)
	}
	_, games, err := selfplay.ReadFile(sp)
	if err != nil {
		t.Fatal(err)
	}
	var want []selfplay.Sample
	for _, g := range games {
		if g.Evals == nil {
			t.Fatalf("game %d has no move evaluations", g.Index)
		}
		ss, err := g.Samples()
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, ss...)
	}
	differ := map[string]int{} // positions whose label is not the game's score
	for _, label := range []string{"outcome", "corrected", "search", "half"} {
		var got []train.Sample
		sel := spSelect{label: label, mix: 1}
		if label == "half" {
			sel = spSelect{label: "search", mix: 0.5}
		}
		c, err := appendSelfPlay(&got, sp, 0, sel, func(err error) { t.Error(err) })
		if err != nil || c.positions != len(want) || c.games != len(games) {
			t.Fatalf("%s: %d positions of %d, %d games of %d, %v", label, c.positions, len(want), c.games, len(games), err)
		}
		relabelled := 0 // every game here carries evaluations
		for _, w := range want {
			if (label == "corrected" && !w.Exact) || (label != "outcome" && label != "corrected" && w.Searched) {
				relabelled++
			}
		}
		if c.relabelled != relabelled || (label != "outcome" && relabelled == 0) {
			t.Errorf("%s: %d positions counted relabelled, want %d", label, c.relabelled, relabelled)
		}
		for i, s := range got {
			w := want[i]
			l := w.Score
			switch {
			case label == "corrected":
				l = w.Corrected
			case label == "search" && w.Searched:
				l = w.Search
			case label == "half" && w.Searched:
				// Halfway, rounded away from zero: (3 + 4)/2 → 4, (-3 - 4)/2 → -4.
				l = (w.Search + w.Score) / 2
				if (w.Search+w.Score)%2 != 0 {
					l += (w.Search + w.Score) % 2
				}
			}
			if int(s.Score) != l || s.Exact != w.Exact {
				t.Errorf("%s, ply %d: label %+d exact %v, want %+d %v", label, w.Ply, s.Score, s.Exact, l, w.Exact)
			}
			if int(s.Score) != w.Score {
				differ[label]++
			}
		}
	}
	if differ["outcome"] != 0 || differ["corrected"] == 0 || differ["search"] == 0 || differ["half"] == 0 {
		t.Errorf("labels other than the score: %v (want some for corrected and search only)", differ)
	}

	out := filepath.Join(dir, "w")
	stdout, stderr, err := runCmd(t, "train", "--selfplay", sp, "--selfplay-from", "3", "--selfplay-games", "6", "--selfplay-label", "corrected", "--epochs", "1", "--quiet", "--out", out)
	if err != nil {
		t.Fatalf("train: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, ": 3 games, ") || !strings.Contains(stdout, "(job indices 3 to 5), ") || !strings.Contains(stdout, " of them labelled corrected") {
		t.Errorf("stdout:\n%s", stdout)
	}
	if _, _, err := runCmd(t, "train", "--selfplay", sp, "--selfplay-label", "deep", "--out", out); err == nil || !strings.Contains(err.Error(), `--selfplay-label "deep"`) {
		t.Errorf("--selfplay-label deep: %v", err)
	}
	if _, _, err := runCmd(t, "train", "--selfplay", sp, "--selfplay-search-weight", "0.5", "--out", out); err == nil || !strings.Contains(err.Error(), "needs --selfplay-label search") {
		t.Errorf("--selfplay-search-weight without search labels: %v", err)
	}
	stdout, stderr, err = runCmd(t, "train", "--selfplay", sp, "--selfplay-label", "search", "--selfplay-search-weight", "0.75", "--epochs", "1", "--quiet", "--out", out)
	if err != nil || !strings.Contains(stdout, " of them labelled 0.75 search + 0.25 score") {
		t.Errorf("search weight 0.75: %v\n%s%s", err, stdout, stderr)
	}
}

// playSelf runs "outflank selfplay OUT args..." as the command does.
func playSelf(out string, args ...string) error {
	fs := pflag.NewFlagSet("selfplay", pflag.ContinueOnError)
	f := selfplayrun.AddFlags(fs)
	if _, err := cli.Parse(fs, args); err != nil {
		return err
	}
	return selfplayrun.Run(&cli.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}, f, []string{out})
}

// runCmd runs "outflank train args..." as the command does (args[0] is
// "train").
func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	fs := pflag.NewFlagSet("train", pflag.ContinueOnError)
	c := AddFlags(fs)
	if _, err := cli.Parse(fs, args[1:]); err != nil {
		return "", "", err
	}
	var out, errb bytes.Buffer
	err := Run(&cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, c, fs.Args())
	return out.String(), errb.String(), err
}
