package play_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/search"
)

// fixed is a searcher that returns a canned result, to check what Think
// does with bad ones.
type fixed struct{ info search.Info }

func (f fixed) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
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
	info := play.Think(context.Background(), &playtest.Greedy{}, pos, search.Limits{}, nil)
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
	var reports []search.Info
	info := play.Think(context.Background(), &playtest.Greedy{}, pos, search.Limits{}, func(i search.Info) { reports = append(reports, i) })
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
		in   search.Info
	}{
		{"no move", search.Info{Best: bitboard.NoSquare}},
		{"illegal best", search.Info{Best: sq("a1"), PV: []bitboard.Square{sq("a1"), sq("d6")}}},
		{"pass", search.Info{Best: bitboard.PassMove}},
		{"out of range", search.Info{Best: 99}},
		{"illegal pv tail", search.Info{Best: sq("f5"), PV: []bitboard.Square{sq("f5"), sq("f5"), sq("c3")}}},
		{"moves only", search.Info{Best: bitboard.NoSquare, Moves: []search.MoveScore{{Move: sq("a1"), Score: 9}, {Move: sq("e6"), Score: 3}}}},
	} {
		info := play.Think(context.Background(), fixed{tc.in}, start, search.Limits{}, func(r search.Info) {
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
	info := play.Think(context.Background(), fixed{search.Info{Best: sq("a1"), Moves: []search.MoveScore{{Move: sq("e6"), Score: 3}}}}, start, search.Limits{}, nil)
	if info.Best != sq("e6") || info.Score != 3 {
		t.Errorf("fallback to the scored move: got %v %d", info.Best, info.Score)
	}
}

func TestFormatPV(t *testing.T) {
	got := play.FormatPV([]bitboard.Square{sq("f5"), sq("d6"), bitboard.PassMove, sq("c3")})
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
		c, err := play.ParseClock(tc.in)
		if err != nil || c.Main != tc.main || c.Increment != tc.inc {
			t.Errorf("%q: got %+v, %v", tc.in, c, err)
		}
	}
	for _, bad := range []string{"x", "1:2:3:4", "-5", "1.5:00", "1/2/3/4", "1e9", "NaN", "inf"} {
		if _, err := play.ParseClock(bad); err == nil {
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
	c, ok, err := play.GameClock(g)
	if !ok || err != nil || c.Left != 58500*time.Millisecond || c.Increment != 2*time.Second {
		t.Errorf("white: got %+v %v %v", c, ok, err)
	}
	g.Moves = g.Moves[:2]
	// Black to move, after its F5 in 10s: 60s + 2s - 10s.
	if c, _, _ = play.GameClock(g); c.Left != 52*time.Second {
		t.Errorf("black: got %v, want 52s", c.Left)
	}
	g.SetProp("TB", "2:00")
	if c, _, _ = play.GameClock(g); c.Left != 110*time.Second { // TB replaces TI
		t.Errorf("black with TB: got %v, want 110s", c.Left)
	}
	noClock, _ := bitboard.ParseGGF("(;GM[Othello];)")
	if _, ok, _ := play.GameClock(noClock); ok {
		t.Error("no TI: ok")
	}
}

func TestHistory(t *testing.T) {
	h := play.NewHistory(bitboard.Start())
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
	h := play.NewHistory(pos)
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
		c, err := play.ParseClock(s)
		if err != nil {
			return
		}
		if c.Main < 0 || c.Increment < 0 || c.Grace < 0 {
			t.Fatalf("%q: negative clock %+v", s, c)
		}
		soft, hard := search.Clock{Left: c.Main, Increment: c.Increment}.Limits(30)
		if soft <= 0 || hard < soft {
			t.Fatalf("%q: limits %v %v", s, soft, hard)
		}
	})
}

func TestBookChoice(t *testing.T) {
	start := bitboard.Start()
	b := playtest.Book{start: {
		{Move: sq("a1"), Score: 9, Games: 100},                   // illegal: a damaged book
		{Move: sq("f5"), Score: 3, Games: play.MinBookGames - 1}, // too few games
		{Move: sq("d3"), Score: 1, Games: play.MinBookGames},     // the choice
		{Move: sq("c4"), Score: 0, Games: 5 * play.MinBookGames},
	}}
	if m, ok := play.BookChoice(b, start); !ok || m.Move != sq("d3") {
		t.Errorf("got %v %v, want d3", m, ok)
	}
	if _, ok := play.BookChoice(b, start.Play(sq("f5"))); ok {
		t.Error("book move out of book")
	}
	if _, ok := play.BookChoice(nil, start); ok {
		t.Error("book move without a book")
	}
}

// recorder is a searcher that records the limits it was given.
type recorder struct {
	playtest.Greedy
	lim []search.Limits
}

func (r *recorder) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	r.lim = append(r.lim, lim)
	return r.Greedy.Search(ctx, pos, lim, report)
}

