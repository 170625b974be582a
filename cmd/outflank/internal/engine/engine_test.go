package engine_test

import (
	"context"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/enginetest"
)

// fixed is a searcher that returns a canned result, to check what Think
// does with bad ones.
type fixed struct{ info engine.Info }

func (f fixed) Search(ctx context.Context, pos bitboard.Position, lim engine.Limits, report func(engine.Info)) engine.Info {
	report(f.info)
	return f.info
}
func (fixed) Clear() {}

func mustBoard(t *testing.T, s string) bitboard.Position {
	t.Helper()
	p, err := bitboard.ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sq(s string) bitboard.Square {
	q, err := bitboard.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

func TestThinkGameOver(t *testing.T) {
	// White has no disc left; 4 empties go to black.
	pos := mustBoard(t, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX---- O")
	if !pos.GameOver() {
		t.Fatal("test position should be over")
	}
	info := engine.Think(context.Background(), &enginetest.Greedy{}, pos, engine.Limits{}, nil)
	if info.Best != bitboard.NoSquare || !info.Exact || info.Score != -64 {
		t.Errorf("got best %v exact %v score %d, want none, exact, -64", info.Best, info.Exact, info.Score)
	}
}

func TestThinkPass(t *testing.T) {
	// White to move has no move; black can take a1.
	pos := mustBoard(t, "-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O")
	if !pos.MustPass() {
		t.Fatal("test position: white should have to pass")
	}
	var reports []engine.Info
	info := engine.Think(context.Background(), &enginetest.Greedy{}, pos, engine.Limits{}, func(i engine.Info) { reports = append(reports, i) })
	if info.Best != bitboard.PassMove || len(info.PV) < 2 || info.PV[0] != bitboard.PassMove || info.PV[1] != sq("a1") {
		t.Errorf("got best %v pv %v, want PA a1", info.Best, info.PV)
	}
	// After the pass black plays a1 and has 64 discs: white's score is -64.
	if info.Score != -64 {
		t.Errorf("score %d, want -64", info.Score)
	}
	if len(reports) == 0 || reports[0].Best != bitboard.PassMove {
		t.Errorf("reports %v: want the pass", reports)
	}
}

func TestThinkRepairsBadResults(t *testing.T) {
	start := bitboard.Start()
	for _, tc := range []struct {
		name string
		in   engine.Info
	}{
		{"no move", engine.Info{Best: bitboard.NoSquare}},
		{"illegal best", engine.Info{Best: sq("a1"), PV: []bitboard.Square{sq("a1"), sq("d6")}}},
		{"pass", engine.Info{Best: bitboard.PassMove}},
		{"out of range", engine.Info{Best: 99}},
		{"illegal pv tail", engine.Info{Best: sq("f5"), PV: []bitboard.Square{sq("f5"), sq("f5"), sq("c3")}}},
		{"moves only", engine.Info{Best: bitboard.NoSquare, Moves: []engine.MoveScore{{Move: sq("a1"), Score: 9}, {Move: sq("e6"), Score: 3}}}},
	} {
		info := engine.Think(context.Background(), fixed{tc.in}, start, engine.Limits{}, func(r engine.Info) {
			if r.Best != bitboard.NoSquare && !start.IsLegal(r.Best) {
				t.Errorf("%s: report with illegal best %v", tc.name, r.Best)
			}
		})
		if !start.IsLegal(info.Best) {
			t.Errorf("%s: best %v is illegal", tc.name, info.Best)
		}
		if len(info.PV) == 0 || info.PV[0] != info.Best {
			t.Errorf("%s: pv %v does not start with best %v", tc.name, info.PV, info.Best)
		}
		if _, _, err := bitboard.Replay(start, info.PV); err != nil {
			t.Errorf("%s: pv %v illegal: %v", tc.name, info.PV, err)
		}
		for _, m := range info.Moves {
			if !start.IsLegal(m.Move) {
				t.Errorf("%s: illegal move %v in Moves", tc.name, m.Move)
			}
		}
	}
	info := engine.Think(context.Background(), fixed{engine.Info{Best: sq("a1"), Moves: []engine.MoveScore{{Move: sq("e6"), Score: 3}}}}, start, engine.Limits{}, nil)
	if info.Best != sq("e6") || info.Score != 3 {
		t.Errorf("fallback to the scored move: got %v %d", info.Best, info.Score)
	}
}

func TestFormatPV(t *testing.T) {
	got := engine.FormatPV([]bitboard.Square{sq("f5"), sq("d6"), bitboard.PassMove, sq("c3")})
	if got != "F5-D6-PA-C3" {
		t.Errorf("got %q", got)
	}
}

func TestParseClock(t *testing.T) {
	for _, tc := range []struct {
		in        string
		main, inc time.Duration
	}{
		{"15:00", 15 * time.Minute, 0},
		{"15:00//02:00", 15 * time.Minute, 0},
		{"5:00/10", 5 * time.Minute, 10 * time.Second},
		{"1:00:00", time.Hour, 0},
		{"90", 90 * time.Second, 0},
		{"0:1.5", 1500 * time.Millisecond, 0},
		{"05:00,N//02:00", 5 * time.Minute, 0},
	} {
		c, err := engine.ParseClock(tc.in)
		if err != nil || c.Main != tc.main || c.Increment != tc.inc {
			t.Errorf("%q: got %+v, %v", tc.in, c, err)
		}
	}
	for _, bad := range []string{"x", "1:2:3:4", "-5", "1.5:00", "1/2/3/4", "1e9", "NaN", "inf"} {
		if _, err := engine.ParseClock(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestGameClock(t *testing.T) {
	g, err := bitboard.ParseGGF("(;GM[Othello]TI[1:00/2]B[F5//10]W[F6//3.5]B[E6//5];)")
	if err != nil {
		t.Fatal(err)
	}
	// White to move: 60s + 2s for its one move - 3.5s.
	left, inc, ok, err := engine.GameClock(g)
	if !ok || err != nil || left != 58500*time.Millisecond || inc != 2*time.Second {
		t.Errorf("white: got %v %v %v %v", left, inc, ok, err)
	}
	g.Moves = g.Moves[:2]
	// Black to move, after its F5 in 10s: 60s + 2s - 10s.
	if left, _, _, _ = engine.GameClock(g); left != 52*time.Second {
		t.Errorf("black: got %v, want 52s", left)
	}
	g.SetProp("TB", "2:00")
	if left, _, _, _ = engine.GameClock(g); left != 110*time.Second { // TB replaces TI
		t.Errorf("black with TB: got %v, want 110s", left)
	}
	noClock, _ := bitboard.ParseGGF("(;GM[Othello];)")
	if _, _, ok, _ := engine.GameClock(noClock); ok {
		t.Error("no TI: ok")
	}
}

func TestBudget(t *testing.T) {
	prev := time.Duration(0)
	for empties := 60; empties >= 1; empties-- {
		b := engine.Budget(10*time.Minute, 0, empties)
		if b <= 0 || b > 5*time.Minute {
			t.Fatalf("%d empties: budget %v", empties, b)
		}
		if b < prev {
			t.Errorf("%d empties: budget %v shrinks from %v with the same time left", empties, b, prev)
		}
		prev = b
	}
	if b := engine.Budget(0, 0, 30); b <= 0 {
		t.Errorf("no time left: budget %v, want a small positive time", b)
	}
	if b := engine.Budget(-time.Second, 0, 30); b <= 0 {
		t.Errorf("over time: budget %v", b)
	}
}

func TestHistory(t *testing.T) {
	h := engine.NewHistory(bitboard.Start())
	play := func(s string) {
		t.Helper()
		m, err := bitboard.ParseGameMove(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Play(m); err != nil {
			t.Fatalf("play %s: %v", s, err)
		}
	}
	play("f5")
	play("d6")
	if err := h.Play(bitboard.GameMove{Square: sq("a1")}); err == nil {
		t.Error("illegal a1 accepted")
	}
	if h.Moves() != 2 {
		t.Fatalf("moves %d", h.Moves())
	}
	after2 := h.Position()
	if !h.Undo() || h.Moves() != 1 || !h.Redo() || h.Position() != after2 {
		t.Error("undo/redo round trip failed")
	}
	h.Undo()
	h.Undo()
	if h.Undo() || h.Position() != bitboard.Start() {
		t.Error("undo past the start")
	}
	play("f5") // the move redo would replay: redo keeps d6
	if !h.CanRedo() || !h.Redo() || h.Position() != after2 {
		t.Error("redo lost after replaying the undone move")
	}
	h.Undo()
	play("f6") // a different move: redo is forgotten
	if h.CanRedo() {
		t.Error("redo kept after a different move")
	}
}

func TestHistoryImpliedPass(t *testing.T) {
	// White must pass; black plays a1 as the next step: undo takes back
	// both the move and the implied pass.
	pos := mustBoard(t, "-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O")
	h := engine.NewHistory(pos)
	if err := h.Play(bitboard.GameMove{Square: sq("a1")}); err != nil {
		t.Fatal(err)
	}
	if h.Moves() != 2 || !h.Position().GameOver() {
		t.Fatalf("moves %d", h.Moves())
	}
	h.Undo()
	if h.Position() != pos {
		t.Error("undo did not take back the implied pass")
	}
	// An explicit pass is a step of its own.
	h.Play(bitboard.GameMove{Square: bitboard.PassMove})
	h.Play(bitboard.GameMove{Square: sq("a1")})
	h.Undo()
	if h.Position() != pos.Pass() {
		t.Error("undo took back the explicit pass too")
	}
}

func FuzzParseClock(f *testing.F) {
	for _, s := range []string{"15:00//02:00", "5:00/10", "1:00:00", "90", "0:1.5", "05:00,N//02:00", "::", "1e9", "-0", "NaN", "1:NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := engine.ParseClock(s)
		if err != nil {
			return
		}
		if c.Main < 0 || c.Increment < 0 || c.Grace < 0 {
			t.Fatalf("%q: negative clock %+v", s, c)
		}
		if b := engine.Budget(c.Main, c.Increment, 30); b <= 0 {
			t.Fatalf("%q: budget %v", s, b)
		}
	})
}

func TestBookChoice(t *testing.T) {
	start := bitboard.Start()
	b := enginetest.Book{start: {
		{Move: sq("a1"), Score: 9, Games: 100},                     // illegal: a damaged book
		{Move: sq("f5"), Score: 3, Games: engine.MinBookGames - 1}, // too few games
		{Move: sq("d3"), Score: 1, Games: engine.MinBookGames},     // the choice
		{Move: sq("c4"), Score: 0, Games: 5 * engine.MinBookGames},
	}}
	if m, ok := engine.BookChoice(b, start); !ok || m.Move != sq("d3") {
		t.Errorf("got %v %v, want d3", m, ok)
	}
	if _, ok := engine.BookChoice(b, start.Play(sq("f5"))); ok {
		t.Error("book move out of book")
	}
	if _, ok := engine.BookChoice(nil, start); ok {
		t.Error("book move without a book")
	}
}

func TestOnlyMove(t *testing.T) {
	lim := engine.Limits{Depth: 20, EndgameEmpties: 24, Time: time.Minute}
	if got := engine.OnlyMove(bitboard.Start(), lim); got != lim {
		t.Errorf("four moves: limits changed to %+v", got)
	}
	// White must pass: forced.
	pass := mustBoard(t, "-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O")
	if got := engine.OnlyMove(pass, lim); got.Depth != 4 || got.EndgameEmpties != 12 || got.Time != time.Minute {
		t.Errorf("forced: %+v", got)
	}
	if got := engine.OnlyMove(pass, engine.Limits{Depth: 2, EndgameEmpties: 6}); got.Depth != 2 || got.EndgameEmpties != 6 {
		t.Errorf("forced, already shallow: %+v", got)
	}
}
