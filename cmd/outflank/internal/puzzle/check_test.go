package puzzle

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

func check(t *testing.T, src string, s Solver) []Report {
	t.Helper()
	ps, err := Read(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	var out []Report
	for _, p := range ps {
		out = append(out, p.Check(context.Background(), s))
	}
	return out
}

// outcome returns the outcome of the goal written as text.
func outcome(t *testing.T, r Report, goal string) Outcome {
	t.Helper()
	for _, o := range r.Outcomes {
		if o.Goal == goal {
			return o
		}
	}
	t.Fatalf("no outcome for %q in %+v", goal, r)
	return Outcome{}
}

// TestMisses checks that wrong facts are reported as misses with the
// engine's answer.
func TestMisses(t *testing.T) {
	src := start + `; id wrong
 ; moves c4 d3 e6
 ; flips c4: d4 e4
 ; flips a1: b2
 ; legal a1
 ; illegal c4
 ; line c4 c3! d3
 ; line c4 c5 c4
 ; after c4: moves pass
 ; corner c4
 ; corner-exactly c4
 ; discs 3-2
 ; result 2-2
 ; after c4: board ` + start + `
 ; score +0
 ; stable d4
 ; stable a1
`
	r := check(t, src, nil)[0]
	if r.OK {
		t.Fatal("report OK with wrong facts")
	}
	want := map[string]string{
		"moves c4 d3 e6":           "d3 c4 f5 e6",
		"flips c4: d4 e4":          "d4",
		"flips a1: b2":             "illegal",
		"legal a1":                 "illegal: a1",
		"illegal c4":               "legal: c4",
		"line c4 c3! d3":           "move 2 (c3) not forced: white could play c3 e3 c5",
		"line c4 c5 c4":            "move 3 (c4) illegal for black: c4: square is occupied",
		"after c4: moves pass":     "c3 e3 c5",
		"corner c4":                "c4: reply c3 leaves no corner",
		"corner-exactly c4":        "none",
		"discs 3-2":                "impossible: 3-2 is 5 discs but the board has 4",
		"result 2-2":               "not over: black to move, moves d3 c4 f5 e6",
		"after c4: board " + start: "--------------------------XXX------XO--------------------------- O",
		"score +0":                 "no solver",
	}
	for goal, got := range want {
		o := outcome(t, r, goal)
		if o.OK || o.Got != got {
			t.Errorf("%s: ok=%v got %q, want a miss with %q", goal, o.OK, o.Got, got)
		}
	}
	if o := outcome(t, r, "position"); !o.OK {
		t.Errorf("start position reported %q", o.Got)
	}
}

// TestImpossible checks that positions a game cannot reach are reported.
func TestImpossible(t *testing.T) {
	cases := map[string]string{
		// The Twente figure: centre e4 empty.
		"------------X-------O-----X--------OO--------------------------- X; flips e6: d5": "impossible position: centre d4 e4 empty",
		// A disc far from the others.
		"X--------------------------OX------XO--------------------------- X; moves c4 d3 e6 f5": "impossible position: discs a1 not connected to the centre",
		// More moves than empty squares.
		"XXXXXXXXXXXXXXXXXXXXXXXXXXXOXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX-- O; line g8 h8 a1": "impossible: 3 moves but only 2 empty squares",
	}
	for src, want := range cases {
		r := check(t, src, nil)[0]
		if r.OK {
			t.Errorf("%s: reported OK", src)
		}
		found := false
		for _, o := range r.Outcomes {
			found = found || strings.Contains(o.Got, strings.TrimPrefix(want, "impossible: ")) && !o.OK
		}
		if !found {
			t.Errorf("%s: no miss saying %q in %+v", src, want, r.Outcomes)
		}
	}
	// The same figure declared as a set-up diagram checks its fact only.
	r := check(t, "------------X-------O-----X--------OO--------------------------- X; setup; flips e6: d5", nil)[0]
	if !r.OK || len(r.Outcomes) != 1 {
		t.Errorf("set-up diagram: %+v", r)
	}
	// A puzzle with no facts is a miss, not a silent pass.
	if r := check(t, start, nil)[0]; r.OK {
		t.Error("puzzle without facts reported OK")
	}
}

// TestForcesCorner covers the pass case of the definition: a move after
// which the opponent must pass forces a corner when the side to move then
// has one, and a move that ends the game forces nothing.
func TestForcesCorner(t *testing.T) {
	// Row 1 "----OXO-", h3 white, h4 black; Black to move. h2 flips h3 and
	// leaves White no move; after the pass Black takes h1.
	pos, err := bitboard.ParseBoard("----OXO-" + "--------" + "-------O" + "-------X" + strings.Repeat("-", 32) + " X")
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := bitboard.ParseSquare("h2")
	if !pos.Play(h2).MustPass() {
		t.Fatal("test position: White should have to pass after h2")
	}
	if ok, why := ForcesCorner(pos, h2); !ok {
		t.Errorf("h2 (forced pass, then h1): %q", why)
	}
	if CornerForcing(pos)&h2.Bit() == 0 {
		t.Errorf("CornerForcing = %s, lacks h2", bitboard.SquaresString(CornerForcing(pos)))
	}
	if ok, why := ForcesCorner(pos, 9); ok || why != "illegal" {
		t.Errorf("b2: ok=%v why=%q", ok, why)
	}
	// Row 1 "-OX": a1 wipes White out and ends the game.
	pos, _ = bitboard.ParseBoard("-OX" + strings.Repeat("-", 61) + " X")
	if ok, why := ForcesCorner(pos, 0); ok || why != "the game ends" {
		t.Errorf("a1: ok=%v why=%q", ok, why)
	}
}

// TestSolverGoals checks score, best, wld and move-score goals with the
// test solver, hits and misses.
func TestSolverGoals(t *testing.T) {
	// 10 moves before the end of a random game: small enough for the test solver.
	src := "XXXXXO--XXXOO---XXXX----XXXOOO--XXOXOOXXXXOOXOXX-OOOOOXXOOOOOOOO X; id e12" +
		"; score +34; best a7; wld win; E3:+18; score +30; best a7 e3; wld loss; A7:+30; H1:+2\n"
	r := check(t, src, testSolver{maxEmpties: 12})[0]
	for _, o := range r.Outcomes {
		wantOK := !slices.Contains([]string{"score +30", "best a7 e3", "wld loss", "A7:+30", "H1:+2"}, o.Goal)
		if o.OK != wantOK {
			t.Errorf("%s: ok=%v (got %q, expected %q)", o.Goal, o.OK, o.Got, o.Expected)
		}
	}
	if o := outcome(t, r, "H1:+2"); o.Got != "illegal" {
		t.Errorf("score of an illegal move: got %q", o.Got)
	}
	if o := outcome(t, r, "best a7 e3"); o.Got != "a7 (+34)" {
		t.Errorf("best: got %q", o.Got)
	}
}
