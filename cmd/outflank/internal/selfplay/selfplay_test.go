package selfplay

import (
	"bytes"
	"context"
	"errors"
	"math/bits"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// naiveEngine scores moves by a one-ply disc count and solves by plain
// negamax: slow, obviously right, and independent of package search.
type naiveEngine struct{ solves int }

func (*naiveEngine) NewGame() {}

func (*naiveEngine) Scores(ctx context.Context, pos bitboard.Position) ([]bitboard.MoveScore, error) {
	var out []bitboard.MoveScore
	for m := pos.Moves(); m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		q := pos.Play(sq)
		// Corners are worth a lot, so that the softmax has real choices.
		s := -q.DiscDiff()/4 + 8*bits.OnesCount64(q.Opponent&0x8100000000000081)
		out = append(out, bitboard.MoveScore{Move: sq, Score: s})
	}
	return out, ctx.Err()
}

func (e *naiveEngine) Solve(ctx context.Context, pos bitboard.Position) (bitboard.Square, int, error) {
	e.solves++
	best, bestScore := bitboard.NoSquare, -65
	for m := pos.Moves(); m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		if s := -negamax(pos.Play(sq)); s > bestScore {
			best, bestScore = sq, s
		}
	}
	return best, bestScore, ctx.Err()
}

func negamax(p bitboard.Position) int {
	if p.GameOver() {
		return p.FinalScore()
	}
	if p.MustPass() {
		return -negamax(p.Pass())
	}
	best := -65
	for m := p.Moves(); m != 0; m &= m - 1 {
		best = max(best, -negamax(p.Play(bitboard.FirstSquare(m))))
	}
	return best
}