func TestGoForcedMove(t *testing.T) {
	r := &recorder{}
	p := &play.Player{Engine: r, Settings: play.Settings{Depth: 20, Endgame: 24, Time: time.Minute}}
	m, _ := p.Go(context.Background(), bitboard.Start(), nil, nil)
	if got := r.lim[0]; m.How != play.Searched || got.Depth != 20 || got.EndgameEmpties != 24 || got.Time != time.Minute {
		t.Errorf("four moves: %v, limits %+v", m.How, got)
	}
	// White must pass: forced.
	pass := mustBoard(t, "-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O")
	m, _ = p.Go(context.Background(), pass, nil, nil)
	if got := r.lim[1]; m.How != play.Forced || m.Square != bitboard.PassMove || got.Depth != 4 || got.EndgameEmpties != 12 || got.Time != time.Minute {
		t.Errorf("forced: %v %v, limits %+v", m.How, m.Square, got)
	}
	p.Settings = play.Settings{Depth: 2, Endgame: 6}
	p.Go(context.Background(), pass, nil, nil)
	if got := r.lim[2]; got.Depth != 2 || got.EndgameEmpties != 6 {
		t.Errorf("forced, already shallow: %+v", got)
	}
}

func TestGoClock(t *testing.T) {
	r := &recorder{}
	p := &play.Player{Engine: r}
	clock := &play.Clock{Left: time.Minute}
	p.Go(context.Background(), bitboard.Start(), clock, nil)
	soft, hard := clock.Limits(60)
	if got := r.lim[0]; got.Soft != soft || got.Time != hard || soft <= 0 || hard < soft {
		t.Errorf("clock: limits %+v, want soft %v hard %v", got, soft, hard)
	}
	// The settings' time cap wins over a longer clock.
	p.Settings.Time = time.Millisecond
	p.Go(context.Background(), bitboard.Start(), clock, nil)
	if got := r.lim[1]; got.Time != time.Millisecond || got.Soft > got.Time {
		t.Errorf("capped: limits %+v", got)
	}
}

