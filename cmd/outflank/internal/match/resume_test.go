package match

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// reread writes a game's record and reads it back as the match's game, as
// "--resume" does with the lines of its file.
func reread(t *testing.T, cfg *Config, r GameResult) GameResult {
	t.Helper()
	g, err := bitboard.ParseGGF(r.Record.GGF())
	if err != nil {
		t.Fatal(err)
	}
	back, err := cfg.FromRecord(g)
	if err != nil {
		t.Fatalf("game %d: %v", r.Index+1, err)
	}
	return back
}

// A match stopped after some games and resumed from their records plays
// only the others, hands only those to Record, and reports the whole match
// as one run of it would.
func TestMatchResume(t *testing.T) {
	var first []GameResult
	cfg := Config{
		Engines:     [2]Spec{fake(t, "first", 0, ",name=one"), fake(t, "first", 0, ",depth=3,name=two")},
		Openings:    XOT()[:3],
		Concurrency: 2,
		Seed:        7,
		MoveTimeout: 20 * time.Second,
		Record:      func(r GameResult) { first = append(first, r) },
	}
	whole, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Games 1, 2 and 5 were played before the stop.
	again := cfg
	again.Done = nil
	for _, i := range []int{0, 1, 4} {
		back := reread(t, &cfg, first[i])
		if back.Score != first[i].Score || back.Margin != first[i].Margin || back.Moves != first[i].Moves || back.Black != first[i].Black {
			t.Errorf("game %d read back: score %v margin %d moves %v black %d; played: %v %d %v %d", i+1,
				back.Score, back.Margin, back.Moves, back.Black, first[i].Score, first[i].Margin, first[i].Moves, first[i].Black)
		}
		again.Done = append(again.Done, back)
	}
	var played []int
	again.Record = func(r GameResult) { played = append(played, r.Index) }
	rep, err := Run(context.Background(), again)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(played, []int{2, 3, 5}) {
		t.Errorf("resumed match played games %v (0-based); want [2 3 5] in order", played)
	}
	if s, w := rep.Summary, whole.Summary; s.Games != 6 || s.Score != w.Score || s.Margin != w.Margin || s.Pentanomial != w.Pentanomial || s.Moves != w.Moves {
		t.Errorf("resumed summary %d games score %v margin %v penta %v moves %v; the whole run's %d %v %v %v %v",
			s.Games, s.Score, s.Margin, s.Pentanomial, s.Moves, w.Games, w.Score, w.Margin, w.Pentanomial, w.Moves)
	}
	var tbl strings.Builder
	rep.WriteTable(&tbl)
	if !strings.Contains(tbl.String(), "moves played in this run)") {
		t.Errorf("table does not say the nodes count only this run's moves:\n%s", tbl.String())
	}

	// Every game in: nothing to play, no engine started, the same report.
	done := cfg
	done.Engines[1].Command = []string{"/nonexistent/engine"}
	for _, r := range first {
		done.Done = append(done.Done, reread(t, &cfg, r))
	}
	rep, err = Run(context.Background(), done)
	if err != nil || rep.Summary.Games != 6 || rep.Summary.Score != whole.Summary.Score {
		t.Errorf("all games done: %v, %+v", err, rep)
	}
	done.Done = append(done.Done, done.Done[0])
	if _, err := Run(context.Background(), done); err == nil || !strings.Contains(err.Error(), "game 1") {
		t.Errorf("a game given twice: err %v", err)
	}
}

// Records of another match are refused with the reason.
func TestFromRecordRefuses(t *testing.T) {
	cfg := Config{
		Engines:  [2]Spec{fake(t, "first", 0, ",name=one"), fake(t, "first", 0, ",name=two")},
		Openings: XOT()[:3],
		Seed:     7,
	}
	p := Plan(cfg.Openings, 0, cfg.Seed)[1] // B black
	g := &bitboard.Game{Start: p.Opening.Start}
	for _, m := range p.Opening.Moves {
		g.Moves = append(g.Moves, bitboard.GameMove{Square: m})
	}
	g.Props = []bitboard.Prop{{Key: "PB", Value: "two"}, {Key: "PW", Value: "one"}, {Key: "RE", Value: "-64.000:t"}, {Key: GameKey, Value: "2"}}
	r, err := cfg.FromRecord(g)
	if err != nil || r.Forfeit == nil || r.Forfeit.Engine != 1 || r.Forfeit.Fault.Kind != FaultTimeout || r.Score != 1 {
		t.Fatalf("black (B) lost on time: %+v %v; want B's forfeit on time, A's win", r, err)
	}
	for _, c := range []struct{ key, value, want string }{
		{GameKey, "7", "from 1 to 6"},
		{GameKey, "3", "another opening"},
		{"PB", "one", "engine B is"},
		{"RE", "?", "want the result"},
		{"RE", "+10.000", "not over"},
	} {
		h := *g
		h.Props = slices.Clone(g.Props)
		h.SetProp(c.key, c.value)
		if _, err := cfg.FromRecord(&h); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s[%s]: err %v; want %q", c.key, c.value, err, c.want)
		}
	}
}

// The shards of a match play disjoint shares that make up the whole, each
// game with its number in the whole match.
func TestShards(t *testing.T) {
	plan := Plan(XOT()[:5], 9, 3)
	var all []int
	for k := 1; k <= 3; k++ {
		for _, p := range (Shard{k, 3}).share(plan) {
			all = append(all, p.Index)
			if (p.Index/2)%3 != k-1 {
				t.Errorf("shard %d/3 holds game %d", k, p.Index+1)
			}
		}
	}
	slices.Sort(all)
	if !slices.Equal(all, []int{0, 1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("shards 1-3 of 3 hold %v; want every game once", all)
	}
	if got := len((Shard{}).share(plan)); got != 9 {
		t.Errorf("no shard: %d games; want 9", got)
	}
}
