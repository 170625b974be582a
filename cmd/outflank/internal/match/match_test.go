package match

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// fake is the spec of the fake engine in the given mode.
func fake(t *testing.T, mode string, after int, opts string) Spec {
	t.Helper()
	sp, err := ParseSpec(fmt.Sprintf("nboard%s:'%s' fakeengine %s %d", opts, testBinary(t), mode, after))
	if err != nil {
		t.Fatal(err)
	}
	if sp.Name == "" {
		sp.Name = mode
	}
	return sp
}

// checkRecord replays a game's GGF record and checks it against the result.
func checkRecord(t *testing.T, r GameResult) {
	t.Helper()
	g, err := bitboard.ParseGGF(r.Record.GGF())
	if err != nil {
		t.Fatalf("game %d: record does not parse: %v\n%s", r.Index+1, err, r.Record.GGF())
	}
	re, _ := g.Prop("RE")
	if r.Forfeit != nil {
		if !strings.HasSuffix(re, ":t") && !strings.HasSuffix(re, ":r") {
			t.Errorf("game %d: forfeit but RE[%s]", r.Index+1, re)
		}
		return
	}
	end := g.Current()
	if !end.GameOver() {
		t.Errorf("game %d: played out but the last position is not over: %s", r.Index+1, end)
	}
	black := 2*end.BlackScoreEmptiesToWinner() - 64
	if want := fmt.Sprintf("%+d.000", black); re != want {
		t.Errorf("game %d: RE[%s], the board says %s", r.Index+1, re, want)
	}
	a := black
	if r.Black == 1 {
		a = -black
	}
	if a != r.Margin {
		t.Errorf("game %d: margin %d, the board says %d for A", r.Index+1, r.Margin, a)
	}
}

// children lists this process's child processes where Linux tells
// (/proc/self/task/*/children); nil elsewhere.
func children() []string {
	files, _ := filepath.Glob("/proc/self/task/*/children")
	var out []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		out = append(out, strings.Fields(string(b))...)
	}
	return out
}

