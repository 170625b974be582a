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
	games := map[string]*Puzzle{}
	for _, p := range readSuite(t, "strategy.puz") {
		byID[p.ID] = p.Position
		games[p.ID] = p
	}
	for _, spec := range append([]Spec{Puzzle1Spec()}, Specs()...) {
		pos, ok := byID[spec.Name]
		if !ok {
			t.Errorf("%s missing from strategy.puz", spec.Name)
			continue
		}
		// The game that proves the position reachable.
		if g := games[spec.Name+"-game"]; g == nil || g.Position != bitboard.Start() || len(g.Goals) != 1 {
			t.Errorf("%s-game missing or not a single fact from the start", spec.Name)
		} else if end, err := Play(g.Position, g.Goals[0].After); err != nil || end != pos {
			t.Errorf("%s-game does not reach the puzzle: %v", spec.Name, err)
		}
		c := DefaultCriteria()
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
	if c := puzzle1Cost(p1, line, DefaultCriteria()); c != 0 {
		t.Errorf("strategy-1 misses the booklet's line (cost %d)", c)
	}
	end, err := bitboard.PlayTranscript(p1, Puzzle1Line)
	if err != nil || !end.GameOver() || bitboard.Count(end.Black()) != 54 || bitboard.Count(end.White()) != 10 {
		t.Errorf("strategy-1 line: %v, ends %v", err, end.Result())
	}
}

// TestStrategyDiagrams checks the reconstructed Diagrams 2 to 5 against
// the booklet's statements, through the game that reaches each one.
func TestStrategyDiagrams(t *testing.T) {
	ps := readSuite(t, "strategy.puz")
	byID := map[string]*Puzzle{}
	for _, p := range ps {
		byID[p.ID] = p
	}
	for _, d := range Diagrams() {
		p, g := byID[d.Name], byID[d.Name+"-game"]
		if p == nil || g == nil || len(g.Goals) == 0 {
			t.Errorf("%s or its game missing from strategy.puz", d.Name)
			continue
		}
		steps := g.Goals[0].After
		if d.Name == "diagram-2" {
			// The diagram is the position after Black's g7.
			if last := steps[len(steps)-1].Move; last.String() != "g7" {
				t.Errorf("diagram-2 game ends with %s, want g7", last)
			}
			steps = steps[:len(steps)-1]
		}
		pos, err := Play(bitboard.Start(), steps)
		if err != nil {
			t.Errorf("%s game: %v", d.Name, err)
			continue
		}
		if c := d.Cost(pos); c != 0 {
			t.Errorf("%s: cost %d, want 0", d.Name, c)
		}
	}
}

// TestReconstructionReproducible re-runs the seeded search that is quick
// (puzzle #5) and checks it gives the committed position;
// cmd/outflank's TestPuzzleReconstruct regenerates the whole file.
func TestReconstructionReproducible(t *testing.T) {
	byID := map[string]bitboard.Position{}
	for _, p := range readSuite(t, "strategy.puz") {
		byID[p.ID] = p.Position
	}
	spec := Specs()[3]
	f, err := Search(context.Background(), spec, DefaultCriteria(), 1, 1_000_000, nil)
	if err != nil || f.Position != byID[spec.Name] {
		t.Errorf("Search(%s, seed 1) = %v, %v; file has %v", spec.Name, f.Position, err, byID[spec.Name])
	}
}
