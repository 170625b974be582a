package bitboard

import (
	"strings"
	"testing"
)

func TestParseSquare(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Square
		ok   bool
	}{
		{"a1", 0, true}, {"H8", 63, true}, {"c4", SquareAt(2, 3), true}, {"C4", SquareAt(2, 3), true},
		{"PA", PassMove, true}, {"pass", PassMove, true}, {"pa", PassMove, true},
		{"i1", NoSquare, false}, {"a9", NoSquare, false}, {"a", NoSquare, false}, {"", NoSquare, false}, {"c44", NoSquare, false},
	} {
		got, err := ParseSquare(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseSquare(%q) = %v, %v", tc.in, got, err)
		}
	}
	for sq := Square(0); sq < 64; sq++ {
		if got, err := ParseSquare(sq.String()); err != nil || got != sq {
			t.Errorf("round trip %s: %v %v", sq, got, err)
		}
	}
}

func TestParseBoard(t *testing.T) {
	start := "---------------------------OX------XO--------------------------- X"
	p, err := ParseBoard(start)
	if err != nil || p != Start() {
		t.Fatalf("start board: %v %v", p, err)
	}
	if p.String() != start {
		t.Errorf("String() = %q", p.String())
	}
	// Other spellings: GGS rows with spaces, '*' for black, '.' empty, 'w' side.
	alt := "........ ........ ........ ...O*... ...*O... ........ ........ ........ *"
	if q, err := ParseBoard(alt); err != nil || q != Start() {
		t.Errorf("GGS-style board: %v %v", q, err)
	}
	for _, tc := range []struct{ in, want string }{
		{"---", "only 3 of 64"},
		{strings.Repeat("-", 64), "side to move missing"},
		{strings.Repeat("-", 63) + "Z X", "bad square character 'Z' at column 64"},
		{strings.Repeat("-", 64) + " Q", "bad side to move"},
		{strings.Repeat("-", 64) + " X X", "unexpected"},
	} {
		_, err := ParseBoard(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseBoard(%q) error %v, want it to mention %q", tc.in, err, tc.want)
		}
	}
}

func TestOBF(t *testing.T) {
	in := `% a comment
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+0; A3:-2;

---------------------------OX------XO--------------------------- O % trailing comment
`
	es, err := ReadOBF(strings.NewReader(in))
	if err != nil || len(es) != 2 {
		t.Fatalf("ReadOBF: %d entries, %v", len(es), err)
	}
	if es[0].Line != 2 || len(es[0].Scores) != 5 || es[0].Scores[0] != (MoveScore{SquareAt(6, 7), 18}) || es[0].Scores[4].Score != -2 {
		t.Errorf("first entry %+v", es[0])
	}
	if es[1].Line != 4 || es[1].Position.ToMove != White {
		t.Errorf("second entry %+v", es[1])
	}
	_, err = ReadOBF(strings.NewReader("\n" + strings.Repeat("-", 64) + " X; G8:x;\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad score: %v, want an error naming line 2", err)
	}
}

func TestParseMovesAndReplay(t *testing.T) {
	for _, in := range []string{"f5d6c3", "F5 D6 C3", "f5-d6-c3", "F5,d6,C3"} {
		m, err := ParseMoves(in)
		if err != nil || Transcript(m) != "f5d6c3" {
			t.Errorf("ParseMoves(%q) = %v, %v", in, m, err)
		}
	}
	if _, err := ParseMoves("f5d6c"); err == nil || !strings.Contains(err.Error(), "move 3 at column 5") {
		t.Errorf("truncated transcript: %v", err)
	}
	if _, err := ParseMoves("f5z9"); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("bad square: %v", err)
	}
	_, err := PlayTranscript(Start(), "f5d6a1")
	if err == nil || !strings.Contains(err.Error(), "move 3 (a1) illegal for black") {
		t.Errorf("illegal move: %v", err)
	}
}

// A WTHOR-style transcript with an implied pass gets the pass made explicit;
// the same game with the pass written out replays identically.
func TestImpliedPass(t *testing.T) {
	// Find a random-ish game with a pass by playing first legal moves.
	p := Start()
	var moves []Square
	for !p.GameOver() {
		if p.MustPass() {
			moves = append(moves, PassMove)
			p = p.Pass()
			continue
		}
		m := p.Moves()
		sq := FirstSquare(m)
		moves = append(moves, sq)
		p = p.Play(sq)
	}
	implied, err := ParseMoves(Transcript(moves))
	if err != nil {
		t.Fatal(err)
	}
	played, pos, err := Replay(Start(), implied)
	if err != nil || pos[len(pos)-1] != p || len(played) != len(moves) {
		t.Fatalf("replay of the implied-pass transcript: %v, %d vs %d moves", err, len(played), len(moves))
	}
	for i := range played {
		if played[i] != moves[i] {
			t.Fatalf("move %d: %s vs %s", i, played[i], moves[i])
		}
	}
}

