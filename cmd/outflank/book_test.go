package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/booktool"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/eval"
)

// The book commands end to end, at a depth small enough for a test: grow
// from the start, grow a second shard, merge, show, export as text, import,
// learn a game, and the errors of bad input.
func TestBookCommands(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.book")
	out, _, err := runCmd(t, "book", "grow", "--book", a, "--depth", "3", "--positions", "6", "--hash", "1", "--window", "2")
	if err != nil || !strings.Contains(out, "added 6 positions") {
		t.Fatalf("grow: %v\n%s", err, out)
	}
	// Resuming adds to the same file.
	if out, _, err = runCmd(t, "book", "grow", "--book", a, "--depth", "3", "--positions", "2", "--hash", "1"); err != nil || !strings.Contains(out, "has 8 positions") {
		t.Fatalf("resumed grow: %v\n%s", err, out)
	}
	// XOT seeds: the start and the first moves are reached by thousands of
	// XOT lines, and are in the book already.
	xb := filepath.Join(dir, "x.book")
	out, errOut, err := runCmd(t, "book", "grow", "--book", xb, "--from", a, "--xot", "--min-games", "5000", "--depth", "3", "--positions", "1", "--hash", "1")
	var nSeeds, nIn, nBook int
	if err != nil {
		t.Fatalf("grow --xot: %v\n%s%s", err, out, errOut)
	}
	if _, err := fmt.Sscanf(errOut, "%d seed positions (>= 5000 games, <= 20 moves), %d in the book already at %d positions", &nSeeds, &nIn, &nBook); err != nil || nSeeds < 2 || nIn != nSeeds || nBook != 8 {
		t.Errorf("grow --xot: %v: %q", err, errOut)
	}
	// Roots: the openings' positions go in first, and the book grows from
	// them (here the position of a line far from the start's best).
	roots := filepath.Join(dir, "roots.txt")
	os.WriteFile(roots, []byte("f5f4e3f6d3\n"), 0o644)
	rb := filepath.Join(dir, "r.book")
	if out, errOut, err = runCmd(t, "book", "grow", "--book", rb, "--from", a, "--roots", roots, "--depth", "3", "--max-ply", "6", "--hash", "1", "--window", "0", "--path-window", "0"); err != nil {
		t.Fatalf("grow --roots: %v\n%s%s", err, out, errOut)
	}
	if out, _, err = runCmd(t, "book", "show", "--book", rb, "--moves", "f5f4e3f6d3"); err != nil || !strings.Contains(out, "in book: negamaxed") {
		t.Errorf("grow --roots: the root has no move into the book:\n%s", out)
	}
	os.WriteFile(roots, []byte("f5f4e3f6d3\nf5f5\n"), 0o644)
	if _, _, err = runCmd(t, "book", "grow", "--book", rb, "--roots", roots, "--depth", "3", "--positions", "1", "--hash", "1"); err == nil || !strings.Contains(err.Error(), "--roots") || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("grow --roots with an illegal line: %v", err)
	}
	// Two shards of the next positions, then a merge.
	var shards []string
	for _, k := range []string{"1/2", "2/2"} {
		s := filepath.Join(dir, "shard"+k[:1]+".book")
		shards = append(shards, s)
		if out, _, err = runCmd(t, "book", "grow", "--book", s, "--from", a, "--shard", k, "--depth", "3", "--positions", "3", "--hash", "1"); err != nil {
			t.Fatalf("grow shard %s: %v\n%s", k, err, out)
		}
	}
	m := filepath.Join(dir, "m.book")
	if out, _, err = runCmd(t, "book", "merge", "--out", m, shards[0], shards[1]); err != nil || !strings.Contains(out, "14 positions") {
		t.Fatalf("merge: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "book", "show", "--book", m, "--moves", "f5")
	if err != nil || !strings.Contains(out, "in book: negamaxed") ||
		!strings.Contains(out, "White to move; values are final disc differences for white.") {
		t.Fatalf("show: %v\n%s", err, out)
	}
	// Each negamaxed move says how many book positions lie behind it (at
	// least the one it leads to); a leaf none.
	if !regexp.MustCompile(`(?m)^[a-h][1-8] +[-+]\d+ +\d+@\d+% +[1-9]\d*  in book: negamaxed`).MatchString(out) ||
		regexp.MustCompile(`(?m) [1-9]\d*  leaf`).MatchString(out) {
		t.Errorf("show: positions behind the moves:\n%s", out)
	}
	// Which moves the grow expands depends on the evaluation's values, so
	// the test walks down the negamaxed moves until a shown position also
	// has a leaf, rather than expecting one at a fixed line.
	if line := findBookLeaf(t, m, "f5", 3); line == "" {
		t.Errorf("show: no position within 3 moves of f5 lists a leaf (\"leaf: searched\")")
	}
	// A new book gets the default parity offset, and the merge keeps it.
	if out, _, _ = runCmd(t, "book", "info", "--book", m); !strings.Contains(out, fmt.Sprintf("parity offset of the negamax: %d discs", booktool.DefaultParity)) {
		t.Errorf("info of the merged shards of a new book:\n%s", out)
	}
	// --parity-offset sets it, re-negamaxed.
	p0 := filepath.Join(dir, "p0.book")
	if _, _, err = runCmd(t, "book", "merge", "--out", p0, "--parity-offset", "0", m); err != nil {
		t.Fatal(err)
	}
	if b0, err := book.Load(p0); err != nil {
		t.Error(err)
	} else if b0.ParityOffset() != 0 {
		t.Errorf("merge --parity-offset 0: offset %d", b0.ParityOffset())
	}
	if out, _, _ = runCmd(t, "book", "info", "--book", m); !strings.Contains(out, "14 positions") || !strings.Contains(out, "grow: depth 3") {
		t.Errorf("info:\n%s", out)
	} else {
		// Both shards carry the base book's history; the merge keeps it once.
		seen := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, " grow: ") && seen[line] {
				t.Errorf("info repeats a history line after the merge: %q", line)
			}
			seen[line] = true
		}
	}
	txt := filepath.Join(dir, "m.txt")
	if _, _, err = runCmd(t, "book", "export", "--book", m, "--text", "--out", txt); err != nil {
		t.Fatal(err)
	}
	back := filepath.Join(dir, "back.book")
	if out, _, err = runCmd(t, "book", "import", "--in", txt, "--out", back); err != nil || !strings.Contains(out, "imported 14 positions") {
		t.Fatalf("import: %v\n%s", err, out)
	}
	x, _ := os.ReadFile(m)
	y, _ := os.ReadFile(back)
	if string(x) != string(y) {
		t.Error("export --text then import does not give back the same book file")
	}

	games := filepath.Join(dir, "games.ggf")
	os.WriteFile(games, []byte("(;GM[Othello]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)\n"), 0o644)
	if out, _, err = runCmd(t, "book", "learn", "--book", m, "--depth", "3", "--hash", "1", games); err != nil || !strings.Contains(out, "learnt 1 games") {
		t.Fatalf("learn: %v\n%s", err, out)
	}
	b, err := book.Load(m)
	if err != nil || b.Len() <= 14 {
		t.Fatalf("learnt book: %v", err)
	}
	// The learnt game goes through the book to its end; its first move,
	// with no time, is an opening's and counts for neither player.
	os.WriteFile(games, []byte("(;GM[Othello]PB[al]PW[bo]B[e6]W[f4/0/1]B[e3/0/1]W[f6/0/1]B[g5/0/1]W[d6/0/1]B[e7/0/1]W[f5/0/1]B[c5/0/1];)\n"), 0o644)
	out, _, err = runCmd(t, "book", "cover", "--book", m, games)
	for _, want := range []string{"1 games: 8 moves chosen in book positions", "(0: none): 9: 1\n", "al: 4 moves in book positions", "bo: 4 moves in book positions"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("cover: %v: want %q in\n%s", err, want, out)
		}
	}

	// diff: the book before the learnt game, revalued deeper, against
	// the book now; and the book against itself.
	deeper := filepath.Join(dir, "deeper.book")
	os.WriteFile(deeper, x, 0o644)
	if _, _, err = runCmd(t, "book", "revalue", "--book", deeper, "--depth", "5", "--hash", "1"); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCmd(t, "book", "diff", "--book", m, deeper, games)
	if n := regexp.MustCompile(`14 positions in both books; (\d+) leaf moves in both, (\d+) valued again \((\d+) deeper\)`).FindStringSubmatch(out); err != nil || n == nil || n[1] != n[2] || n[2] != n[3] || n[1] == "0" {
		t.Errorf("diff against the revalued book: %v: want every leaf of its 14 positions valued again, deeper, in\n%s", err, out)
	}
	for _, want := range []string{"new less old:", "mean absolute", "positions whose book move changed: ", "1 games: "} {
		if !strings.Contains(out, want) {
			t.Errorf("diff: want %q in\n%s", want, out)
		}
	}
	out, _, err = runCmd(t, "book", "diff", "--book", m, m, games)
	for _, want := range []string{"0 valued again", "positions whose book move changed: 0 of ", "the old move 0 discs below", "1 games: 8 moves chosen in book positions of both (a match's opening moves left out), the book move changed in 0 (0 discs", "al: 4 moves in book positions of both, the book move changed in 0 (0 discs)", "bo: 4 moves"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("diff of a book with itself: %v: want %q in\n%s", err, want, out)
		}
	}

	os.WriteFile(filepath.Join(dir, "bad.book"), x[:len(x)-9], 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"book", "show", "--book", filepath.Join(dir, "bad.book")}, "truncated or corrupt"},
		{[]string{"book", "grow", "--book", a, "--shard", "3/2"}, "shard"},
		{[]string{"book", "grow", "--book", a, "--depth", "1"}, "--depth"},
		{[]string{"book", "grow", "--book", a, "--from", m}, "exists already"},
		{[]string{"book", "grow"}, "--book FILE is required"},
		{[]string{"book", "learn", "--book", m, txt}, "no GGF game"},
		{[]string{"book", "cover", "--book", m}, "no game file given"},
		{[]string{"book", "cover", "--book", m, txt}, "no GGF game"},
		{[]string{"book", "diff", "--book", m}, "no book to compare given"},
		{[]string{"book", "diff", "--book", m, filepath.Join(dir, "bad.book")}, "truncated or corrupt"},
		{[]string{"book", "diff", "--book", m, m, txt}, "no GGF game"},
		{[]string{"book", "frobnicate"}, "unknown action"},
		{[]string{"book", "merge", "--out", filepath.Join(dir, "p99.book"), "--parity-offset", "99", m}, "--parity-offset 99: want -16 to 16"},
	} {
		if _, _, err := runCmd(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error about %q", c.args, err, c.want)
		}
	}
}