// testOpenings are a few short openings (the command uses XOT).
func testOpenings(t testing.TB) [][]bitboard.Square {
	var out [][]bitboard.Square
	for _, s := range []string{"f5d6c3d3c4", "f5f6e6f4e3", "f5d6c5f4e3", "c4c3d3c5b3", "e6f4c3c4d3"} {
		m, err := bitboard.ParseMoves(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func testConfig(t testing.TB, count uint64) Config {
	return Config{
		Seed: 7, Count: count, Openings: testOpenings(t), OpeningsName: "test",
		RandomMoves: 6, Temperature: 2, SolveEmpties: 8, Level: "naive", Block: 3,
		NewEngine: func() Engine { return &naiveEngine{} },
	}
}

func runFile(t *testing.T, cfg Config, path string) {
	t.Helper()
	if _, err := Run(context.Background(), cfg, path); err != nil {
		t.Fatal(err)
	}
}

func readGames(t *testing.T, path string) (Header, []Game) {
	t.Helper()
	h, games, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return h, games
}

// Every game replays legally to its end, and its stored score is the
// negamax value of the position where the solver took over.
func TestGamesAreExact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.sp")
	runFile(t, testConfig(t, 10), path)
	h, games := readGames(t, path)
	if len(games) != 10 || h.Size() != 10 {
		t.Fatalf("%d games, header size %d", len(games), h.Size())
	}
	distinct := map[string]bool{}
	for _, g := range games {
		pos, err := g.Positions()
		if err != nil {
			t.Fatalf("game %d: %v", g.Index, err)
		}
		if g.Solved == len(g.Moves) {
			continue // over before the solve point
		}
		p := pos[g.Solved]
		if p.Empties() > 8 || (g.Solved > 0 && pos[g.Solved-1].Empties() <= 8) {
			t.Errorf("game %d: solved at %d empties (previous move not above 8)", g.Index, p.Empties())
		}
		v := negamax(p)
		if p.ToMove == bitboard.White {
			v = -v
		}
		if v != g.Score {
			t.Errorf("game %d: stored score %+d, negamax at the solve point %+d", g.Index, g.Score, v)
		}
		if g.Opening != 5 {
			t.Errorf("game %d: %d opening moves, want 5", g.Index, g.Opening)
		}
		samples, err := g.Samples()
		if err != nil || len(samples) != len(g.Moves) {
			t.Fatalf("game %d: %d samples for %d moves, %v", g.Index, len(samples), len(g.Moves), err)
		}
		// Every move the search chose carries the engine's view of it:
		// the best score at that position and the played move's score.
		if len(g.Evals) != g.Solved-g.Opening-g.Random {
			t.Fatalf("game %d: %d evaluations for %d searched moves", g.Index, len(g.Evals), g.Solved-g.Opening-g.Random)
		}
		for k, e := range g.Evals {
			i := g.Opening + g.Random + k
			scores, _ := (&naiveEngine{}).Scores(context.Background(), pos[i])
			best, played := -65, -65
			for _, s := range scores {
				best = max(best, s.Score)
				if s.Move == g.Moves[i] {
					played = s.Score
				}
			}
			if int(e.Best) != max(-64, min(64, best)) || int(e.Played) != max(-64, min(64, played)) {
				t.Errorf("game %d move %d: evaluation %+v, engine best %+d played %+d", g.Index, i+1, e, best, played)
			}
		}
		for _, s := range samples[g.Solved:] {
			if !s.Exact || s.Score != negamax(s.Pos) {
				t.Errorf("game %d ply %d: label %+d exact %v, negamax %+d", g.Index, s.Ply, s.Score, s.Exact, negamax(s.Pos))
			}
		}
		distinct[bitboard.Transcript(g.Moves)] = true
	}
	if len(distinct) < 9 {
		t.Errorf("only %d distinct games of 10", len(distinct))
	}
}

// The same seed gives the same games whatever the number of workers; a run
// stopped and continued gives them too.
func TestDeterministicAndResumable(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.sp")
	runFile(t, testConfig(t, 14), whole)
	_, want := readGames(t, whole)

	cfg := testConfig(t, 14)
	cfg.Workers = 3
	par := filepath.Join(dir, "par.sp")
	runFile(t, cfg, par)
	if a, b := mustRead(t, whole), mustRead(t, par); !bytes.Equal(a, b) {
		t.Error("3 workers wrote another file than 1")
	}

	// Stop after the first block, then continue.
	stopped := filepath.Join(dir, "stopped.sp")
	ctx, cancel := context.WithCancel(context.Background())
	cfg = testConfig(t, 14)
	cfg.Progress = func(Progress) { cancel() }
	if _, err := Run(ctx, cfg, stopped); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	_, part, err := ReadFile(stopped)
	if !errors.Is(err, ErrUnfinished) || len(part) == 0 || len(part) == 14 {
		t.Fatalf("stopped file: %d games, %v (want some, unfinished)", len(part), err)
	}
	// Tear the file inside a block, as a kill during a write would.
	data := mustRead(t, stopped)
	var resumeNote string
	cfg = testConfig(t, 14)
	cfg.Progress = func(p Progress) {
		if p.Note != "" {
			resumeNote = p.Note
		}
	}
	torn := append(data, blockMagic+"\x40\x00\x00\x00\x03\x00"...)
	if err := os.WriteFile(stopped, torn, 0o644); err != nil {
		t.Fatal(err)
	}
	runFile(t, cfg, stopped)
	if !strings.Contains(resumeNote, "torn") {
		t.Errorf("resume note %q, want one about the torn block", resumeNote)
	}
	_, got := readGames(t, stopped)
	if !reflect.DeepEqual(got, want) {
		t.Error("stopped and continued run differs from the whole run")
	}
	// A complete file is left alone; its progress counts its positions,
	// one a move, resumed ones included.
	before := mustRead(t, stopped)
	p, err := Run(context.Background(), testConfig(t, 14), stopped)
	if err != nil || p.Done != 14 || !bytes.Equal(before, mustRead(t, stopped)) {
		t.Errorf("rerun of a complete file: %+v, %v, changed %v", p, err, !bytes.Equal(before, mustRead(t, stopped)))
	}
	var moves uint64
	for _, g := range want {
		moves += uint64(len(g.Moves))
	}
	if p.Positions != moves || moves == 0 {
		t.Errorf("progress counts %d positions, the games hold %d", p.Positions, moves)
	}
	// Two runs never write one file at once.
	held, err := os.Open(stopped)
	if err != nil {
		t.Fatal(err)
	}
	if err := lock(held); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), testConfig(t, 14), stopped); runtime.GOOS != "windows" && (err == nil || !strings.Contains(err.Error(), "another run")) {
		t.Errorf("run on a locked file: %v", err)
	}
	held.Close()
	// Another configuration may not continue the file.
	cfg = testConfig(t, 14)
	cfg.Seed = 8
	if _, err := Run(context.Background(), cfg, stopped); err == nil || !strings.Contains(err.Error(), "seed 7 vs 8") {
		t.Errorf("run with another seed: %v", err)
	}
}

