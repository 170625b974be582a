package solvedset

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

const gamesFile = "../../../../testdata/selfplay/games-seed20261122.sp.gz"

// The test binary doubles as a fake NBoard engine when started as
// "TESTBINARY fakeengine MODE" (the os/exec TestHelperProcess idiom):
// first plays the first legal move in square order, last the last one,
// illegal an occupied square.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "fakeengine" {
		os.Exit(fakeEngine(os.Args[2]))
	}
	os.Exit(m.Run())
}

func fakeEngine(mode string) int {
	var buf [1 << 20]byte
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(buf[:], len(buf))
	game := &bitboard.Game{Start: bitboard.Start()}
	for in.Scan() {
		word, rest, _ := strings.Cut(strings.TrimSpace(in.Text()), " ")
		switch word {
		case "quit":
			return 0
		case "set":
			if k, v, _ := strings.Cut(rest, " "); k == "game" {
				g, err := bitboard.ParseGGF(v)
				if err != nil {
					fmt.Fprintln(os.Stderr, "fake engine:", err)
					return 2
				}
				game = g
			}
		case "ping":
			fmt.Printf("pong %s\n", rest)
		case "go":
			p := game.Current()
			var m bitboard.Square
			switch mode {
			case "first":
				m = bitboard.FirstSquare(p.Moves())
			case "last":
				m = bitboard.Square(63 - bits.LeadingZeros64(p.Moves()))
			default:
				m = bitboard.FirstSquare(p.Player)
			}
			fmt.Printf("=== %s\n", m.Upper())
		}
	}
	return 0
}

