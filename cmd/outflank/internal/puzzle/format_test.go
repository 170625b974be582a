package puzzle

import (
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

const start = "---------------------------OX------XO--------------------------- X"

func TestReadFields(t *testing.T) {
	src := `% comment
` + start + `; id s; moves c4 d3 e6 f5 ; flips c4: d4
  ; after c4: moves c3 e3 c5 % a continuation line
  ; line c4 c3! ; corner-exactly none; discs 2-2; legal c4; illegal a1
  ; result 13-0; board ` + start + `; score -2; best c4 d3; wld draw; F5:+0
` + start + `
`
	ps, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("got %d puzzles, want 2", len(ps))
	}
	p := ps[0]
	if p.ID != "s" || p.Line != 2 || p.Position != bitboard.Start() {
		t.Errorf("puzzle header: id %q line %d pos %v", p.ID, p.Line, p.Position)
	}
	kinds := []Kind{Moves, Flips, Moves, Line, CornerExactly, Discs, Legal, Illegal, Result, Board, Score, Best, WLD, MoveScore}
	if len(p.Goals) != len(kinds) {
		t.Fatalf("got %d goals, want %d", len(p.Goals), len(kinds))
	}
	for i, k := range kinds {
		if p.Goals[i].Kind != k {
			t.Errorf("goal %d (%q): kind %d, want %d", i, p.Goals[i].Text, p.Goals[i].Kind, k)
		}
	}
	if g := p.Goals[2]; g.Line != 3 || len(g.After) != 1 || g.After[0].Move.String() != "c4" {
		t.Errorf("after goal: %+v", g)
	}
	if g := p.Goals[3]; len(g.After) != 2 || g.After[0].Only || !g.After[1].Only {
		t.Errorf("line goal steps: %+v", g.After)
	}
	if g := p.Goals[13]; g.Move.String() != "f5" || g.Value != 0 {
		t.Errorf("OBF move score: %+v", g)
	}
	if ps[1].Name() != "line 6" {
		t.Errorf("unnamed puzzle is %q", ps[1].Name())
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{start + "; moves c9", `line 1: field "moves c9": bad square "c9"`},
		{"% x\n" + start + "\n ; frobnicate a1", `line 3: field "frobnicate a1": unknown fact "frobnicate"`},
		{" ; moves c4", "line 1: continuation ';' before any board"},
		{"XXXX X", "line 1: board: only 5 of 64 squares"},
		{start + "; flips c4 d4", `want "flips SQ: SQ..."`},
		{start + "; after c4 moves c3", `want "after MOVES: FACT"`},
		{start + "; after : moves c3", "no moves before ':'"},
		{start + "; after c4:", "no fact after ':'"},
		{start + "; result 60-10", "70 discs do not fit"},
		{start + "; discs 6", "want BLACK-WHITE"},
		{start + "; score 70", "not an integer from -64 to 64"},
		{start + "; wld maybe", "want win, draw or loss"},
		{start + "; moves c4 c4", "c4 listed twice"},
		{start + "; illegal", "no moves listed"},
		{start + "; corner", "no squares listed"},
		{start + "; line", "line: no moves"},
		{start + "; id a; id b", "second id"},
		{start + "; setup now", "setup takes no argument"},
		{start + "; C4:+x", `score "+x" is not an integer`},
		{start + "; moves pass c4", `"pass" is not a board square`},
		{start + "; board XX X", "only 3 of 64 squares"},
		{start + "\n" + strings.Repeat("-", 2<<20), "line 2: longer than the limit of 1048576 bytes a line"},
	}
	for _, c := range cases {
		_, err := Read(strings.NewReader(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Read(%q) error %v, want it to contain %q", c.src, err, c.want)
		}
	}
}

// FuzzRead checks that no input makes the reader or the checker panic.
func FuzzRead(f *testing.F) {
	f.Add(start + "; moves c4 d3 e6 f5; after c4: flips c3: d4")
	f.Add(start + "; line c4 c3! d3; corner b6; corner-exactly none; result 13-0")
	f.Add(" ; x\n" + start + "; after pass: moves pass")
	f.Add("--------------------------------------------------------------- X; discs 0-0")
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := Read(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, p := range ps {
			p.Check(t.Context(), nil)
		}
	})
}