// Shards hold disjoint games and merge into the whole run, byte for byte.
func TestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.sp")
	cfg := testConfig(t, 11)
	cfg.First = 5
	runFile(t, cfg, whole)
	var shards []string
	seen := map[uint64]int{}
	for k := 1; k <= 3; k++ {
		cfg := testConfig(t, 11)
		cfg.First, cfg.Shard, cfg.Shards = 5, k, 3
		path := filepath.Join(dir, "shard"+string(rune('0'+k))+".sp")
		runFile(t, cfg, path)
		_, games := readGames(t, path)
		for _, g := range games {
			if prev, ok := seen[g.Index]; ok {
				t.Errorf("game %d in shards %d and %d", g.Index, prev, k)
			}
			seen[g.Index] = k
		}
		shards = append(shards, path)
	}
	out := filepath.Join(dir, "out.sp")
	merge := func(opt MergeOptions, names ...string) (Header, uint64, error) {
		t.Helper()
		var inputs []Input
		for _, name := range names {
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rd, err := NewReader(f)
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, Input{Name: name, Reader: rd})
		}
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		return Merge(f, inputs, opt)
	}
	h, n, err := merge(MergeOptions{Block: 3}, shards[2], shards[0], shards[1])
	if err != nil || n != 11 || h.Shards != 1 {
		t.Fatalf("merge: %d games, shard %s, %v", n, h.ShardString(), err)
	}
	if !bytes.Equal(mustRead(t, out), mustRead(t, whole)) {
		t.Error("merged shards differ from the whole run")
	}
	// Overlaps, strangers and gaps are refused.
	if _, _, err := merge(MergeOptions{}, shards[0], shards[1], shards[2], shards[1]); err == nil || !strings.Contains(err.Error(), "is in both") {
		t.Errorf("merge with a shard twice: %v", err)
	}
	stranger := filepath.Join(dir, "stranger.sp")
	cfg = testConfig(t, 11)
	cfg.First, cfg.Shard, cfg.Shards, cfg.Temperature = 5, 1, 3, 3
	runFile(t, cfg, stranger)
	if _, _, err := merge(MergeOptions{}, shards[1], stranger); err == nil || !strings.Contains(err.Error(), "not from one job: params: temperature=3 vs temperature=2") {
		t.Errorf("merge of two jobs: %v", err)
	}
	for _, c := range [][]string{{shards[0], shards[1]}, {shards[0], shards[2]}, {shards[1], shards[2]}} {
		if _, _, err := merge(MergeOptions{}, c...); err == nil || !strings.Contains(err.Error(), "in none of the inputs") {
			t.Errorf("merge with a shard missing: %v", err)
		}
		h, n, err := merge(MergeOptions{Partial: true}, c...)
		if err != nil || h.Shards != 0 || n == 0 {
			t.Fatalf("partial merge: %d games, shard %s, %v", n, h.ShardString(), err)
		}
		if h2, games, err := ReadFile(out); err != nil || uint64(len(games)) != n || h2 != h {
			t.Errorf("partial merge reads back %d games, %+v, %v", len(games), h2, err)
		}
	}
	// A stopped run, merged alone (partial), is completed by a run over
	// the rest of its range: how the repository's data extends to a job.
	stopped := filepath.Join(dir, "stopped.sp")
	ctx, cancel := context.WithCancel(context.Background())
	cfg = testConfig(t, 11)
	cfg.First = 5
	cfg.Progress = func(Progress) { cancel() }
	if _, err := Run(ctx, cfg, stopped); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	if _, _, err := merge(MergeOptions{Block: 3, Partial: true, Unfinished: true}, stopped); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "part.sp")
	os.Rename(out, part)
	_, got, _ := ReadFile(part)
	rest := filepath.Join(dir, "rest.sp")
	cfg = testConfig(t, 5+11-(got[len(got)-1].Index+1))
	cfg.First = got[len(got)-1].Index + 1
	runFile(t, cfg, rest)
	if h, n, err := merge(MergeOptions{Block: 3}, part, rest); err != nil || n != 11 || h.Shards != 1 || !bytes.Equal(mustRead(t, out), mustRead(t, whole)) {
		t.Errorf("stopped run + the rest: %d games, shard %s, %v; equal to the whole run: %v", n, h.ShardString(), err, bytes.Equal(mustRead(t, out), mustRead(t, whole)))
	}

	// A stopped run's games join only on request.
	data := mustRead(t, shards[0])
	os.WriteFile(shards[0], data[:len(data)-endSize], 0o644)
	if _, _, err := merge(MergeOptions{}, shards...); !errors.Is(err, ErrUnfinished) {
		t.Errorf("merge of an unfinished shard: %v", err)
	}
	if _, _, err := merge(MergeOptions{Block: 3, Unfinished: true}, shards...); err != nil || !bytes.Equal(mustRead(t, out), mustRead(t, whole)) {
		t.Errorf("merge --unfinished of every game: %v, equal to the whole run: %v", err, bytes.Equal(mustRead(t, out), mustRead(t, whole)))
	}
}

func TestHeaderSets(t *testing.T) {
	for _, h := range []Header{
		{First: 0, Count: 10, Shard: 1, Shards: 1},
		{First: 3, Count: 10, Shard: 2, Shards: 4},
		{First: 7, Count: 2, Shard: 3, Shards: 5},
		{First: 5, Count: 0, Shard: 1, Shards: 2},
		{First: 1, Count: 9, Shard: 4, Shards: 4},
	} {
		var want []uint64
		for i := h.First; i < h.First+h.Count+3; i++ {
			if h.Holds(i) {
				want = append(want, i)
			}
		}
		got := slices.Collect(h.Indices(0))
		if !reflect.DeepEqual(got, want) || h.Size() != uint64(len(want)) {
			t.Errorf("%+v: indices %v, size %d; want %v", h, got, h.Size(), want)
		}
		if len(want) > 1 {
			if got := slices.Collect(h.Indices(want[0] + 1)); !reflect.DeepEqual(got, want[1:]) {
				t.Errorf("%+v: indices from %d: %v; want %v", h, want[0]+1, got, want[1:])
			}
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