func TestGoBookAndGameOver(t *testing.T) {
	start := bitboard.Start()
	g := &playtest.Greedy{}
	p := &play.Player{Engine: g, Book: playtest.Book{start: {{Move: sq("d3"), Score: 1.5, Games: play.MinBookGames}}}}
	m, _ := p.Go(context.Background(), start, nil, nil)
	if m.How != play.FromBook || m.Square != sq("d3") || m.Eval != 1.5 || g.Searches.Load() != 0 {
		t.Errorf("book: %+v after %d searches", m, g.Searches.Load())
	}
	p.Settings.NoBook = true
	if m, _ = p.Go(context.Background(), start, nil, nil); m.How != play.Searched || g.Searches.Load() != 1 {
		t.Errorf("no book: %+v", m)
	}
	over := mustBoard(t, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX---- O")
	m, info := p.Go(context.Background(), over, nil, nil)
	if m.How != play.GameOver || m.Square != bitboard.NoSquare || !info.Exact || info.Score != -64 {
		t.Errorf("game over: %+v %+v", m, info)
	}
}

// TestThinkPassRealSearch checks the one place passes are handled, the
// search, through the play layer.
func TestThinkPassRealSearch(t *testing.T) {
	pos := mustBoard(t, "-OXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX O")
	eng := search.New(search.Options{HashMB: 1})
	info := play.Think(context.Background(), eng, pos, search.Limits{Depth: 4}, nil)
	if info.Best != bitboard.PassMove || len(info.PV) < 2 || info.PV[1] != sq("a1") || info.Score != -64 || !info.Exact {
		t.Errorf("got %+v, want PA a1, exact -64", info)
	}
}

// TestGoAlwaysLegal plays random games with the real search under limits
// that stop it at once or almost (a spent clock, a cancelled context, a
// forced pass): every move Go returns is legal.
func TestGoAlwaysLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	p := &play.Player{Engine: search.New(search.Options{HashMB: 1})}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	games := 20
	if testing.Short() {
		games = 4
	}
	for g := range games {
		pos := bitboard.Start()
		for !pos.GameOver() {
			ctx := context.Background()
			clock := &play.Clock{Left: time.Duration(rng.IntN(3)) * time.Millisecond}
			if g%2 == 1 {
				ctx, clock = cancelled, nil
			}
			m, _ := p.Go(ctx, pos, clock, nil)
			if !pos.IsLegal(m.Square) {
				t.Fatalf("game %d, %v: Go returned %v", g, pos, m.Square)
			}
			if m.Square == bitboard.PassMove {
				pos = pos.Pass()
				continue
			}
			// Play a random move, not the engine's, to vary the games.
			moves := pos.Moves()
			for k := rng.IntN(bitboard.Count(moves)); k > 0; k-- {
				moves &= moves - 1
			}
			pos = pos.Play(bitboard.FirstSquare(moves))
		}
		if m, _ := p.Go(context.Background(), pos, nil, nil); m.Square != bitboard.NoSquare || m.How != play.GameOver {
			t.Fatalf("game %d over: Go returned %v", g, m.Square)
		}
	}
}

// TestSettingsSelectivity: the player's selectivity reaches the search,
// and a real search reports it.
func TestSettingsSelectivity(t *testing.T) {
	for _, sel := range []int{0, 73, 95, 100} {
		set := play.Settings{Depth: 6, Selectivity: sel}
		lim := set.Limits()
		if lim.Selectivity != sel {
			t.Errorf("Settings{Selectivity: %d}.Limits().Selectivity = %d", sel, lim.Selectivity)
		}
		want := sel
		if sel == 0 {
			want = search.DefaultSelectivity
		}
		info := search.New(search.Options{HashMB: 1}).Search(context.Background(), bitboard.Start(), lim, nil)
		if info.Selectivity != want {
			t.Errorf("selectivity %d: the search reports %d%%, want %d%%", sel, info.Selectivity, want)
		}
	}
}

// evalOnly answers every search with its best move valued by a fixed,
// inexact score, as a search with nothing left to search did.
type evalOnly struct{ score int }

func (e evalOnly) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	return search.Info{Best: bitboard.FirstSquare(pos.Moves()), Score: e.score, Selectivity: 73}
}

func (evalOnly) Clear() {}

// TestThinkLastMoveIsResult: a best move that ends the game is valued by
// the game's result, exact, whatever the search reported (the last move of
// a game was shown as "+24, depth 0@73%" in a game that ended +28).
func TestThinkLastMoveIsResult(t *testing.T) {
	pos := mustBoard(t, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOO- X")
	info := play.Think(context.Background(), evalOnly{24}, pos, search.Limits{}, nil)
	if info.Score != 28 || !info.Exact || info.Selectivity != 100 {
		t.Errorf("last move valued %+d exact %v at %d%%, want +28 exact", info.Score, info.Exact, info.Selectivity)
	}
	if info := play.Think(context.Background(), evalOnly{24}, pos, search.Limits{WLD: true}, nil); info.Score != 1 || !info.WLD {
		t.Errorf("win/loss/draw: %+d %v", info.Score, info.WLD)
	}
	// A move that does not end the game keeps the search's value.
	two := mustBoard(t, "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOO-- X")
	if info := play.Think(context.Background(), evalOnly{24}, two, search.Limits{}, nil); info.Exact || info.Score != 24 {
		t.Errorf("a move before the last: %+d exact %v", info.Score, info.Exact)
	}
}