// noLeaks waits briefly for the goroutines of a match to end and fails if
// more remain than before it, or if an engine process is left.
func noLeaks(t *testing.T, before int) {
	t.Helper()
	if c := children(); len(c) > 0 {
		t.Errorf("engine processes left running: %v", c)
	}
	for i := 0; i < 50 && runtime.NumGoroutine() > before; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left running (had %d):\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

func TestMatchFakeEngines(t *testing.T) {
	before := runtime.NumGoroutine()
	var records []GameResult
	var progress []Summary
	var log bytes.Buffer
	cfg := Config{
		Engines:     [2]Spec{fake(t, "first", 0, ""), fake(t, "first", 0, ",depth=3")},
		Openings:    XOT()[:3],
		Concurrency: 2,
		Seed:        7,
		MoveTimeout: 20 * time.Second, // fail rather than hang
		Record:      func(r GameResult) { records = append(records, r) },
		Progress:    func(s Summary) { progress = append(progress, s) },
		Log:         &log,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	noLeaks(t, before)
	if rep.Summary.Games != 6 || len(records) != 6 || len(progress) == 0 || progress[len(progress)-1].Games != 6 {
		t.Fatalf("games %d, records %d, progress calls %d; want 6 games, 6 records, progress up to 6", rep.Summary.Games, len(records), len(progress))
	}
	for i, r := range records {
		if r.Index != i {
			t.Errorf("record %d has index %d: records out of order", i, r.Index)
		}
		if r.Forfeit != nil {
			t.Errorf("game %d: unexpected forfeit %v", i+1, r.Forfeit.Fault)
		}
		checkRecord(t, r)
	}
	// Both engines play the first legal move, so the two games of an
	// opening are the same game with the names swapped: A scores exactly 1
	// in each pair and the disc margins cancel.
	for i := 0; i < 6; i += 2 {
		a, b := records[i], records[i+1]
		if a.Opening != b.Opening || a.Black == b.Black {
			t.Errorf("games %d and %d: not one opening with colours swapped", i+1, i+2)
		}
		if a.Score+b.Score != 1 || a.Margin != -b.Margin {
			t.Errorf("games %d and %d: scores %v %v margins %d %d; want a mirror pair", i+1, i+2, a.Score, b.Score, a.Margin, b.Margin)
		}
		if !strings.HasPrefix(records[i].Record.GGF(), "(;GM[Othello]PC[outflank match]") {
			t.Errorf("game %d: GGF %q", i+1, records[i].Record.GGF())
		}
	}
	s := rep.Summary
	if s.Score != 0.5 || !s.Paired || s.ScoreErr != 0 || s.Elo != 0 {
		t.Errorf("summary: score %v ± %v paired %v Elo %v; want 0.5 ± 0, paired, 0", s.Score, s.ScoreErr, s.Paired, s.Elo)
	}
	for i := range 2 {
		if s.Moves[i] < 6*20 || s.Nodes[i] != 1000*uint64(s.Moves[i]) || s.Think[i] <= 0 {
			t.Errorf("engine %d: %d moves, %d nodes (want 1000 a move), %v", i, s.Moves[i], s.Nodes[i], s.Think[i])
		}
		if s.Longest[i] <= 0 || s.Longest[i] > s.Think[i] || s.Over[i] != 0 {
			t.Errorf("engine %d: longest move %s of %s, %d over (no time a move: want none)", i, s.Longest[i], s.Think[i], s.Over[i])
		}
	}
	if rep.Engines[1].Name != "Fake3" || rep.Engines[1].Depth != 3 || rep.Engines[0].Depth != DefaultDepth {
		t.Errorf("engines: %+v", rep.Engines)
	}
	for _, want := range []string{"game 1 A> nboard 2", "A> set depth 8", "B> set depth 3", "B< set myname Fake3", "> set game (;GM[Othello]", "> ping ", "> go", "< === "} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("protocol log lacks %q", want)
		}
	}
	// After the first set game, an engine hears of each move by "move".
	if !strings.Contains(log.String(), "> move ") {
		t.Errorf("protocol log has no \"move\" updates")
	}
	var tbl, js bytes.Buffer
	rep.WriteTable(&tbl)
	if !strings.Contains(tbl.String(), "A total") || !strings.Contains(tbl.String(), "Elo A - B: +0") || !strings.Contains(tbl.String(), "1000 nodes a move") {
		t.Errorf("table:\n%s", tbl.String())
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back["games"] != 6.0 {
		t.Errorf("json: %v\n%s", err, js.String())
	}
}

// Each misbehaviour loses the game for the engine that misbehaved; the
// match goes on (with a fresh process) and finishes.
func TestMatchSurvivesFaults(t *testing.T) {
	cases := []struct {
		mode  string
		after int
		opts  string
		kind  FaultKind
	}{
		{"illegal", 0, "", FaultIllegal},
		{"pass", 1, "", FaultIllegal},
		{"garbage", 0, "", FaultProtocol},
		{"crash", 2, "", FaultCrash},
		{"silent", 1, "", FaultTimeout},
		{"deaf", 0, ",time=50ms", FaultTimeout},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			before := runtime.NumGoroutine()
			var events []Event
			cfg := Config{
				Engines:     [2]Spec{fake(t, "first", 0, ""), fake(t, c.mode, c.after, c.opts)},
				Openings:    XOT()[:2],
				Concurrency: 2,
				MoveTimeout: 700 * time.Millisecond,
				Event:       func(e Event) { events = append(events, e) },
			}
			rep, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			noLeaks(t, before)
			s := rep.Summary
			if s.Games != 4 || s.Forfeits[1] != 4 || s.Faults[1][c.kind] != 4 || s.Score != 1 {
				t.Fatalf("games %d, B forfeits %d (%v), A score %v; want 4 games all lost by B with %s",
					s.Games, s.Forfeits[1], s.Faults[1], s.Score, c.kind)
			}
			if len(events) != 4 || !strings.Contains(events[0].Text, "engine B ("+c.mode+") loses") {
				t.Errorf("events: %v", events)
			}
			for _, r := range rep.Results {
				checkRecord(t, r)
				if r.Forfeit.Ply < 8+c.after {
					t.Errorf("game %d: forfeit at ply %d, before the fake engine's %d good moves", r.Index+1, r.Forfeit.Ply, c.after)
				}
			}
			if c.mode == "crash" && !strings.Contains(rep.Results[0].Forfeit.Fault.Detail, "crashing on purpose") {
				t.Errorf("crash report lacks the engine's last stderr line: %q", rep.Results[0].Forfeit.Fault.Detail)
			}
		})
	}
}

