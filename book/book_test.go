package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// standIn values a position without searching: the disc difference plus a
// hash-derived jitter of a few discs, so that move values differ and
// deviation has choices; depth 4 at 95%, exact when the game is over.
var standIn = ValuerFunc(func(ctx context.Context, p bitboard.Position) (Valuation, error) {
	if err := ctx.Err(); err != nil {
		return Valuation{}, err
	}
	if p.GameOver() {
		return Valuation{Score: p.FinalScore(), Selectivity: 100, Exact: true}, nil
	}
	c, _ := p.Canonical()
	s := bitboard.Count(p.Player) - bitboard.Count(p.Opponent) + int(c.Hash()%7) - 3
	return Valuation{Score: s, Depth: 4, Selectivity: 95}, nil
})

// countingValuer counts its calls.
type countingValuer struct {
	v Valuer
	n int
}

func (c *countingValuer) Value(ctx context.Context, p bitboard.Position) (Valuation, error) {
	c.n++
	return c.v.Value(ctx, p)
}

func line(t *testing.T, s string) bitboard.Position {
	t.Helper()
	p, err := bitboard.PlayTranscript(bitboard.Start(), s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sq(t *testing.T, s string) bitboard.Square {
	t.Helper()
	m, err := bitboard.ParseSquare(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// naive is the reference negamax: the value of each legal move of pos,
// recursing into book positions and asking the stand-in elsewhere. A book
// position passes on its best value plus the book's parity correction,
// which naive takes to be -b.parity (the stand-in's leaf records have the
// odd depth 5); tests with a parity offset keep finished games out.
func naive(b *Book, pos bitboard.Position) map[bitboard.Square]int {
	corr := -b.parity
	out := map[bitboard.Square]int{}
	for m := pos.Moves(); m != 0; m &= m - 1 {
		s := bitboard.FirstSquare(m)
		c := pos.Play(s)
		switch {
		case c.GameOver():
			out[s] = -c.FinalScore()
		case c.MustPass() && b.Contains(c.Pass()):
			out[s] = bestOf(naive(b, c.Pass())) + corr
		case b.Contains(c):
			out[s] = -(bestOf(naive(b, c)) + corr)
		default:
			v, _ := standIn.Value(context.Background(), c)
			out[s] = -v.Score
		}
	}
	return out
}

func bestOf(m map[bitboard.Square]int) int {
	b := -65
	for _, v := range m {
		b = max(b, v)
	}
	return b
}

// checkAgainstNaive compares every book position's moves with naive.
func checkAgainstNaive(t *testing.T, b *Book) {
	t.Helper()
	for k := range b.all() {
		pos := k.position()
		want := naive(b, pos)
		got := b.Moves(pos)
		if len(got) != len(want) {
			t.Fatalf("%v: %d moves, want %d", pos, len(got), len(want))
		}
		for _, m := range got {
			if want[m.Square] != m.Value {
				t.Fatalf("%v move %s: book %d, negamax %d", pos, m.Square, m.Value, want[m.Square])
			}
		}
	}
}

func TestExpandValuesEveryMove(t *testing.T) {
	b := New()
	cv := &countingValuer{v: standIn}
	n, err := b.Expand(context.Background(), bitboard.Start(), cv)
	if err != nil || n != 4 || cv.n != 4 {
		t.Fatalf("expand start: %d searches (%d calls), %v", n, cv.n, err)
	}
	ms := b.Moves(bitboard.Start())
	if len(ms) != 4 {
		t.Fatalf("%d moves at the start", len(ms))
	}
	for i, m := range ms {
		v, _ := standIn.Value(context.Background(), bitboard.Start().Play(m.Square))
		if m.Value != -v.Score || m.Depth != 5 || m.Selectivity != 95 || m.Exact || m.InBook {
			t.Errorf("move %v: want value %d depth 5 at 95%%", m, -v.Score)
		}
		if i > 0 && m.Value > ms[i-1].Value {
			t.Error("moves not sorted best first")
		}
	}
	// Adding again costs nothing.
	if n, _ := b.Expand(context.Background(), bitboard.Start(), cv); n != 0 {
		t.Errorf("%d searches to add a book position again", n)
	}
}

func TestSymmetricPositionsShareOneNode(t *testing.T) {
	b := New()
	f5 := line(t, "f5")
	if _, err := b.Expand(context.Background(), f5, standIn); err != nil {
		t.Fatal(err)
	}
	// d3, c4 and e6 are f5 under the diagonal symmetries.
	for _, l := range []string{"d3", "c4", "e6"} {
		p := line(t, l)
		if !b.Contains(p) {
			t.Fatalf("%s not found as a symmetric form of f5", l)
		}
		for _, m := range b.Moves(p) {
			if !p.IsLegal(m.Square) {
				t.Errorf("after %s the book gives illegal move %s", l, m.Square)
			}
			v, _ := standIn.Value(context.Background(), p.Play(m.Square))
			if m.Value != -v.Score {
				t.Errorf("after %s, %s valued %d, want %d", l, m.Square, m.Value, -v.Score)
			}
		}
	}
	if b.Len() != 1 {
		t.Errorf("%d nodes for one position", b.Len())
	}
}

// The values after any order of additions equal a negamax from scratch:
// each addition re-negamaxes exactly the ancestors that need it.
func TestAdditionsRenegamaxAncestors(t *testing.T) {
	for seed := range uint64(5) {
		b := New()
		rng := rand.New(rand.NewPCG(seed, 1))
		// Random lines, their positions added in a random order (children
		// before parents often), as learning and shards do.
		var ps []bitboard.Position
		for range 6 {
			p := bitboard.Start()
			for range 8 {
				if p.Moves() == 0 {
					break
				}
				ps = append(ps, p)
				ms := p.Moves()
				k := rng.IntN(bitboard.Count(ms))
				for range k {
					ms &= ms - 1
				}
				p = p.Play(bitboard.FirstSquare(ms))
			}
		}
		rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
		for _, p := range ps {
			if _, err := b.Expand(context.Background(), p, standIn); err != nil {
				t.Fatal(err)
			}
		}
		checkAgainstNaive(t, b)
	}
}

// With a parity offset, a move into a book position takes that position's
// best value moved towards the leaves' parity: down by the offset when its
// leaf search had an even depth (an odd record depth), up when odd, not at
// all when exact; setting the offset after the additions gives the same
// book as setting it first.
func TestParityOffsetCorrectsNegamax(t *testing.T) {
	var ps []bitboard.Position
	rng := rand.New(rand.NewPCG(9, 1))
	for range 6 {
		p := bitboard.Start()
		for range 7 {
			ps = append(ps, p)
			ms := p.Moves()
			for range rng.IntN(bitboard.Count(ms)) {
				ms &= ms - 1
			}
			p = p.Play(bitboard.FirstSquare(ms))
		}
	}
	first, later := New(), New()
	if err := first.SetParityOffset(3); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		for _, b := range []*Book{first, later} {
			if _, err := b.Expand(context.Background(), p, standIn); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := later.SetParityOffset(3); err != nil {
		t.Fatal(err)
	}
	checkAgainstNaive(t, first)
	if exportString(t, first) != exportString(t, later) {
		t.Error("offset set before the additions and after them: different books")
	}
	// The three cases of derived, directly.
	for _, c := range []struct {
		br   rec
		want int8
	}{
		{rec{value: 5, depth: 14}, -8},                   // odd leaf search: up by 3
		{rec{value: 5, depth: 5}, -2},                    // even leaf search: down by 3
		{rec{value: 5, depth: 21, flags: flagExact}, -5}, // exact: as is
		{rec{value: 63, depth: 14}, -64},                 // clamped to the score range
	} {
		if got := derived(c.br, false, true, 3); got.value != c.want {
			t.Errorf("derived(%+v) = %d, want %d", c.br, got.value, c.want)
		}
	}
	if err := first.SetParityOffset(MaxParityOffset + 1); err == nil {
		t.Error("an offset out of range was accepted")
	}
}

func TestGrowSeedsThenDeviations(t *testing.T) {
	sc := NewSeedCounter(4)
	for _, l := range []string{"f5d6c3d3", "f5d6c3d3", "f5f6e6f4", "d3c5f6f5"} {
		m, _ := bitboard.ParseMoves(l)
		if err := sc.AddLine(m); err != nil {
			t.Fatal(err)
		}
	}
	seeds := sc.Seeds(2)
	// start (4 lines), f5 and its mirror d3 (4), f5d6 and d3c5 (the same
	// position, 3), then f5d6c3 and f5d6c3d3 (2).
	if len(seeds) != 5 || seeds[0].Ply != 0 || seeds[0].Games != 4 || seeds[1].Games != 4 || seeds[2].Games != 3 {
		t.Fatalf("seeds %+v", seeds)
	}
	b := New()
	st, err := b.Grow(context.Background(), standIn, GrowOptions{Seeds: seeds, Window: 2, PathWindow: 3, MaxPly: 8, Positions: 30})
	if err != nil {
		t.Fatal(err)
	}
	if cv := sc.Coverage(b, []int{2, 1}); cv[0] != (Coverage{2, 5, 5}) || cv[1].Positions != 8 || cv[1].InBook < 5 {
		t.Errorf("coverage %+v", cv)
	}
	if st.SeedsAdded != 5 || st.Added != 30 || b.Len() != 30 || st.Stopped != "positions" {
		t.Fatalf("grow: %+v, %d positions", st, b.Len())
	}
	checkAgainstNaive(t, b)
	// Every position added by deviation is reached by moves within the
	// windows: the walk from the start finds it.
	for k := range b.all() {
		if discs(k) > 4+8 {
			t.Errorf("position with %d discs beyond MaxPly", discs(k))
		}
	}

	// Resuming from a checkpoint gives the same book as one run.
	one := New()
	if _, err := one.Grow(context.Background(), standIn, GrowOptions{Seeds: seeds, Window: 2, PathWindow: 3, MaxPly: 8, Positions: 30}); err != nil {
		t.Fatal(err)
	}
	half := New()
	var saved []byte
	half.Grow(context.Background(), standIn, GrowOptions{Seeds: seeds, Window: 2, PathWindow: 3, MaxPly: 8, Positions: 12,
		Checkpoint: func(b *Book) error {
			var buf bytes.Buffer
			err := b.Write(&buf)
			saved = buf.Bytes()
			return err
		}})
	resumed, err := Read(saved)
	if err != nil {
		t.Fatal(err)
	}
	resumed.Grow(context.Background(), standIn, GrowOptions{Seeds: seeds, Window: 2, PathWindow: 3, MaxPly: 8, Positions: 18})
	if a, b := exportString(t, one), exportString(t, resumed); a != b {
		t.Errorf("resumed growth differs from one run:\n%s\n----\n%s", a, b)
	}
}

// A root grows its own best lines, which the start's never reach: the
// book then covers the openings games are started from.
func TestGrowFromRoots(t *testing.T) {
	m, _ := bitboard.ParseMoves("f5f4e3f6d3")
	sc := NewSeedCounter(60)
	if err := sc.AddLine(m); err != nil {
		t.Fatal(err)
	}
	_, ps, _ := bitboard.Replay(bitboard.Start(), m)
	root := ps[len(ps)-1]
	below := func(b *Book) int {
		n := 0
		for ms := root.Moves(); ms != 0; ms &= ms - 1 {
			if b.Contains(root.Play(bitboard.FirstSquare(ms))) {
				n++
			}
		}
		return n
	}
	opt := GrowOptions{Seeds: sc.Seeds(1), Window: 0, PathWindow: 0, MaxPly: 7}
	plain := New()
	if _, err := plain.Grow(context.Background(), standIn, opt); err != nil {
		t.Fatal(err)
	}
	opt.Roots = []bitboard.Position{root}
	rooted := New()
	if _, err := rooted.Grow(context.Background(), standIn, opt); err != nil {
		t.Fatal(err)
	}
	if !plain.Contains(root) || !rooted.Contains(root) {
		t.Fatal("the root's line, a seed, is not in the book")
	}
	if below(plain) != 0 || below(rooted) == 0 {
		t.Errorf("book positions a move below the root: %d without it as a root (want 0: its line is not best), %d with it (want some)", below(plain), below(rooted))
	}
	checkAgainstNaive(t, rooted)
}

func exportString(t *testing.T, b *Book) string {
	t.Helper()
	var buf bytes.Buffer
	if err := b.Export(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestShardsMerge(t *testing.T) {
	base := New()
	opt := GrowOptions{Window: 3, PathWindow: 4, MaxPly: 6, Positions: 5}
	if _, err := base.Grow(context.Background(), standIn, opt); err != nil {
		t.Fatal(err)
	}
	var data bytes.Buffer
	base.Write(&data)
	merged, _ := Read(data.Bytes())
	for k := 1; k <= 3; k++ {
		sh, _ := Read(data.Bytes())
		o := opt
		o.Shard = Shard{K: k, N: 3}
		o.Positions = 4
		st, err := sh.Grow(context.Background(), standIn, o)
		if err != nil {
			t.Fatal(err)
		}
		for key := range sh.all() {
			if old := base.has(key); !old && !o.Shard.owns(key) {
				t.Errorf("shard %d/3 added a position of another shard", k)
			}
		}
		if st.Added == 0 {
			t.Errorf("shard %d/3 added nothing", k)
		}
		merged.Merge(sh)
	}
	if merged.Len() <= base.Len() {
		t.Fatal("merge added nothing")
	}
	checkAgainstNaive(t, merged)
	if _, err := ParseShard("3/2"); err == nil {
		t.Error("shard 3/2 accepted")
	}
	if s, err := ParseShard("2/4"); err != nil || s != (Shard{2, 4}) {
		t.Errorf("ParseShard 2/4: %v %v", s, err)
	}
}

// A shard's growth stops where its lines pass through the other shard's
// positions; Refill (the other's file merged in) lets it go on, and the
// books the two shards end with are the book grown whole.
func TestGrowRefill(t *testing.T) {
	opt := GrowOptions{Window: 2, PathWindow: 3, MaxPly: 7}
	whole := New()
	if _, err := whole.Grow(context.Background(), standIn, opt); err != nil {
		t.Fatal(err)
	}
	shards := [2]*Book{New(), New()}
	grow := func(k int, refill bool) GrowStats {
		o := opt
		o.Shard = Shard{K: k + 1, N: 2}
		if refill {
			o.Refill = func(b *Book) (int, error) {
				n := b.Len()
				b.Merge(shards[1-k])
				return b.Len() - n, nil
			}
		}
		st, err := shards[k].Grow(context.Background(), standIn, o)
		if err != nil || st.Stopped != "no candidate left" {
			t.Fatalf("shard %d/2: %v, stopped %q", k+1, err, st.Stopped)
		}
		return st
	}
	// Without Refill each shard stops early, at the other's positions.
	blocked := grow(0, false).Added + grow(1, false).Added
	if blocked >= whole.Len() {
		t.Fatalf("shards without Refill added %d positions, the whole book has %d: the test needs a blocked frontier", blocked, whole.Len())
	}
	for round := 0; ; round++ {
		if grow(0, true).Added+grow(1, true).Added == 0 {
			break
		}
		if round == 50 {
			t.Fatal("the shards still grow after 50 rounds")
		}
	}
	// Together they reach as far as the whole growth: the merged book has
	// no candidate left either (the positions differ a little: what a
	// growth adds depends on the values of the moment, and so on the
	// order of the additions).
	m := shards[0]
	m.Merge(shards[1])
	if m.Len() < whole.Len() || len(m.deviations(opt)) != 0 {
		t.Errorf("two shards with Refill: %d positions (blocked: %d, whole: %d), %d candidates left", m.Len(), blocked, whole.Len(), len(m.deviations(opt)))
	}
	checkAgainstNaive(t, m)
}

func TestCancelledExpandLeavesBookUnchanged(t *testing.T) {
	b := New()
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	v := ValuerFunc(func(c context.Context, p bitboard.Position) (Valuation, error) {
		calls++
		if calls == 3 {
			cancel()
		}
		return standIn.Value(c, p)
	})
	if _, err := b.Expand(ctx, bitboard.Start(), v); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled expand: %v", err)
	}
	if b.Len() != 0 {
		t.Error("a half-valued position was stored")
	}
	// Grow stops on a cancelled context (Ctrl-C) without error, keeps what
	// it added and says it was interrupted; on its deadline it says "time".
	st, err := b.Grow(ctx, standIn, GrowOptions{Window: 1, MaxPly: 4})
	if err != nil || st.Stopped != "interrupted" {
		t.Errorf("grow with a cancelled context: %+v %v", st, err)
	}
	st, err = b.Grow(context.Background(), standIn, GrowOptions{Window: 1, MaxPly: 4, Deadline: time.Now().Add(-time.Second)})
	if err != nil || st.Stopped != "time" {
		t.Errorf("grow past its deadline: %+v %v", st, err)
	}
}

func TestLearnAndRevalue(t *testing.T) {
	b := New()
	g, err := bitboard.ParseGGF("(;GM[Othello]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)")
	if err != nil {
		t.Fatal(err)
	}
	var moves []bitboard.Square
	for _, m := range g.Moves {
		moves = append(moves, m.Square)
	}
	added, searches, err := b.Learn(context.Background(), g.Start, moves, 6, standIn)
	if err != nil || added != 7 || searches == 0 {
		t.Fatalf("learn: %d added, %d searches, %v", added, searches, err)
	}
	checkAgainstNaive(t, b)
	// The learnt line is in the book up to ply 6, not beyond.
	if !b.Contains(line(t, "e6f4e3f6g5d6")) || b.Contains(line(t, "e6f4e3f6g5d6e7")) {
		t.Error("learnt line not stored up to ply 6 exactly")
	}
	// The game's last move ends it: a book position there values it exactly.
	b2 := New()
	if _, _, err := b2.Learn(context.Background(), g.Start, moves, 60, standIn); err != nil {
		t.Fatal(err)
	}
	last := line(t, "e6f4e3f6g5d6e7f5")
	for _, m := range b2.Moves(last) {
		if m.Square == sq(t, "c5") && (!m.Exact || m.Value != 64) {
			t.Errorf("the winning c5 valued %v", m)
		}
	}

	// Revalue with a deeper stand-in re-searches every leaf below depth 9.
	deeper := ValuerFunc(func(ctx context.Context, p bitboard.Position) (Valuation, error) {
		v, err := standIn.Value(ctx, p)
		v.Depth, v.Selectivity = 10, 100
		return v, err
	})
	// With MaxPly, only the positions of the first moves.
	top, err := b.Revalue(context.Background(), deeper, RevalueOptions{MinDepth: 9, MaxPly: 3}, nil)
	if err != nil || top.Searches == 0 {
		t.Fatalf("revalue to ply 3: %+v %v", top, err)
	}
	for k := range b.all() {
		for _, m := range b.Moves(k.position()) {
			if !m.InBook && !m.Exact && (m.Depth == 11) != (discs(k) <= 7) {
				t.Errorf("%d discs, leaf %v: revalued %v, want %v", discs(k), m, m.Depth == 11, discs(k) <= 7)
			}
		}
	}
	st, err := b.Revalue(context.Background(), deeper, RevalueOptions{MinDepth: 9}, nil)
	if err != nil || st.Searches == 0 {
		t.Fatalf("revalue: %+v %v", st, err)
	}
	for k := range b.all() {
		for _, m := range b.Moves(k.position()) {
			if !m.InBook && !m.Exact && (m.Depth != 11 || m.Selectivity != 100) {
				t.Errorf("leaf %v not revalued", m)
			}
		}
	}
	if st2, _ := b.Revalue(context.Background(), deeper, RevalueOptions{MinDepth: 9}, nil); st2.Searches != 0 {
		t.Errorf("a second revalue searched %d times", st2.Searches)
	}
}

// TestRevalueNearBestAndShards: with NearBest only the leaves within the
// window of their position's best are searched again, and shards of one
// book, revalued apart and merged, revalue every leaf once between them.
func TestRevalueNearBestAndShards(t *testing.T) {
	grown := New()
	if _, err := grown.Grow(context.Background(), standIn, GrowOptions{Window: 4, PathWindow: 6, MaxPly: 4, Positions: 12}); err != nil {
		t.Fatal(err)
	}
	deeper := ValuerFunc(func(ctx context.Context, p bitboard.Position) (Valuation, error) {
		v, err := standIn.Value(ctx, p)
		v.Depth, v.Selectivity = 10, 100
		return v, err
	})
	copyOf := func() *Book { c := New(); c.Merge(grown); return c }
	isLeaf := func(m Move) bool { return !m.InBook && !m.Exact && !m.Screened }

	near := copyOf()
	before := map[key][]Move{}
	for k := range near.all() {
		before[k] = near.Moves(k.position())
	}
	if _, err := near.Revalue(context.Background(), deeper, RevalueOptions{MinDepth: 9, NearBest: true, Window: 1}, nil); err != nil {
		t.Fatal(err)
	}
	in, out := 0, 0
	for k, ms := range before {
		after := near.Moves(k.position())
		for _, m := range ms {
			if !isLeaf(m) {
				continue
			}
			want := ms[0].Value-m.Value <= 1 // Moves lists the best first
			var got bool
			for _, a := range after {
				if a.Square == m.Square {
					got = a.Depth == 11
				}
			}
			if got != want {
				t.Errorf("%d discs, leaf %v (best %v): revalued %v, want %v", discs(k), m, ms[0], got, want)
			}
			if want {
				in++
			} else {
				out++
			}
		}
	}
	if in == 0 || out == 0 {
		t.Fatalf("the window split the leaves %d / %d: the test proves nothing", in, out)
	}

	var parts []*Book
	for K := 1; K <= 2; K++ {
		c := copyOf()
		sh := Shard{K, 2}
		if _, err := c.Revalue(context.Background(), deeper, RevalueOptions{MinDepth: 9, Shard: sh}, nil); err != nil {
			t.Fatal(err)
		}
		for k := range c.all() {
			for _, m := range c.Moves(k.position()) {
				if isLeaf(m) && (m.Depth == 11) != sh.owns(k) {
					t.Errorf("shard %d/2: leaf %v of a position it owns: %v: revalued %v", K, m, sh.owns(k), m.Depth == 11)
				}
			}
		}
		parts = append(parts, c)
	}
	merged := New()
	merged.Merge(parts[0])
	merged.Merge(parts[1])
	for k := range merged.all() {
		for _, m := range merged.Moves(k.position()) {
			if isLeaf(m) && m.Depth != 11 {
				t.Errorf("merged shards: leaf %v not revalued", m)
			}
		}
	}
}

func TestChooseStaysWithinVariety(t *testing.T) {
	b := New()
	b.Grow(context.Background(), standIn, GrowOptions{Window: 4, PathWindow: 6, MaxPly: 3, Positions: 10})
	pos := line(t, "f5")
	ms := b.Moves(pos)
	if m, ok := b.Choose(pos, Policy{}, nil); !ok || m != ms[0] {
		t.Fatalf("no variety: %v, want %v", m, ms[0])
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[bitboard.Square]bool{}
	for range 200 {
		m, ok := b.Choose(pos, Policy{Variety: 3}, rng)
		if !ok || ms[0].Value-m.Value > 3 || !pos.IsLegal(m.Square) {
			t.Fatalf("variety 3 chose %v (best %v)", m, ms[0])
		}
		seen[m.Square] = true
	}
	within := 0
	for _, m := range ms {
		if ms[0].Value-m.Value <= 3 {
			within++
		}
	}
	if len(seen) != within {
		t.Errorf("variety 3 played %d distinct moves of %d within 3 discs", len(seen), within)
	}
	if _, ok := b.Choose(pos, Policy{MinDepth: 20}, nil); ok {
		t.Error("a move shallower than MinDepth was chosen")
	}
	if _, ok := b.Choose(line(t, "f5d6c3d3c4f4f6"), Policy{}, nil); ok {
		t.Error("a move chosen out of book")
	}
}

func grown(t *testing.T) *Book {
	t.Helper()
	b := New()
	if _, err := b.Grow(context.Background(), standIn, GrowOptions{Window: 3, PathWindow: 5, MaxPly: 6, Positions: 25}); err != nil {
		t.Fatal(err)
	}
	b.Info = "test book\nsecond line"
	return b
}

func TestFileRoundTrip(t *testing.T) {
	b := grown(t)
	if err := b.SetParityOffset(-2); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	r, err := Read(data)
	if err != nil {
		t.Fatal(err)
	}
	if exportString(t, r) != exportString(t, b) || r.Info != b.Info || r.ParityOffset() != -2 {
		t.Error("book changed through Write/Read")
	}
	// An offset out of range, checksum made right, is refused.
	d := bytes.Clone(data)
	d[len(magic)+2] = MaxParityOffset + 1
	binary.LittleEndian.PutUint32(d[len(d)-4:], crc32.ChecksumIEEE(d[:len(d)-4]))
	if _, err := Read(d); !errors.Is(err, ErrCorrupt) {
		t.Errorf("parity offset %d: %v", MaxParityOffset+1, err)
	}
	// Every truncation and every single-byte change is refused.
	for n := range len(data) {
		if _, err := Read(data[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: accepted", n, len(data))
		}
	}
	for i := 0; i < len(data); i += 7 {
		d := bytes.Clone(data)
		d[i] ^= 0x10
		if _, err := Read(d); err == nil {
			t.Fatalf("byte %d changed: accepted", i)
		}
	}
	if _, err := Read([]byte("OFBOOK1\n\x00\x00")); !errors.Is(err, ErrVersion) {
		t.Errorf("version 1 file: %v", err)
	}
	if _, err := Read([]byte("hello")); !errors.Is(err, ErrNotABook) {
		t.Errorf("not a book: %v", err)
	}
}

func TestTextRoundTrip(t *testing.T) {
	b := grown(t)
	if err := b.SetParityOffset(4); err != nil {
		t.Fatal(err)
	}
	text := exportString(t, b)
	r, err := Import(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if exportString(t, r) != text || r.Info != b.Info || r.ParityOffset() != 4 {
		t.Error("book changed through Export/Import")
	}
	if _, err := Import(strings.NewReader("#parity-offset x\n")); err == nil || !strings.Contains(err.Error(), "line 1: parity offset") {
		t.Errorf("a bad parity offset line: %v", err)
	}
	// A position may be written in any symmetric form.
	start := bitboard.Start()
	mirrored := start.Transform(5)
	var sb strings.Builder
	sb.WriteString(bitboard.FromColors(mirrored.Player, mirrored.Opponent, bitboard.Black).String())
	for _, m := range b.Moves(start) {
		sb.WriteString(" " + recText(bitboard.Symmetry(5).Square(m.Square), m))
	}
	one, err := Import(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	want := map[bitboard.Square]int{}
	for _, m := range b.Moves(start) {
		want[m.Square] = m.Value
	}
	for _, m := range one.Moves(start) {
		if m.Value != want[m.Square] {
			t.Errorf("mirrored import: %v, want value %d", m, want[m.Square])
		}
	}
	for _, bad := range []string{
		"garbage",
		strings.Repeat("-", 64) + " X c4:+1@5/100",                                      // no moves there
		bitboard.Start().String() + " d3:+1@5/100",                                      // moves missing
		bitboard.Start().String() + " d3:+1@5/100 c4:+1@5/100 f5:+1@5/100 e6:+99@5/100", // value out of range
		bitboard.Start().String() + " d3:+1@5/100 c4:+1@5/100 f5:+1@5/100 a1:+1@5/100",  // illegal move
		bitboard.Start().String() + " d3:+1@5/100 c4:+1@5/100 f5:+1@5/100 e6:+1@5",      // no selectivity
	} {
		if _, err := Import(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("import %q: %v", bad, err)
		}
	}
}

func recText(s bitboard.Square, m Move) string {
	return fmt.Sprintf("%s:%+d@%d/%d", s, m.Value, m.Depth, m.Selectivity)
}

func FuzzRead(f *testing.F) {
	b := New()
	b.Grow(context.Background(), standIn, GrowOptions{Window: 2, PathWindow: 2, MaxPly: 3, Positions: 4})
	var buf bytes.Buffer
	b.Write(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte(magic))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(data)
		if err != nil {
			return
		}
		// A book that reads must write back to the same bytes (a version
		// 2 file to the same book in version 3).
		var out bytes.Buffer
		if err := r.Write(&out); err != nil {
			t.Fatal(err)
		}
		if binary.LittleEndian.Uint16(data[len(magic):]) == versionV2 {
			if again, err := Read(out.Bytes()); err != nil || exportString(t, again) != exportString(t, r) {
				t.Errorf("accepted version 2 book does not round-trip: %v", err)
			}
		} else if !bytes.Equal(out.Bytes(), data) {
			t.Errorf("accepted book does not round-trip")
		}
		sameReads(t, r, thawed(t, r), 1)
	})
}

func FuzzImport(f *testing.F) {
	b := New()
	b.Grow(context.Background(), standIn, GrowOptions{Window: 2, PathWindow: 2, MaxPly: 3, Positions: 4})
	var buf bytes.Buffer
	b.Export(&buf)
	f.Add(buf.String())
	f.Fuzz(func(t *testing.T, s string) {
		r, err := Import(strings.NewReader(s))
		if err != nil {
			return
		}
		for k := range r.all() {
			for _, m := range r.Moves(k.position()) {
				if !k.position().IsLegal(m.Square) {
					t.Fatalf("imported illegal move %v", m)
				}
			}
		}
	})
}

// screened is the stand-in with a screen: a "shallow" valuation equal to
// the stand-in's at depth 1, and the full one at depth 4.
type screened struct {
	margin int
	full   int
}

func (s *screened) Value(ctx context.Context, p bitboard.Position) (Valuation, error) {
	s.full++
	return standIn.Value(ctx, p)
}

func (s *screened) Screen(ctx context.Context, p bitboard.Position) (Valuation, error) {
	v, err := standIn.Value(ctx, p)
	v.Depth = 1
	return v, err
}

func (s *screened) ScreenMargin() int { return s.margin }

// With a screen, only the moves within the margin of the best get a full
// search; the others keep the screened value at the screen's depth.
func TestScreenSearchesOnlyCloseMoves(t *testing.T) {
	b := New()
	pos := line(t, "f5d6c3d3c4f4")
	sc := &screened{margin: 2}
	n, err := b.Expand(context.Background(), pos, sc)
	if err != nil {
		t.Fatal(err)
	}
	ms := b.Moves(pos)
	full := 0
	for _, m := range ms {
		loss := ms[0].Value - m.Value
		switch {
		case loss <= 2 && m.Depth != 5:
			t.Errorf("move %v within the margin not fully searched", m)
		case loss > 2 && m.Depth != 2:
			t.Errorf("move %v beyond the margin searched fully", m)
		}
		if m.Depth == 5 {
			full++
		}
	}
	if n != full || sc.full != full || full == len(ms) {
		t.Errorf("%d full searches reported, %d made, %d moves deep of %d", n, sc.full, full, len(ms))
	}
	// Revalue searches the full ones again, never the screened ones.
	deeper := ValuerFunc(func(ctx context.Context, p bitboard.Position) (Valuation, error) {
		v, err := standIn.Value(ctx, p)
		v.Depth = 10
		return v, err
	})
	st, err := b.Revalue(context.Background(), deeper, RevalueOptions{MinDepth: 11}, nil)
	if err != nil || st.Searches != full {
		t.Errorf("revalue: %d searches (want %d, the fully searched moves), %v", st.Searches, full, err)
	}
	for _, m := range b.Moves(pos) {
		if m.Screened != (m.Depth == 2) || !m.Screened && m.Depth != 11 {
			t.Errorf("after revalue: %v", m)
		}
	}
}

// The embedded book reads, starts at the start position, and values by
// search the line where the old statistics book chose G6.
func TestDefaultBook(t *testing.T) {
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if !b.Contains(bitboard.Start()) {
		t.Fatal("the start position is not in the default book")
	}
	if len(defaultBook) > 20<<20 {
		t.Errorf("default book of %d bytes: over the 20 MB it may take in the binary", len(defaultBook))
	}
	ms, err := bitboard.ParseMoves("d3c5f6f5e6e3c3f3e2f2c4f7g6")
	if err != nil {
		t.Fatal(err)
	}
	p := bitboard.Start()
	for i, m := range ms {
		bm := b.Moves(p)
		if bm == nil {
			t.Fatalf("position after %d moves of the G6 line not in the book", i)
		}
		for _, x := range bm {
			if x.Depth < 2 || !p.IsLegal(x.Square) {
				t.Fatalf("after %d moves: %v", i, x)
			}
		}
		if i == len(ms)-1 {
			// G6 itself, which the statistics book rated +3.27: a search
			// values it below the position's best.
			if bm[0].Square == m {
				t.Errorf("G6 is the book's best move: %v", bm)
			}
			return
		}
		p = p.Play(m)
	}
}

// A move after which the opponent must pass leads, in the book, to the
// position after the pass, where the same side moves again: its value is
// that position's best, not negated.
func TestMoveForcingAPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var pos bitboard.Position
	var move bitboard.Square
	found := false
	for g := 0; g < 2000 && !found; g++ {
		p := bitboard.Start()
		for !p.GameOver() && !found {
			if p.MustPass() {
				p = p.Pass()
				continue
			}
			ms := p.Moves()
			for m := ms; m != 0; m &= m - 1 {
				c := p.Play(bitboard.FirstSquare(m))
				if c.MustPass() {
					pos, move, found = p, bitboard.FirstSquare(m), true
					break
				}
			}
			k := rng.IntN(bitboard.Count(ms))
			for range k {
				ms &= ms - 1
			}
			p = p.Play(bitboard.FirstSquare(ms))
		}
	}
	if !found {
		t.Fatal("no move forcing a pass found")
	}
	b := New()
	after := pos.Play(move).Pass()
	for _, p := range []bitboard.Position{pos, after} {
		if _, err := b.Expand(context.Background(), p, standIn); err != nil {
			t.Fatal(err)
		}
	}
	checkAgainstNaive(t, b)
	for _, m := range b.Moves(pos) {
		if m.Square == move && (!m.InBook || m.Value != b.Moves(after)[0].Value) {
			t.Errorf("%v forces a pass: valued %v, the position after the pass %v", pos, m, b.Moves(after)[0])
		}
	}
}

// noisyScreen screens with an error of up to ±6 discs from the full value.
type noisyScreen struct{ screened }

func (s *noisyScreen) Screen(ctx context.Context, p bitboard.Position) (Valuation, error) {
	v, err := standIn.Value(ctx, p)
	v.Depth = 1
	v.Score += int(p.Hash()>>20%13) - 6
	return v, err
}

// However wrong the screen, and however the negamax moves the values
// later, no screened value ends up a position's best.
func TestScreenNeverDecidesTheBest(t *testing.T) {
	b := New()
	sc := &noisyScreen{screened{margin: 2}}
	if _, err := b.Grow(context.Background(), sc, GrowOptions{Window: 3, PathWindow: 6, MaxPly: 8, Positions: 40}); err != nil {
		t.Fatal(err)
	}
	shallow := 0
	for k := range b.all() {
		ms := b.Moves(k.position())
		if ms[0].Screened {
			t.Errorf("%v: best move %v from the screen", k.position(), ms[0])
		}
		for _, m := range ms {
			if m.Screened != (m.Depth == 2) {
				t.Errorf("%v: %v marked screened %v", k.position(), m, m.Screened)
			}
			if m.Screened {
				shallow++
			}
		}
	}
	if shallow == 0 {
		t.Error("nothing was left to the screen")
	}
}

// TestAlignedSearchDepth: every leaf search of an aligned book ends at an
// even number of empties, one or no ply deeper than depth-1.
func TestAlignedSearchDepth(t *testing.T) {
	p := bitboard.Start()
	for ply := 0; ply < 20; ply++ {
		for _, depth := range []int{14, 15, 28} {
			d := AlignedSearchDepth(p, depth)
			if d != depth-1 && d != depth || (p.Empties()-d)%2 != 0 {
				t.Fatalf("%d empties, depth %d: searched to %d", p.Empties(), depth, d)
			}
		}
		p = p.Play(bitboard.FirstSquare(p.Moves()))
	}
}

// TestUnder counts the positions behind a move by a walk of the book, each
// once: a line of five positions.
func TestUnder(t *testing.T) {
	b := New()
	v := ValuerFunc(func(ctx context.Context, pos bitboard.Position) (Valuation, error) {
		return Valuation{Score: 0, Depth: 1, Selectivity: 100}, nil
	})
	p := bitboard.Start()
	line, err := bitboard.ParseMoves("f5d6c3d3c4")
	if err != nil {
		t.Fatal(err)
	}
	var ps []bitboard.Position
	for _, m := range line {
		ps = append(ps, p)
		p = p.Play(m)
	}
	for _, q := range ps {
		if _, err := b.Expand(context.Background(), q, v); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.Under(bitboard.Start()); got != 5 {
		t.Errorf("from the start: %d positions, want the 5 of the line", got)
	}
	if got := b.Under(ps[2]); got != 3 {
		t.Errorf("from move 3: %d, want 3", got)
	}
	if got := b.Under(p); got != 0 {
		t.Errorf("past the book: %d, want 0", got)
	}
}

func TestFollow(t *testing.T) {
	b := grown(t)
	// A game that plays the book's best twice, then its worst move, then
	// on until it leaves the book.
	pos := bitboard.Start()
	var moves []bitboard.Square
	var losses []int
	for len(moves) < 12 {
		ms := b.Moves(pos)
		if ms == nil {
			break
		}
		pick := 0
		if len(moves) == 2 {
			pick = len(ms) - 1
		}
		moves = append(moves, ms[pick].Square)
		losses = append(losses, ms[0].Value-ms[pick].Value)
		pos = pos.Play(ms[pick].Square)
	}
	inBook := len(moves)
	if inBook < 3 || losses[2] <= 0 {
		t.Fatalf("test book too small: %d moves, losses %v", inBook, losses)
	}
	// Two moves past the book's end, which Follow must not report.
	for i := 0; i < 2 && pos.Moves() != 0; i++ {
		m := bitboard.FirstSquare(pos.Moves())
		moves = append(moves, m)
		pos = pos.Play(m)
	}
	ps, err := b.Follow(bitboard.Start(), moves)
	if err != nil || len(ps) != inBook {
		t.Fatalf("Follow: %d moves, %v; want %d", len(ps), err, inBook)
	}
	for i, p := range ps {
		want := bitboard.Black
		if i%2 == 1 {
			want = bitboard.White
		}
		if p.Ply != i+1 || p.Index != i || p.Square != moves[i] || p.Loss != losses[i] || p.Player != want {
			t.Errorf("move %d: %+v, want square %s loss %d by %v", i+1, p, moves[i], losses[i], want)
		}
	}
	// An illegal move ends the walk with its error; the moves before stay.
	bad := append(append([]bitboard.Square{}, moves[:2]...), sq(t, "a1"))
	ps, err = b.Follow(bitboard.Start(), bad)
	if err == nil || len(ps) != 2 {
		t.Errorf("illegal third move: %d moves, %v", len(ps), err)
	}
}