// TestBookInfoNoMachinePaths: the history that "book info" prints names
// files without the folders of the machine that built the book (the
// built-in book's merges were recorded with full paths).
func TestBookInfoNoMachinePaths(t *testing.T) {
	stdout, _, err := runCmd(t, "book", "info")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(stdout, "\n") {
		for _, w := range strings.Fields(l) {
			if strings.HasPrefix(w, "/") {
				t.Errorf("a path in book info: %q in %q", w, l)
			}
		}
	}
}

// findBookLeaf shows line and, breadth first, the lines that extend it by
// up to depth negamaxed moves; it returns the first line whose display lists
// a leaf move, or "" when none does.
func findBookLeaf(t *testing.T, file, line string, depth int) string {
	t.Helper()
	level := []string{line}
	for d := 0; d <= depth && len(level) > 0; d++ {
		var next []string
		for _, l := range level {
			out, _, err := runCmd(t, "book", "show", "--book", file, "--moves", l)
			if err != nil {
				t.Fatalf("show --moves %q: %v\n%s", l, err, out)
			}
			if strings.Contains(out, "leaf: searched") {
				return l
			}
			for _, row := range strings.Split(out, "\n") {
				if f := strings.Fields(row); len(f) > 0 && strings.Contains(row, "in book: negamaxed") {
					next = append(next, l+" "+f[0])
				}
			}
		}
		level = next
	}
	return ""
}