// An engine that answers the stop 150 ms late, at 20 ms a move, has every
// move over its time and late; one that answers at once has none late.
func TestMatchLateMoves(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := Config{
		Engines:     [2]Spec{fake(t, "first", 0, ",time=20ms"), fake(t, "laggard", 0, ",time=20ms")},
		Openings:    []Opening{firstMoves(50)},
		Games:       1,
		Concurrency: 1,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	noLeaks(t, before)
	s := rep.Summary
	if rep.Results[0].Forfeit != nil || s.Moves[1] == 0 {
		t.Fatalf("laggard: %d moves, forfeit %+v", s.Moves[1], rep.Results[0].Forfeit)
	}
	if s.Over[1] != s.Moves[1] || s.Late[1] != s.Moves[1] || s.Late[0] != 0 {
		t.Errorf("laggard: %d moves, %d over, %d late; the prompt engine %d late", s.Moves[1], s.Over[1], s.Late[1], s.Late[0])
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"moves_late":%d}`, s.Late[1]); !strings.Contains(js.String(), want) {
		t.Errorf("JSON lacks %s:\n%s", want, js.String())
	}
}

// In time mode the harness stops a thinking engine with a ping and takes
// the move it answers before the pong.
func TestMatchTimeStop(t *testing.T) {
	before := runtime.NumGoroutine()
	var log bytes.Buffer
	self, err := ParseSpec("self:time=30ms,hash=1")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{
		Engines:     [2]Spec{self, fake(t, "stopper", 0, ",time=20ms")},
		Self:        testBinary(t),
		Openings:    XOT()[:1],
		Games:       1,
		Concurrency: 1,
		Log:         &log,
	}
	cfg.Openings[0] = firstMoves(44) // leaves a short game to play
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	noLeaks(t, before)
	if rep.Summary.Games != 1 || rep.Results[0].Forfeit != nil {
		t.Fatalf("the stopped engine's moves were not taken: %+v", rep.Results[0].Forfeit)
	}
	checkRecord(t, rep.Results[0])
	// The stop comes at the time per move itself, not after the forfeit
	// grace (20ms + 52ms): otherwise an engine that thinks until stopped
	// gets more time than one that keeps to its time. The fastest of the
	// stopper's moves shows when the ping went (later ones may wait on a
	// busy machine).
	r := rep.Results[0]
	stopper := bitboard.White // B's colour
	if r.Black == 1 {
		stopper = bitboard.Black
	}
	fastest, timed := time.Hour, 0
	pos := r.Record.Positions()
	for i, m := range r.Record.Moves {
		if m.HasTime && pos[i].ToMove == stopper {
			fastest = min(fastest, time.Duration(m.Time*float64(time.Second)))
			timed++
		}
	}
	if timed == 0 || fastest >= 20*time.Millisecond+grace(20*time.Millisecond) {
		t.Errorf("the stopper's fastest of %d timed moves took %s: stopped after the grace, not at its 20ms", timed, fastest)
	}
	// The stopper answers only once stopped, at its time or after it:
	// every one of its moves counts as over, and the report says so.
	if s := rep.Summary; s.Moves[1] == 0 || s.Over[1] != s.Moves[1] || s.Longest[1] < 20*time.Millisecond {
		t.Errorf("stopper: %d moves, %d over 20ms, longest %s", s.Moves[1], s.Over[1], s.Longest[1])
	}
	var tbl bytes.Buffer
	rep.WriteTable(&tbl)
	if want := fmt.Sprintf("%d over 20ms (%d late: past 70ms)", rep.Summary.Over[1], rep.Summary.Late[1]); !strings.Contains(tbl.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, tbl.String())
	}
	// Both play on time, 0.3 s and 0.2 s for their moves left: whole
	// seconds rounded up, the same second for both.
	if !strings.Contains(log.String(), "TI[0:01]") {
		t.Errorf("clock TI[0:01] not sent (%d empties):\n%s", firstMoves(44).Position().Empties(), log.String())
	}
	// The self engine also gets its time as the --time cap, its options,
	// and one thread (outflank nboard alone would take every core).
	if !strings.Contains(log.String(), "A< [stderr] fake engine flags: --hash=1 --time=30ms --threads=1") {
		t.Errorf("self engine flags wrong:\n%s", log.String())
	}
}

// On a game clock (clock=) the harness never stops an engine: one that
// thinks past its clock loses on time, and the clock is sent as TI/TB/TW.
func TestMatchClockForfeit(t *testing.T) {
	var log bytes.Buffer
	cfg := Config{
		Engines:     [2]Spec{fake(t, "stopper", 0, ",clock=300ms"), fake(t, "first", 0, "")},
		Self:        testBinary(t),
		Openings:    []Opening{firstMoves(44)},
		Games:       1,
		Concurrency: 1,
		Log:         &log,
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Results[0].Forfeit
	if f == nil || f.Engine != 0 || f.Fault.Kind != FaultTimeout || !strings.Contains(f.Fault.Detail, "clock") {
		t.Fatalf("want A to lose on time over its clock, got %+v", f)
	}
	if !strings.Contains(log.String(), "TB[0:01]") {
		t.Errorf("clock TB[0:01] (300ms rounded up) not sent:\n%s", log.String())
	}
	l := log.String()
	if i := strings.LastIndex(l, "A> go"); i < 0 || strings.Contains(l[i:], "A> ping") {
		t.Errorf("the harness stopped an engine on a game clock:\n%s", log.String())
	}
}

// firstMoves is the opening of n plies (passes included) in which each side
// plays its first legal move.
func firstMoves(n int) Opening {
	op := Opening{Name: "first-moves", Start: bitboard.Start()}
	p := op.Start
	for range n {
		if p.GameOver() {
			break
		}
		m := bitboard.PassMove
		if p.Moves() != 0 {
			m = bitboard.FirstSquare(p.Moves())
		}
		op.Moves = append(op.Moves, m)
		p, _ = p.PlayMove(m)
	}
	return op
}

// An engine that cannot start at all fails the match at once, clearly.
func TestMatchStartFailure(t *testing.T) {
	before := runtime.NumGoroutine()
	for _, b := range []Spec{
		fake(t, "nopong", 0, ""),
		{Text: "nboard:/nonexistent/engine", Command: []string{"/nonexistent/engine"}},
	} {
		cfg := Config{
			Engines:      [2]Spec{fake(t, "first", 0, ""), b},
			Openings:     XOT()[:1],
			StartTimeout: 500 * time.Millisecond,
		}
		_, err := Run(context.Background(), cfg)
		if err == nil || !strings.HasPrefix(err.Error(), "engine B ("+b.Text+"): start: ") {
			t.Errorf("%s: error %v; want engine B start error", b.Text, err)
		}
	}
	noLeaks(t, before)
}

// Cancelling the match stops the games in progress and returns what was
// finished, with the context's error.
func TestMatchCancel(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{
		Engines:     [2]Spec{fake(t, "first", 0, ""), fake(t, "silent", 0, "")},
		Openings:    XOT()[:2],
		Concurrency: 2,
		MoveTimeout: time.Minute,
	}
	time.AfterFunc(300*time.Millisecond, cancel)
	rep, err := Run(ctx, cfg)
	if err != context.Canceled {
		t.Fatalf("err %v; want context.Canceled", err)
	}
	if rep == nil || rep.Summary.Games != 0 {
		t.Errorf("report %+v; want no finished games", rep)
	}
	noLeaks(t, before)
}

func TestPlan(t *testing.T) {
	ops := XOT()[:5]
	p := Plan(ops, 0, 1)
	if len(p) != 10 {
		t.Fatalf("%d games; want 10", len(p))
	}
	seen := map[string]int{}
	for i, g := range p {
		if g.Index != i || g.Black != i%2 {
			t.Errorf("game %d: index %d black %d", i, g.Index, g.Black)
		}
		if i%2 == 1 && g.Opening.Name != p[i-1].Opening.Name {
			t.Errorf("games %d and %d have different openings", i, i+1)
		}
		seen[g.Opening.Name]++
	}
	if len(seen) != 5 {
		t.Errorf("%d distinct openings; want 5", len(seen))
	}
	q := Plan(ops, 0, 1)
	r := Plan(ops, 0, 2)
	same, differs := true, false
	for i := range p {
		same = same && p[i].Opening.Name == q[i].Opening.Name
		differs = differs || p[i].Opening.Name != r[i].Opening.Name
	}
	if !same || !differs {
		t.Errorf("same seed same order: %v; another seed another order: %v", same, differs)
	}
	if n := len(Plan(ops, 3, 1)); n != 3 {
		t.Errorf("--games 3 planned %d", n)
	}
}

// BenchmarkFakeGames measures the harness itself: whole games between two
// fake engines that answer at once (their start is amortised over b.N
// games), so the time is the protocol round trips and the refereeing.
func BenchmarkFakeGames(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	sp, _ := ParseSpec("nboard:'" + exe + "' fakeengine first 0")
	cfg := Config{
		Engines:     [2]Spec{sp, sp},
		Openings:    StandardStart(),
		Games:       b.N,
		Concurrency: 1,
	}
	b.ResetTimer()
	rep, err := Run(context.Background(), cfg)
	if err != nil || rep.Summary.Games != b.N {
		b.Fatalf("%v, %d games", err, rep.Summary.Games)
	}
	moves := 0
	for _, r := range rep.Results {
		moves += len(r.Record.Moves)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(moves), "µs/move")
}

// A start position (as --start gives) whose side to move must pass: the
// harness passes for it, and the records start with the pass.
func TestMatchStartMustPass(t *testing.T) {
	p := bitboard.Start()
	for !p.MustPass() {
		if p.GameOver() {
			t.Fatal("no pass in the first-moves game")
		}
		p = p.Play(bitboard.FirstSquare(p.Moves()))
	}
	ops, err := ReadStartPositions(strings.NewReader(p.String() + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Config{
		Engines:     [2]Spec{fake(t, "first", 0, ""), fake(t, "first", 0, "")},
		Openings:    ops,
		MoveTimeout: 20 * time.Second, // fail rather than hang
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Results {
		if r.Forfeit != nil || r.Record.Moves[0].Square != bitboard.PassMove || r.Record.Start != p {
			t.Errorf("game %d: forfeit %v, record %s", r.Index+1, r.Forfeit, r.Record.GGF())
		}
		checkRecord(t, r)
	}
}

// Edax 4.4 writes "=== f5 1.00 0.0" (blanks, not slashes) and complains
// about "nboard 2" on stderr; neither disturbs a match.
func TestMatchEdaxStyle(t *testing.T) {
	rep, err := Run(context.Background(), Config{
		Engines:     [2]Spec{fake(t, "edaxstyle", 0, ""), fake(t, "first", 0, "")},
		Openings:    XOT()[:1],
		MoveTimeout: 20 * time.Second, // fail rather than hang
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Summary; s.Games != 2 || s.Forfeits != [2]int{} || s.Nodes[0] != 1000*uint64(s.Moves[0]) {
		t.Fatalf("summary %+v", s)
	}
	for _, r := range rep.Results {
		checkRecord(t, r)
	}
}

// With OUTFLANK_EDAX set to an Edax binary (its data/ beside it), the
// harness plays it on depth and on time (stopped by ping) against the fake
// engine. Skipped otherwise: Edax is not part of the repository.
func TestMatchEdax(t *testing.T) {
	edax := os.Getenv("OUTFLANK_EDAX")
	if edax == "" {
		t.Skip("OUTFLANK_EDAX not set")
	}
	for _, opts := range []string{"depth=2", "time=50ms"} {
		sp, err := ParseSpec(fmt.Sprintf("nboard,%s,dir=%s:'%s' -nboard -n 1", opts, filepath.Dir(edax), edax))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(context.Background(), Config{
			Engines:     [2]Spec{fake(t, "first", 0, ""), sp},
			Openings:    XOT()[:1],
			MoveTimeout: 20 * time.Second, // fail rather than hang
		})
		if err != nil {
			t.Fatal(err)
		}
		if s := rep.Summary; s.Games != 2 || s.Forfeits != [2]int{} || !strings.HasPrefix(rep.Engines[1].Name, "Edax") {
			t.Errorf("%s: %+v, engine %q", opts, s, rep.Engines[1].Name)
		}
		for _, r := range rep.Results {
			checkRecord(t, r)
		}
	}
}

// Junk from an engine (unknown, empty, huge and binary lines, stale pongs)
// is ignored as a GUI ignores it; only the answers count.
func TestMatchChaos(t *testing.T) {
	rep, err := Run(context.Background(), Config{
		Engines:     [2]Spec{fake(t, "chaos", 0, ""), fake(t, "first", 0, "")},
		Openings:    XOT()[:1],
		MoveTimeout: 20 * time.Second, // fail, do not hang, if an answer is lost
	})
	if err != nil {
		t.Fatal(err)
	}
	if s := rep.Summary; s.Games != 2 || s.Forfeits != [2]int{} {
		t.Fatalf("summary %+v, events %v", s, rep.Events)
	}
	for _, r := range rep.Results {
		checkRecord(t, r)
	}
}
