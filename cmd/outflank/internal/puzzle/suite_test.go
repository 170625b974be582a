package puzzle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

const suiteDir = "../../../../testdata/rulebook"

func readSuite(t *testing.T, name string) []*Puzzle {
	t.Helper()
	f, err := os.Open(filepath.Join(suiteDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps, err := Read(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return ps
}

// TestRulebookSuite checks every fact of the rulebook suite. Exact-score
// facts use the plain test solver here, which is too slow beyond 12 empties:
// those few facts (the Strategy puzzles' "wld win") are left to
// cmd/outflank's test, which runs the same files with the real engine.
func TestRulebookSuite(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(suiteDir, "*.puz"))
	if err != nil || len(files) < 2 {
		t.Fatalf("suite files: %v %v", files, err)
	}
	n := 0
	for _, file := range files {
		for _, p := range readSuite(t, filepath.Base(file)) {
			r := p.Check(context.Background(), testSolver{maxEmpties: 12})
			n++
			for _, o := range r.Outcomes {
				if strings.HasPrefix(o.Got, "test solver: ") {
					t.Logf("%s:%d %s: %s: left to cmd/outflank (%s)", filepath.Base(file), o.Line, r.ID, o.Goal, o.Got)
					continue
				}
				if !o.OK {
					t.Errorf("%s:%d %s: %s: expected %q, got %q", filepath.Base(file), o.Line, r.ID, o.Goal, o.Expected, o.Got)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d puzzles in the suite", n)
	}
}

// TestStrategyPuzzles checks the reconstructed puzzles against the
// booklet's statements directly (not through the facts the file lists), so
// that editing the file cannot drop a statement unnoticed.
func TestStrategyPuzzles(t *testing.T) {
	byID := map[string]bitboard.Position{}
	for _, p := range readSuite(t, "strategy.puz") {
		byID[p.ID] = p.Position
	}
	for _, spec := range append([]Spec{Puzzle1Spec}, Specs()...) {
		pos, ok := byID[spec.Name]
		if !ok {
			t.Errorf("%s missing from strategy.puz", spec.Name)
			continue
		}
		c := DefaultCriteria
		if spec.Name == "strategy-1" {
			c.MinEmpties, c.MaxEmpties = 24, 24
		}
		if ok, why := spec.Satisfies(pos, c); !ok {
			t.Errorf("%s: %s", spec.Name, why)
		}
	}
	line, _ := bitboard.ParseMoves(Puzzle1Line)
	p1 := byID["strategy-1"]
	var empty uint64
	for _, m := range line {
		empty |= m.Bit()
	}
	if p1.Empty() != empty {
		t.Errorf("strategy-1 empties %s, want the 24 of the line", bitboard.SquaresString(p1.Empty()))
	}
	if c := puzzle1Cost(p1, line, DefaultCriteria); c != 0 {
		t.Errorf("strategy-1 misses the booklet's line (cost %d)", c)
	}
	end, err := bitboard.PlayTranscript(p1, Puzzle1Line)
	if err != nil || !end.GameOver() || bitboard.Count(end.Black()) != 54 || bitboard.Count(end.White()) != 10 {
		t.Errorf("strategy-1 line: %v, ends %v", err, end.Result())
	}
}

// TestReconstructionReproducible re-runs the seeded searches that are quick
// (puzzle #1 and #5) and checks they give the committed positions;
// cmd/outflank's TestPuzzleReconstruct regenerates the whole file.
func TestReconstructionReproducible(t *testing.T) {
	byID := map[string]bitboard.Position{}
	for _, p := range readSuite(t, "strategy.puz") {
		byID[p.ID] = p.Position
	}
	p1, _, err := Puzzle1(context.Background(), DefaultCriteria, 1, 1000, nil)
	if err != nil || p1 != byID["strategy-1"] {
		t.Errorf("Puzzle1(seed 1) = %v, %v; file has %v", p1, err, byID["strategy-1"])
	}
	spec := Specs()[3]
	f, err := Search(context.Background(), spec, DefaultCriteria, 1, 1_000_000, nil)
	if err != nil || f.Position != byID[spec.Name] {
		t.Errorf("Search(%s, seed 1) = %v, %v; file has %v", spec.Name, f.Position, err, byID[spec.Name])
	}
}