// TestBookLearnWaitsForLock: a book learn on a book that another process
// is updating waits for it, says so, and then adds its games to what the
// other one saved (four learns at once once lost updates without a word).
func TestBookLearnWaitsForLock(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.ggf")
	if out, err := runWithDeadline(t, outflank(t, "match", "self:depth=1", "self:depth=2", "--games", "2", "--quiet", "--games-out", games)); err != nil {
		t.Fatalf("match: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "my.book")
	unlock, err := atomicfile.Lock(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	cmd := outflank(t, "book", "learn", "--book", path, "--depth", "2", "--screen-margin", "0", "--max-ply", "6", games)
	var out playtest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	deadline := time.Now().Add(deadline)
	for !strings.Contains(out.String(), "waiting for another process that is updating") {
		if time.Now().After(deadline) {
			t.Fatalf("no waiting message: %s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case err := <-done:
		t.Fatalf("the learn finished while the lock was held: %v\n%s", err, out.String())
	case <-time.After(300 * time.Millisecond):
	}
	unlock()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("learn: %v\n%s", err, out.String())
		}
	case <-time.After(deadline.Sub(time.Now())):
		t.Fatal("the learn did not finish after the lock was let go")
	}
	if b, err := book.Load(path); err != nil || b.Len() == 0 {
		t.Errorf("book after the learn: %v", err)
	}
}

// TestBookRecordsEvaluation checks the book commands' side of the
// evaluation a book records: grow records the running one, a revalue with
// other weights searches every leaf again, adopt names unrecorded values.
func TestBookRecordsEvaluation(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.book")
	if _, _, err := runCmd(t, "book", "grow", "--book", a, "--depth", "3", "--positions", "3", "--hash", "1", "--window", "2"); err != nil {
		t.Fatal(err)
	}
	id := engine.EvaluationID(eval.Default())
	out, _, err := runCmd(t, "book", "info", "--book", a)
	if err != nil || !strings.Contains(out, id+" (eval pattern (embedded): this run's)") {
		t.Fatalf("info: %v\n%s", err, out)
	}
	// The same depth with the placeholder evaluation: every inexact leaf is
	// another evaluation's, so all are searched again; then none.
	out, _, err = runCmd(t, "book", "revalue", "--book", a, "--depth", "3", "--hash", "1", "--eval", "simple")
	if err != nil || strings.HasPrefix(out, "revalued 0 positions") {
		t.Fatalf("revalue with other weights: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "book", "revalue", "--book", a, "--depth", "3", "--hash", "1", "--eval", "simple")
	if err != nil || !strings.HasPrefix(out, "revalued 0 positions") {
		t.Fatalf("second revalue: %v\n%s", err, out)
	}
	out, _, err = runCmd(t, "book", "info", "--book", a, "--eval", "simple")
	if err != nil || strings.Contains(out, id) || !strings.Contains(out, "simple, mpc") {
		t.Fatalf("info after revaluing: %v\n%s", err, out)
	}
	// A revalue of the near-best leaves of one shard says so in the book's
	// record; a bad window or shard is refused.
	for _, bad := range [][]string{{"--window", "-1"}, {"--shard", "3/2"}} {
		if _, _, err := runCmd(t, append([]string{"book", "revalue", "--book", a, "--depth", "4", "--hash", "1"}, bad...)...); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("revalue %v: %v, want an error naming %s", bad, err, bad[0])
		}
	}
	if _, _, err = runCmd(t, "book", "revalue", "--book", a, "--depth", "4", "--hash", "1", "--eval", "simple", "--window", "0", "--shard", "1/2"); err != nil {
		t.Fatal(err)
	}
	if out, _, err = runCmd(t, "book", "info", "--book", a); err != nil || !strings.Contains(out, `leaves within 0 of the best; shard "1/2"`) {
		t.Fatalf("info after a near-best revalue of a shard: %v\n%s", err, out)
	}
	// adopt names nothing here (everything is recorded), and wants a book.
	if out, _, err = runCmd(t, "book", "adopt", "--book", a); err != nil || !strings.HasPrefix(out, "0 leaf moves") {
		t.Fatalf("adopt: %v\n%s", err, out)
	}
	if _, _, err = runCmd(t, "book", "adopt"); err == nil || !strings.Contains(err.Error(), "--book FILE is required") {
		t.Fatalf("adopt without --book: %v", err)
	}
}

// Shards that merge each other's files in (--peers) grow on where their
// lines pass through the other's positions; a peer that is missing (not
// saved yet) or damaged is skipped, the damaged one with a line saying so.
func TestBookGrowPeers(t *testing.T) {
	dir := t.TempDir()
	s1, s2 := filepath.Join(dir, "s1.book"), filepath.Join(dir, "s2.book")
	bad := filepath.Join(dir, "bad.book")
	os.WriteFile(bad, []byte("not a book"), 0o644)
	grow := func(self, shard string, peers ...string) int {
		t.Helper()
		args := []string{"book", "grow", "--book", self, "--shard", shard, "--depth", "3", "--hash", "1",
			"--window", "1", "--path-window", "2", "--max-ply", "6", "--checkpoint", "10ms"}
		for _, p := range peers {
			args = append(args, "--peers", p)
		}
		out, errOut, err := runCmd(t, args...)
		var added int
		if err != nil || !strings.Contains(out, "stopped: no candidate left") {
			t.Fatalf("grow %s: %v\n%s%s", shard, err, out, errOut)
		}
		if _, err := fmt.Sscanf(out, "added %d positions", &added); err != nil {
			t.Fatalf("grow %s: %v\n%s", shard, err, out)
		}
		if len(peers) > 0 && peers[len(peers)-1] == bad && !strings.Contains(errOut, "--peers: "+bad+" skipped") {
			t.Errorf("grow %s with a damaged peer: no line skipping it:\n%s", shard, errOut)
		}
		return added
	}
	first := grow(s1, "1/2", s2, bad) // s2 not written yet
	if first == 0 {
		t.Fatal("shard 1/2 added nothing")
	}
	if grow(s2, "2/2", s1) == 0 {
		t.Fatal("shard 2/2 added nothing, with shard 1/2's positions to grow through")
	}
	if grow(s1, "1/2", s2) == 0 {
		t.Error("shard 1/2 added nothing more after merging shard 2/2's positions")
	}
	b1, err := book.Load(s1)
	if err != nil {
		t.Fatal(err)
	}
	if b1.Len() <= first {
		t.Errorf("shard 1/2 holds %d positions, no more than its first run added (%d): the peer's were not merged", b1.Len(), first)
	}
}