// buildSet builds the set of counts from the test games into dir/name
// with shard k/n; cancel, if > 0, stops the build after that many
// positions.
func buildSet(t *testing.T, dir, name, counts string, k, n, cancel int, from ...string) error {
	t.Helper()
	c, err := ParseCounts(counts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	log := &cancelAfter{n: cancel, stop: stop}
	return BuildSet(ctx, BuildConfig{Games: []string{gamesFile}, Seed: 7, Counts: c, Shard: [2]int{k, n}, Out: filepath.Join(dir, name), From: from, HashMB: 16, Log: log})
}

// cancelAfter cancels a build once it has logged n solved positions.
type cancelAfter struct {
	n, seen int
	stop    func()
}

func (c *cancelAfter) Write(b []byte) (int, error) {
	if bytes.Contains(b, []byte(": id ")) {
		c.seen++
		if c.n > 0 && c.seen >= c.n {
			c.stop()
		}
	}
	return len(b), nil
}

var cpuField = regexp.MustCompile(` cpu [0-9.]+`)

// readMasked reads a set file without the CPU seconds, the one field that
// differs between two builds of the same set.
func readMasked(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return cpuField.ReplaceAllString(string(b), " cpu X")
}

// allExact gives every legal move's exact score by a full-window solve of
// each (the naive reference).
func allExact(t *testing.T, p bitboard.Position) map[bitboard.Square]int {
	t.Helper()
	eng := search.New(search.Options{HashMB: 16, Eval: eval.Default()})
	out := map[bitboard.Square]int{}
	for mm := p.Moves(); mm != 0; mm &= mm - 1 {
		m := bitboard.FirstSquare(mm)
		v, err := moveValue(context.Background(), eng, p, m)
		if err != nil {
			t.Fatal(err)
		}
		out[m] = v
	}
	return out
}

func TestBuildShardsMergeResume(t *testing.T) {
	dir := t.TempDir()
	const counts = "14-16:3"
	if err := buildSet(t, dir, "whole.obf", counts, 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	// A build stopped after two positions, then resumed.
	if err := buildSet(t, dir, "resumed.obf", counts, 1, 1, 2); err != context.Canceled {
		t.Fatalf("stopped build: %v, want context.Canceled", err)
	}
	part, err := readSetFile(filepath.Join(dir, "resumed.obf"))
	if err != nil || len(part.Entries) != 2 {
		t.Fatalf("stopped build kept %v positions, %v; want 2", part, err)
	}
	for _, e := range part.Entries { // fewest empties first, not id order (ids 0 and 1 are at 14 and 15)
		if e.Pos.Empties() != 14 {
			t.Errorf("stopped build solved id %d at %d empties before the positions at 14", e.ID, e.Pos.Empties())
		}
	}
	if err := buildSet(t, dir, "resumed.obf", counts, 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	// The shards, merged.
	for k := 1; k <= 2; k++ {
		if err := buildSet(t, dir, fmt.Sprintf("s%d.obf", k), counts, k, 2, 0); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	if err := MergeSets(filepath.Join(dir, "merged.obf"), []string{filepath.Join(dir, "s2.obf"), filepath.Join(dir, "s1.obf")}, &log); err != nil {
		t.Fatal(err)
	}
	whole := readMasked(t, filepath.Join(dir, "whole.obf"))
	for _, name := range []string{"resumed.obf", "merged.obf"} {
		if got := readMasked(t, filepath.Join(dir, name)); got != whole {
			t.Errorf("%s differs from the unsharded build:\n%s\nwant\n%s", name, got, whole)
		}
	}
	// The merge keeps the shards' lines byte for byte, CPU seconds included.
	merged, _ := os.ReadFile(filepath.Join(dir, "merged.obf"))
	for k := 1; k <= 2; k++ {
		s, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("s%d.obf", k)))
		for _, line := range strings.Split(string(s), "\n") {
			if line != "" && !strings.HasPrefix(line, "%") && !bytes.Contains(merged, []byte(line+"\n")) {
				t.Errorf("merged file lacks shard %d's line %q", k, line)
			}
		}
	}

	// A shard of another split takes the positions of the whole set, byte
	// for byte, and solves nothing: a cancelled context would stop a solve.
	if err := buildSet(t, dir, "t2.obf", counts, 2, 3, 1, filepath.Join(dir, "whole.obf")); err != nil {
		t.Fatalf("a shard taken whole: %v", err)
	}
	t2, _ := os.ReadFile(filepath.Join(dir, "t2.obf"))
	wholeRaw, _ := os.ReadFile(filepath.Join(dir, "whole.obf"))
	if lines := strings.Count(string(t2), "% id "); lines != 3 {
		t.Errorf("shard 2/3 taken from the whole set: %d positions, want 3", lines)
	}
	for _, line := range strings.Split(string(t2), "\n") {
		if strings.Contains(line, "% id ") && !strings.Contains(string(wholeRaw), line+"\n") {
			t.Errorf("shard 2/3: line %q is not the whole set's", line)
		}
	}
	c, _ := ParseCounts(counts)
	err = BuildSet(context.Background(), BuildConfig{Games: []string{gamesFile}, Seed: 8, Counts: c, Shard: [2]int{1, 1}, Out: filepath.Join(dir, "other.obf"), From: []string{filepath.Join(dir, "whole.obf")}, HashMB: 16, Log: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "another pick") {
		t.Errorf("--from a set of another seed: %v", err)
	}

	set, err := readSetFile(filepath.Join(dir, "whole.obf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Entries) != 9 {
		t.Fatalf("%d positions, want 9", len(set.Entries))
	}
	_, games, err := selfplay.ReadFile(gamesFile)
	if err != nil {
		t.Fatal(err)
	}
	byIndex := map[uint64]selfplay.Game{}
	for _, g := range games {
		byIndex[g.Index] = g
	}
	seen := map[uint64]bool{}
	for i, e := range set.Entries {
		if e.ID != i/3*width+i%3 || e.Pos.Empties() != 14+i%3 {
			t.Errorf("entry %d: id %d at %d empties: want the ids in order, interleaving 14, 15, 16", i, e.ID, e.Pos.Empties())
		}
		if seen[e.Game] {
			t.Errorf("id %d: game %d used twice", e.ID, e.Game)
		}
		seen[e.Game] = true
		if ps, err := byIndex[e.Game].Positions(); err != nil || e.Ply >= len(ps) || ps[e.Ply] != e.Pos {
			t.Errorf("id %d: not the position before move %d of game %d", e.ID, e.Ply, e.Game)
		}
		// The optimal moves are exactly those of the naive solve.
		vals := allExact(t, e.Pos)
		best := -65
		for _, v := range vals {
			best = max(best, v)
		}
		var want []bitboard.Square
		for m, v := range vals {
			if v == best {
				want = append(want, m)
			}
		}
		if e.Best != best || len(want) != len(e.Optimal) {
			t.Errorf("id %d: best %+d, optimal %v; every move solved: %+d, %v", e.ID, e.Best, e.Optimal, best, vals)
		}
		for _, m := range want {
			if !e.IsOptimal(m) {
				t.Errorf("id %d: %s is optimal (%+d) but not listed", e.ID, m.Upper(), best)
			}
		}
	}
	// The set is OBF: the standard reader takes it.
	es, err := bitboard.ReadOBF(strings.NewReader(whole))
	if err != nil || len(es) != 9 || es[0].Scores[0].Score != set.Entries[0].Best {
		t.Errorf("ReadOBF: %d entries, %v", len(es), err)
	}
}

func TestBuildRefusesAnotherSet(t *testing.T) {
	dir := t.TempDir()
	if err := buildSet(t, dir, "a.obf", "14:1", 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	// Larger counts grow the set to the one they pick.
	if err := buildSet(t, dir, "a.obf", "14:2,15:1", 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	if err := buildSet(t, dir, "fresh.obf", "14:2,15:1", 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	if a, b := readMasked(t, filepath.Join(dir, "a.obf")), readMasked(t, filepath.Join(dir, "fresh.obf")); a != b {
		t.Errorf("grown set:\n%s\nwant the set built at once:\n%s", a, b)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "a.obf"))
	err := buildSet(t, dir, "a.obf", "14:1", 1, 1, 0)
	if err == nil || !strings.Contains(err.Error(), "holds another set (counts 14:2,15:1, not 14:1)") {
		t.Errorf("build over another set: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "a.obf")); !bytes.Equal(before, after) {
		t.Error("the other set's file was changed")
	}
	if err := buildSet(t, dir, "b.obf", "14:2,15:1", 1, 2, 0); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	for _, c := range []struct {
		in   []string
		want string
	}{
		{[]string{"a.obf", "b.obf"}, "shard 1/2 of a job of 2 shards, not 1"},
		{[]string{"b.obf", "b.obf"}, "shard 1/2 given twice"},
	} {
		var in []string
		for _, n := range c.in {
			in = append(in, filepath.Join(dir, n))
		}
		if err := MergeSets(filepath.Join(dir, "m.obf"), in, &log); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("merge %v: %v, want %q", c.in, err, c.want)
		}
	}
}

func TestReadSetErrors(t *testing.T) {
	const head = setKey + "\n% games g.sp.gz (2 games)\n% seed 1\n% counts 14:1\n% shard 1/1\n"
	// A position at 14 empties (ids 0, 27, ...), with moves m1 and m2 and
	// an occupied square x.
	const pos = "--OX------OOXX-X--OXOXXX-OXXXOOXOOXOOXOXOOOXOOXXOOXOXO-XOOOOOOO- X"
	p, err := bitboard.ParseBoard(pos)
	if err != nil {
		t.Fatal(err)
	}
	mm := p.Moves()
	m1, m2, x := bitboard.FirstSquare(mm).Upper(), bitboard.FirstSquare(mm&(mm-1)).Upper(), bitboard.FirstSquare(p.Player).Upper()
	n := bitboard.Count(mm)
	for _, c := range []struct{ in, want string }{
		{"% something else\n", "line 1: not a solved set file"},
		{head + pos + "; " + m1 + ":+0; % id 0\n" + pos + "; " + m1 + ":+0; % id 0\n", "line 7: id 0 twice"},
		{head + pos + "; " + m1 + ":+0; " + m2 + ":+2; % id 0\n", "line 6: move " + m2 + ": score +2, the first listed +0"},
		{head + pos + "; " + x + ":+0; % id 0\n", "line 6: move " + x + " is not legal"},
		{head + pos + "; " + m1 + ":+0; " + m1 + ":+0; % id 0\n", "line 6: move " + m1 + " listed twice"},
		{head + pos + "; % id 0\n", "line 6: no optimal move listed"},
		{head + pos + "; " + m1 + ":+0;\n", "line 6: no id"},
		{head + pos + "; " + m1 + ":+0; % id 0 moves 1\n", fmt.Sprintf(`line 6: moves "1": the position has %d`, n)},
		{head + pos + "; " + m1 + ":+0; % id x\n", `line 6: id "x"`},
		{head + pos + "; " + m1 + ":+0; % id 1\n", `line 6: id 1 is the id of a position at 15 empties, not 14`},
		{head + pos + "; " + m1 + ":+0; % id 0 game\n", `line 6: comment "id 0 game": want KEY VALUE pairs`},
		{strings.Replace(head, "% seed 1\n", "", 1) + pos + "; " + m1 + ":+0; % id 0\n", `no "% seed" header line`},
		{strings.Replace(head, "1/1", "2/1", 1), `line 5: shard`},
		{strings.Replace(head, "14:1", "70:1", 1), `line 4: counts`},
	} {
		_, err := ReadSet(strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadSet(%q): %v, want %q", c.in, err, c.want)
		}
	}
	line := fmt.Sprintf("%s; %s:+0; %s:+0; %% id 27 game 9 ply 3 moves %d nodes 10 cpu 1.50", pos, m1, m2, n)
	s, err := ReadSet(strings.NewReader(head + line + " future 1\n"))
	if err != nil || len(s.Entries) != 1 || s.Entries[0].ID != 27 || len(s.Entries[0].Optimal) != 2 || s.Entries[0].CPU != 1.5 {
		t.Fatalf("ReadSet: %+v, %v", s, err)
	}
	var buf bytes.Buffer
	s.Write(&buf)
	if want := head + line + "\n"; buf.String() != want {
		t.Errorf("Write:\n%s\nwant\n%s", buf.String(), want)
	}
}

func TestParseCounts(t *testing.T) {
	c, err := ParseCounts(DefaultCounts)
	if err != nil || c.Total() < 200 || c.String() != "24:60,25:48,26:36,27:24,28:16,29:12,30:8,31:5,32:3,33:2,34:1,35:1,36:1" {
		t.Errorf("default counts: %v (%d positions), %v", c, c.Total(), err)
	}
	for _, s := range []string{"", "24", "24:x", "13:1", "24-41:1", "26-24:1", "24:-1", "24:0"} {
		if _, err := ParseCounts(s); err == nil {
			t.Errorf("ParseCounts(%q): no error", s)
		}
	}
}

func TestScore(t *testing.T) {
	dir := t.TempDir()
	if err := buildSet(t, dir, "set.obf", "14-15:3", 1, 1, 0); err != nil {
		t.Fatal(err)
	}
	set, err := readSetFile(filepath.Join(dir, "set.obf"))
	if err != nil {
		t.Fatal(err)
	}
	// What the first-move and last-move engines must score, from every
	// move solved.
	type tally struct{ optimal, lost int }
	var want [2]tally
	for _, e := range set.Entries {
		vals := allExact(t, e.Pos)
		best := e.Best
		mm := e.Pos.Moves()
		for i, m := range []bitboard.Square{bitboard.FirstSquare(mm), bitboard.Square(63 - bits.LeadingZeros64(mm))} {
			if vals[m] == best {
				want[i].optimal++
			}
			want[i].lost += best - vals[m]
		}
	}
	if want[0].lost == 0 && want[1].lost == 0 {
		t.Fatal("no engine loses a disc: the test checks nothing")
	}
	self, _ := os.Executable()
	specs := []match.Spec{}
	for _, s := range []string{"nboard,name=first:" + self + " fakeengine first", "nboard,name=last:" + self + " fakeengine last", "nboard,name=bad:" + self + " fakeengine illegal"} {
		sp, err := match.ParseSpec(s)
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, sp)
	}
	run := func(noSolve bool) (string, string) {
		var out, log bytes.Buffer
		cfg := ScoreConfig{Set: filepath.Join(dir, "set.obf"), Values: filepath.Join(dir, "set.values"), Engines: specs, Record: filepath.Join(dir, "record.jsonl"),
			MoveTime: 100 * time.Millisecond, HashMB: 16, Threads: 1, Bands: [][2]int{{14, 14}}, NoSolve: noSolve, Out: &out, Log: &log}
		if err := ScoreSet(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		return out.String(), log.String()
	}
	// With --no-solve a non-optimal choice counts 2 discs, a lower bound.
	out, log := run(true)
	for i, name := range []string{"first", "last"} {
		lost := fmt.Sprint(2 * (6 - want[i].optimal))
		if want[i].optimal < 6 {
			lost = ">=" + lost
		}
		row := fmt.Sprintf("  %-7s %9d %8d (%4.1f%%) %11s", "all", 6, want[i].optimal, 100*float64(want[i].optimal)/6, lost)
		if !strings.Contains(out[strings.Index(out, "engine "+name):], row) {
			t.Errorf("--no-solve, engine %s: want the row %q in\n%s", name, row, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "set.values")); err == nil || strings.Contains(log, " solved, ") {
		t.Errorf("--no-solve solved a move:\n%s", log)
	}
	out, log = run(false)
	for i, name := range []string{"first", "last"} {
		row := fmt.Sprintf("  %-7s %9d %8d (%4.1f%%) %11d", "all", 6, want[i].optimal, 100*float64(want[i].optimal)/6, want[i].lost)
		if !strings.Contains(out, "engine "+name+"\n") || !strings.Contains(out[strings.Index(out, "engine "+name):], row) {
			t.Errorf("engine %s: want the row %q in\n%s", name, row, out)
		}
	}
	if !strings.Contains(out, "  14              3 ") || !strings.Contains(out, "  other           3 ") {
		t.Errorf("want a band row for 14 and 3 others:\n%s", out)
	}
	if !regexp.MustCompile(`(?m)^  all +6 +0 \( 0\.0%\) +0 +0\.00 +6$`).MatchString(out[strings.Index(out, "engine bad"):]) {
		t.Errorf("the illegal engine: want 6 faults:\n%s", out)
	}
	if !strings.Contains(log, "solved") {
		t.Errorf("no move solved in the first run:\n%s", log)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "record.jsonl"))
	if err != nil || strings.Count(string(rec), "\n") != 6 || !strings.Contains(string(rec), `"engine":"bad","seconds":`) || !strings.Contains(string(rec), `"fault":"illegal: answered`) {
		t.Errorf("record: %v\n%s", err, rec)
	}
	// The second run finds every value in the file.
	out2, log2 := run(false)
	if strings.Contains(log2, " solved, ") {
		t.Errorf("second run solved again:\n%s", log2)
	}
	for _, name := range []string{"first", "last"} {
		a, b := out[strings.Index(out, "engine "+name):], out2[strings.Index(out2, "engine "+name):]
		cut := func(s string) string { return regexp.MustCompile(` +[0-9.]+ +[0-9]+\n`).ReplaceAllString(s, "\n") } // drop times
		if cut(a)[:200] != cut(b)[:200] {
			t.Errorf("engine %s: second run differs:\n%s\n%s", name, a, b)
		}
	}
}

// TestShardsBalance: the default set's shards cost about the same by the
// cost model, where dealing ids in turn would give one shard of two the
// positions at 36 and 34 empties and the other 35.
func TestShardsBalance(t *testing.T) {
	c, _ := ParseCounts(DefaultCounts)
	for _, n := range []int{1, 2, 3, 4} {
		sh := shards(c, n)
		load := make([]float64, n)
		for e, k := range c {
			for r := range k {
				s := sh[idOf(e, r)]
				if s < 1 || s > n {
					t.Fatalf("%d shards: id %d in shard %d", n, idOf(e, r), s)
				}
				load[s-1] += math.Pow(solveGrowth, float64(e-MinEmpties))
			}
		}
		// No shard above 5% over the mean, unless it holds the one
		// position at 36 empties alone.
		sum := 0.0
		for _, l := range load {
			sum += l
		}
		if len(sh) != c.Total() || slices.Max(load) > max(1.05*sum/float64(n), 1.001*math.Pow(solveGrowth, 36-MinEmpties)) {
			t.Errorf("%d shards: %d ids, loads %v", n, len(sh), load)
		}
	}
}

// TestCommittedSets checks the committed sets (bench/solvedset) against
// what they claim, so that a damaged or hand-edited file fails here rather
// than in a scoring: each holds its counts' positions once, the sample's
// positions are the set's, its two cheapest positions solve to the recorded
// score and optimal moves, and every stored value of a chosen move is a
// non-optimal move of a position in the set, the cheapest checked by
// solving again.
func TestCommittedSets(t *testing.T) {
	const dir = "../../../../bench/solvedset/"
	sample, err := readSetFile(dir + "sample.obf")
	if err != nil {
		t.Fatal(err)
	}
	set, err := readSetFile(dir + "set-24-33.obf")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[int]Entry{}
	byPos := map[bitboard.Position]Entry{}
	for _, s := range []*Set{set, sample} {
		if s.Header.Shard != [2]int{1, 1} || !s.Header.Counts.within(set.Header.Counts) || s.Header.Seed != set.Header.Seed || s.Header.Games != set.Header.Games {
			t.Fatalf("header %+v does not fit the set's %+v", s.Header, set.Header)
		}
		want := map[int]bool{} // the ids of the counts, each to be met once
		for n, c := range s.Header.Counts {
			for r := range c {
				want[idOf(n, r)] = true
			}
		}
		for _, e := range s.Entries {
			if !want[e.ID] {
				t.Fatalf("id %d: given twice, or not an id of counts %v", e.ID, s.Header.Counts)
			}
			delete(want, e.ID)
			if len(e.Optimal) == 0 || bitboard.Count(e.Pos.Moves()) < 2 {
				t.Fatalf("id %d: %d optimal of %d moves", e.ID, len(e.Optimal), bitboard.Count(e.Pos.Moves()))
			}
			if s == set {
				byID[e.ID], byPos[e.Pos] = e, e
			} else if got := byID[e.ID]; got.Line() != e.Line() {
				t.Fatalf("id %d: the sample's %q, the set's %q", e.ID, e.Line(), got.Line())
			}
		}
		if len(want) > 0 {
			t.Fatalf("%d of the %d ids of counts %v missing", len(want), s.Header.Counts.Total(), s.Header.Counts)
		}
	}

	eng := search.New(search.Options{HashMB: 16, Eval: eval.Default(), Threads: 1})
	cheap := slices.Clone(set.Entries)
	slices.SortFunc(cheap, func(a, b Entry) int { return cmp.Compare(a.Nodes, b.Nodes) })
	for _, e := range cheap[:2] {
		got, err := solveEntry(context.Background(), eng, picked{id: e.ID, pos: e.Pos, game: e.Game, ply: e.Ply})
		if err != nil {
			t.Fatal(err)
		}
		if got.Best != e.Best || !slices.Equal(got.Optimal, e.Optimal) {
			t.Errorf("id %d: solves to %+d %v, the set says %+d %v", e.ID, got.Best, got.Optimal, e.Best, e.Optimal)
		}
	}

	for _, name := range []string{"sample.values", "set-24-33.values"} {
		vals, err := readValuesFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		if len(vals.by) == 0 {
			t.Fatalf("%s: no values", name)
		}
		type stored struct {
			e     Entry
			m     bitboard.Square
			score int
		}
		var all []stored
		for p, ms := range vals.by {
			e, ok := byPos[p]
			if !ok {
				t.Fatalf("%s: %s is not a position of the set", name, p)
			}
			for m, sc := range ms {
				if e.IsOptimal(m) || sc >= e.Best || (sc-e.Best)%2 != 0 {
					t.Fatalf("%s: id %d: %s scores %+d, best %+d by %v", name, e.ID, m.Upper(), sc, e.Best, e.Optimal)
				}
				all = append(all, stored{e, m, sc})
			}
		}
		s := slices.MinFunc(all, func(a, b stored) int { return cmp.Compare(a.e.Nodes, b.e.Nodes) })
		v, err := moveValue(context.Background(), eng, s.e.Pos, s.m)
		if err != nil {
			t.Fatal(err)
		}
		if v != s.score {
			t.Errorf("%s: id %d: %s solves to %+d, the file says %+d", name, s.e.ID, s.m.Upper(), v, s.score)
		}
	}
}