func TestGGF(t *testing.T) {
	in := "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[engine]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4/1.5/2.25];)"
	g, err := ParseGGF(in)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := PlayTranscript(Start(), "f5f6e6f4")
	if g.Current() != want || len(g.Moves) != 4 || !g.Moves[3].HasEval || g.Moves[3].Time != 2.25 {
		t.Fatalf("parsed game %+v", g)
	}
	if v, _ := g.Prop("TI"); v != "15:00" {
		t.Errorf("TI = %q", v)
	}
	g2, err := ParseGGF(g.GGF())
	if err != nil || g2.Current() != g.Current() || len(g2.Moves) != 4 {
		t.Errorf("round trip: %v", err)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "no \"(;\""},
		{"(;GM[Othello]B[f5]", "not closed"},
		{"(;GM[Othello]B[f5];", "';' not followed by ')'"},
		{"(;GM[Othello]B[a1];)", "move 1 B[a1]: a1: move flips no disc"},
		{"(;GM[Othello]W[f5];)", "black is to move"},
		{"(;GM[Othello]BO[8 ---];)", "BO"},
		{"(;GM[Othello]BO[10 ---];)", "only 8x8"},
		{"(;GM[Othello]B[f5/x];)", "bad evaluation"},
		{"(;GM[Othello]b[f5];)", "want KEY[value]"},
		{"(;GM[Othello]B[f5", "not closed with ']'"},
	} {
		_, err := ParseGGF(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseGGF(%q) error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// A game record that ends with a pass leaves the other side to move.
func TestGGFEndingWithPass(t *testing.T) {
	// White to move must pass in this board; after W[PA] black moves.
	board := "XO------" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------"
	g, err := ParseGGF("(;GM[Othello]BO[8 " + strings.ReplaceAll(board, "X", "*") + " O]W[PA];)")
	if err != nil {
		t.Fatal(err)
	}
	if p := g.Current(); p.ToMove != Black || p.Moves() != SquareAt(2, 0).Bit() {
		t.Errorf("after the pass: %s", p)
	}
}

func FuzzParseBoard(f *testing.F) {
	f.Add("---------------------------OX------XO--------------------------- X")
	f.Add("........ ........ ........ ...O*... ...*O... ........ ........ ........ *")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseBoard(s)
		if err != nil {
			return
		}
		q, err := ParseBoard(p.String())
		if err != nil || q != p {
			t.Fatalf("round trip of %q: %v %v", s, q, err)
		}
	})
}

func FuzzParseMoves(f *testing.F) {
	f.Add("f5d6c3d3c4f4")
	f.Add("F5 D6 pass -- c3")
	f.Fuzz(func(t *testing.T, s string) {
		moves, err := ParseMoves(s)
		if err != nil {
			return
		}
		played, pos, err := Replay(Start(), moves)
		if err != nil {
			return
		}
		// A legal line written compactly replays to the same position.
		again, err := ParseMoves(Transcript(played))
		if err != nil {
			t.Fatal(err)
		}
		if _, pos2, err := Replay(Start(), again); err != nil || pos2[len(pos2)-1] != pos[len(pos)-1] {
			t.Fatalf("transcript round trip of %q failed: %v", s, err)
		}
	})
}

func FuzzParseOBFLine(f *testing.F) {
	f.Add("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;")
	f.Fuzz(func(t *testing.T, s string) {
		ParseOBFLine(s)
	})
}

func FuzzParseGGF(f *testing.F) {
	f.Add("(;GM[Othello]PB[a]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6/1/2]B[E6];)")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGGF(s)
		if err != nil {
			return
		}
		g2, err := ParseGGF(g.GGF())
		if err != nil || g2.Current() != g.Current() {
			t.Fatalf("GGF round trip of %q: %v", s, err)
		}
	})
}

func FuzzParseSquare(f *testing.F) {
	f.Add("c4")
	f.Fuzz(func(t *testing.T, s string) {
		sq, err := ParseSquare(s)
		if err == nil && sq != PassMove && !sq.IsBoard() {
			t.Fatalf("ParseSquare(%q) = %d without error", s, sq)
		}
	})
}
