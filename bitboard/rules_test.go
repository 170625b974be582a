package bitboard

import (
	"errors"
	"testing"
)

// mustBoard parses a board given as 8 rows of 8 characters and a side.
func mustBoard(t *testing.T, rows string, side string) Position {
	t.Helper()
	p, err := ParseBoard(rows + " " + side)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func squares(t *testing.T, s string) uint64 {
	t.Helper()
	moves, err := ParseMoves(s)
	if err != nil {
		t.Fatal(err)
	}
	var b uint64
	for _, m := range moves {
		b |= m.Bit()
	}
	return b
}

// The rulebooks' sample game: black may open at C4, D3, E6 or F5; after C4,
// white may answer C3, E3 or C5, and C4 flips exactly D4.
func TestRulebookSampleGame(t *testing.T) {
	p := Start()
	if got, want := p.Moves(), squares(t, "c4 d3 e6 f5"); got != want {
		t.Errorf("black's first moves %s, want c4 d3 e6 f5", SquaresString(got))
	}
	if f := Flips(p.Player, p.Opponent, SquareAt(2, 3)); f != squares(t, "d4") {
		t.Errorf("c4 flips %s, want d4", SquaresString(f))
	}
	p = p.Play(SquareAt(2, 3)) // c4
	if p.ToMove != White {
		t.Fatal("white is not to move after c4")
	}
	if got, want := p.Moves(), squares(t, "c3 e3 c5"); got != want {
		t.Errorf("white's replies %s, want c3 e3 c5", SquaresString(got))
	}
	p = p.Play(SquareAt(2, 2)) // c3: flips d4 back (the c3-d4-e5 diagonal)
	if p.White() != squares(t, "c3 d4 e5") || p.Black() != squares(t, "c4 d5 e4") {
		t.Errorf("after c4 c3: %s", p)
	}
}

func TestFlipRules(t *testing.T) {
	tests := []struct {
		name  string
		board string // 64 squares, black to move
		move  string
		flips string
	}{
		{
			// Rule 3: one disc outflanks rows in several directions at once
			// (horizontally, vertically and diagonally).
			name: "several directions",
			board: "X--X--X-" +
				"-O-O-O--" +
				"--OOO---" +
				"XOO-OOOX" +
				"--OOO---" +
				"-O-O-O--" +
				"X--X--X-" +
				"--------",
			move:  "d4",
			flips: "b2 c3 d2 d3 f2 e3 b4 c4 e4 f4 g4 c5 b6 d5 d6 e5 f6",
		},
		{
			// Rule 4: no skipping over one's own disc: only the white disc next
			// to the placed one flips, not the one beyond the black disc.
			name:  "own disc stops the row",
			board: "-OXOX---" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------",
			move:  "a1",
			flips: "b1",
		},
		{
			// Rule 5: discs in line but not bordered by the placed disc stay:
			// an empty square breaks the row.
			name:  "gap breaks the row",
			board: "--OO-OX-" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------",
			move:  "b1",
			flips: "",
		},
		{
			// A row that runs into the edge without a black disc is not flipped.
			name:  "open row to the edge",
			board: "-OOOOOOO" + "X-------" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------",
			move:  "a1",
			flips: "",
		},
		{
			// Rule 6: every outflanked row flips, even a long one: all six.
			name:  "whole row",
			board: "-OOOOOOX" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------" + "--------",
			move:  "a1",
			flips: "b1 c1 d1 e1 f1 g1",
		},
	}
	for _, tc := range tests {
		p := mustBoard(t, tc.board, "X")
		sq, _ := ParseSquare(tc.move)
		want := uint64(0)
		if tc.flips != "" {
			want = squares(t, tc.flips)
		}
		if got := Flips(p.Player, p.Opponent, sq); got != want {
			t.Errorf("%s: %s flips %s, want %s", tc.name, tc.move, SquaresString(got), SquaresString(want))
		}
		if legal := p.IsLegal(sq); legal != (want != 0) {
			t.Errorf("%s: IsLegal(%s) = %v", tc.name, tc.move, legal)
		}
	}
}

// Rule 2: a side that cannot flip must pass, and may not pass otherwise.
func TestForcedPass(t *testing.T) {
	// Black X on a1 only; white has b1; black can take c1? No: black needs a
	// white disc between. White to move can't move (no black disc to
	// outflank in line with an empty beyond); black can play c1.
	p := mustBoard(t, "XO------"+"--------"+"--------"+"--------"+"--------"+"--------"+"--------"+"--------", "O")
	if !p.MustPass() || p.GameOver() {
		t.Fatalf("white should have to pass: moves %s", SquaresString(p.Moves()))
	}
	if _, err := p.PlayMove(SquareAt(2, 0)); !errors.Is(err, ErrNoFlip) {
		t.Errorf("white c1: err %v, want ErrNoFlip", err)
	}
	q, err := p.PlayMove(PassMove)
	if err != nil || q.ToMove != Black || q.Moves() != squares(t, "c1") {
		t.Fatalf("after the pass: %v, %s", err, q)
	}
	if _, err := q.PlayMove(PassMove); !errors.Is(err, ErrCannotPass) {
		t.Errorf("black passing with c1 available: err %v, want ErrCannotPass", err)
	}
	// Black c1 flips b1: white has no disc left, the game ends with 61 empties.
	r := q.Play(SquareAt(2, 0))
	if !r.GameOver() || r.Empties() != 61 {
		t.Fatalf("after c1 the game should be over with 61 empties: %s", r)
	}
	res := r.Result()
	if res.Draw || res.Winner != Black || res.BlackDiscs != 3 || res.WhiteDiscs != 0 || res.Margin != 3 {
		t.Errorf("rulebook result %+v, want black 3-0, margin 3", res)
	}
	// White to move: empties go to the winner in the solver convention.
	if got := r.FinalScore(); got != -64 {
		t.Errorf("final score for white %d, want -64", got)
	}
	if got := r.BlackScoreEmptiesToWinner(); got != 64 {
		t.Errorf("WTHOR-style black score %d, want 64", got)
	}
	if _, err := r.PlayMove(PassMove); !errors.Is(err, ErrGameOver) {
		t.Errorf("move after the end: err %v, want ErrGameOver", err)
	}
}

// Rule 10 and its note: the game can end before the board is full, here a
// known 9-move game (the shortest possible) with 51 empties.
func TestEarlyEnd(t *testing.T) {
	p, err := PlayTranscript(Start(), "e6f4e3f6g5d6e7f5c5")
	if err != nil {
		t.Fatal(err)
	}
	if !p.GameOver() || p.Empties() != 51 || p.White() != 0 {
		t.Fatalf("shortest game: over=%v empties=%d white=%d", p.GameOver(), p.Empties(), Count(p.White()))
	}
	if r := p.Result(); r.Winner != Black || r.Margin != 13 {
		t.Errorf("result %v, want black by 13", r)
	}
}

// "It is also possible to have a tie game": a full board 32-32, and a
// blocked board with equal counts and empties (empties split: score 0).
func TestDraw(t *testing.T) {
	full := mustBoard(t, "XXXXXXXX"+"XXXXXXXX"+"XXXXXXXX"+"XXXXXXXX"+"OOOOOOOO"+"OOOOOOOO"+"OOOOOOOO"+"OOOOOOOO", "X")
	if !full.GameOver() || !full.Result().Draw || full.FinalScore() != 0 || full.BlackScoreEmptiesToWinner() != 32 {
		t.Errorf("full 32-32 board: %+v score %d", full.Result(), full.FinalScore())
	}
	// Two separated groups, no flips possible, 2-2 with 60 empties.
	blocked := mustBoard(t, "XX------"+"--------"+"--------"+"--------"+"--------"+"--------"+"--------"+"------OO", "O")
	if !blocked.GameOver() || !blocked.Result().Draw || blocked.FinalScore() != 0 || blocked.BlackScoreEmptiesToWinner() != 32 {
		t.Errorf("blocked 2-2 board: over=%v %+v score %d", blocked.GameOver(), blocked.Result(), blocked.FinalScore())
	}
}

func TestPlayMoveErrors(t *testing.T) {
	p := Start()
	for _, tc := range []struct {
		sq   Square
		want error
	}{
		{SquareAt(3, 3), ErrOccupied}, {SquareAt(0, 0), ErrNoFlip}, {PassMove, ErrCannotPass}, {NoSquare, ErrNotASquare},
	} {
		if _, err := p.PlayMove(tc.sq); !errors.Is(err, tc.want) {
			t.Errorf("PlayMove(%s) err %v, want %v", tc.sq, err, tc.want)
		}
	}
}
