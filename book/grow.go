package book

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// Valuation is what a Valuer says of a position.
type Valuation struct {
	Score       int  // disc difference for the side to move
	Depth       int  // plies searched (for a solve, the empties)
	Selectivity int  // percent; 100: no selective cut
	Exact       bool // the score is proven
	// Evaluation names the evaluation (weights and selective-search model)
	// behind the score, so that the book can find the values of other
	// evaluations when it is revalued ("": not said).
	Evaluation string
}

// Valuer values positions by search. The book calls it for every position a
// new book position's moves lead to; the command uses the engine's search,
// tests a stand-in. A Valuer should return ctx.Err() when ctx is cancelled
// before it has a complete result: an incomplete valuation is not stored.
type Valuer interface {
	Value(ctx context.Context, pos bitboard.Position) (Valuation, error)
}

// Screener is an optional interface of a Valuer: a cheap first valuation
// (a shallow search). When the Valuer has one with a positive margin,
// Expand screens every move first and searches fully only the moves whose
// screened value lies within ScreenMargin discs of the best; the others
// keep the screened value, at the screen's depth, which the book records
// as it records any depth. Clearly losing moves then cost a shallow search
// instead of a deep one.
type Screener interface {
	Screen(ctx context.Context, pos bitboard.Position) (Valuation, error)
	ScreenMargin() int
}

// ValuerFunc adapts a function to Valuer.
type ValuerFunc func(ctx context.Context, pos bitboard.Position) (Valuation, error)

// Value calls f.
func (f ValuerFunc) Value(ctx context.Context, pos bitboard.Position) (Valuation, error) {
	return f(ctx, pos)
}

// Expand adds pos to the book with every legal move valued: a move into a
// book position takes its negamaxed value, a move that ends the game its
// exact score, any other a search of the position it leads to. Then the
// ancestors of pos are re-negamaxed (see Screener for moves that need only
// a shallow search). It returns the number of full searches made;
// a position already in the book, one whose side to move must pass (the
// book keeps the position after the pass) or a finished game is left alone.
// On error (a cancelled ctx) the book is unchanged.
func (b *Book) Expand(ctx context.Context, pos bitboard.Position, v Valuer) (searches int, err error) {
	if pos.Moves() == 0 {
		return 0, nil
	}
	k, _ := keyOf(pos)
	if b.has(k) {
		return 0, nil
	}
	canon := k.position()
	var rs []rec
	var open []int // indexes in rs of the moves to search
	for m := canon.Moves(); m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		c := canon.Play(sq)
		if r, ok := b.resolve(c); ok {
			r.sq = uint8(sq)
			rs = append(rs, r)
			continue
		}
		if c.GameOver() {
			rs = append(rs, rec{sq: uint8(sq), value: int8(-c.FinalScore()), depth: 1, sel: 100, flags: flagExact})
			continue
		}
		open = append(open, len(rs))
		rs = append(rs, rec{sq: uint8(sq)})
	}
	search := func(i int) error {
		val, err := v.Value(ctx, canon.Play(bitboard.Square(rs[i].sq)))
		searches++
		if err == nil {
			err = ctx.Err()
		}
		rs[i] = b.leafRec(bitboard.Square(rs[i].sq), val)
		return err
	}
	sc, screen := v.(Screener)
	if !screen || sc.ScreenMargin() <= 0 || len(open) < 2 {
		for _, i := range open {
			if err := search(i); err != nil {
				return searches, err
			}
		}
		b.insert(k, rs)
		return searches, nil
	}
	for _, i := range open {
		val, err := sc.Screen(ctx, canon.Play(bitboard.Square(rs[i].sq)))
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			return searches, err
		}
		rs[i] = b.leafRec(bitboard.Square(rs[i].sq), val)
		rs[i].flags |= flagScreened
	}
	// Search fully the screened moves best first, until the next one lies
	// more than the margin below the best full value: when the full
	// searches lower the best, moves that come within the margin are
	// searched too, so that no screened value is ever the best.
	final := -65 // the best value not from the screen
	for i, r := range rs {
		if !slices.Contains(open, i) {
			final = max(final, int(r.value))
		}
	}
	sort.SliceStable(open, func(a, b int) bool { return rs[open[a]].value > rs[open[b]].value })
	for _, i := range open {
		if final > -65 && int(rs[i].value) < final-sc.ScreenMargin() {
			break
		}
		if err := search(i); err != nil {
			return searches, err
		}
		final = max(final, int(rs[i].value))
	}
	b.insert(k, rs)
	return searches, nil
}

// fixStale searches fully the screened moves that have become their
// position's best (see stale), best first, and re-negamaxes, until no
// position is stale; each search can make others stale, but every one
// removes a screened value, so it ends. Positions are taken in key order,
// so that a run and its resumption agree.
func (b *Book) fixStale(ctx context.Context, v Valuer) (searches int, err error) {
	for len(b.stale) > 0 {
		keys := make([]key, 0, len(b.stale))
		for k := range b.stale {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(x, y key) int {
			if x.p != y.p {
				return cmpU64(x.p, y.p)
			}
			return cmpU64(x.o, y.o)
		})
		k := keys[0]
		delete(b.stale, k)
		rs, _ := b.node(k)
		rs = slices.Clone(rs)
		pos := k.position()
		for stale(rs) {
			bi := -1
			for i, r := range rs {
				if r.flags&flagScreened != 0 && (bi < 0 || r.value > rs[bi].value) {
					bi = i
				}
			}
			val, err := v.Value(ctx, pos.Play(bitboard.Square(rs[bi].sq)))
			searches++
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				b.stale[k] = true
				return searches, err
			}
			rs[bi] = b.leafRec(bitboard.Square(rs[bi].sq), val)
		}
		b.insert(k, rs)
	}
	return searches, nil
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// markStale finds the stale positions of a book just read or merged.
func (b *Book) markStale() {
	for k, rs := range b.all() {
		if stale(rs) {
			if b.stale == nil {
				b.stale = map[key]bool{}
			}
			b.stale[k] = true
		}
	}
}

// AlignedSearchDepth is the depth to which a book of depth D with aligned
// parity searches pos, the position a leaf move leads to: D-1 plies, or D
// when D-1 would end the search at an odd number of empties. Every leaf
// search of such a book then ends with the same side having moved last,
// so a move into a book position (valued one ply deeper than a leaf) and a
// leaf move of the same position are valued at the same parity, and the
// negamax needs no parity offset. The odd-even effect is measured at
// about 2.75 discs a ply on book positions (book/README.md).
func AlignedSearchDepth(pos bitboard.Position, depth int) int {
	d := depth - 1
	if (pos.Empties()-d)%2 != 0 {
		d++
	}
	return d
}

// leafRec is the record of move sq valued by a search of the position it
// leads to.
func (b *Book) leafRec(sq bitboard.Square, val Valuation) rec {
	r := rec{
		sq: uint8(sq), value: int8(max(-64, min(64, -val.Score))),
		depth: uint8(max(0, min(val.Depth, 254)) + 1), sel: uint8(max(0, min(val.Selectivity, 100))),
	}
	if val.Exact && val.Selectivity >= 100 {
		r.flags = flagExact
	}
	return r.withEval(b.evalIndex(val.Evaluation))
}

// Shard is one part of a growth split over several processes: the positions
// whose hash modulo N is K-1. The zero value (or N <= 1) is the whole book.
type Shard struct{ K, N int }

// owns reports whether the shard adds position k.
func (s Shard) owns(k key) bool {
	return s.N <= 1 || int(bitboard.Hash(k.p, k.o)%uint64(s.N)) == s.K-1
}

// ParseShard reads "K/N" (1 <= K <= N).
func ParseShard(s string) (Shard, error) {
	var sh Shard
	if _, err := fmt.Sscanf(s, "%d/%d", &sh.K, &sh.N); err != nil || sh.N < 1 || sh.K < 1 || sh.K > sh.N || fmt.Sprintf("%d/%d", sh.K, sh.N) != s {
		return Shard{}, fmt.Errorf("shard %q: want K/N with 1 <= K <= N", s)
	}
	return sh, nil
}

// GrowOptions bound and steer Grow.
type GrowOptions struct {
	// Seeds are positions to add first, in order (see Seeds): the moves of
	// real games. Positions already in the book are skipped.
	Seeds []Seed
	// Window: a move whose value is within Window discs of its position's
	// best is worth exploring (deviation).
	Window int
	// PathWindow bounds the sum of those losses along a line from the
	// root, so that deviations stay in lines both sides could choose.
	PathWindow int
	// MaxPly is the deepest ply (discs placed from the start) of a book
	// position that deviation adds.
	MaxPly int
	// Roots are positions that deviation grows from as it does from the
	// start, their own best lines at no loss: the openings games are
	// started from (a GUI's or a match's), which the start position's
	// near-best lines may never reach. A root not yet in the book is
	// skipped (give it as a seed too).
	Roots []bitboard.Position
	// Positions: stop after adding this many positions (0: no limit).
	Positions int
	// Deadline: stop at this time (zero: none). ctx can stop the run too.
	Deadline time.Time
	Shard    Shard
	// Checkpoint, if not nil, is called with the book every
	// CheckpointEvery (and at the end); an error stops the run.
	Checkpoint      func(*Book) error
	CheckpointEvery time.Duration
	// Progress, if not nil, is told of every position added.
	Progress func(GrowStats)
	// Refill, if not nil, is called when no candidate is left: a shard
	// only grows through the positions it holds, so its frontier can stop
	// at another shard's positions; Refill merges those in (the other
	// shards' files, waiting for them if it likes) and returns how many
	// positions it added. Growth goes on if it added any.
	Refill func(*Book) (added int, err error)
}

// GrowStats says what Grow did.
type GrowStats struct {
	Added, Searches int
	SeedsAdded      int
	Last            bitboard.Position // the last position added
	Stopped         string            // why the run stopped
}

// Grow adds positions to the book: first the seeds (in order), then by
// deviation from the start position (and the Roots): in every book position, the moves
// whose values lie within Window of the best (and within PathWindow summed
// along the line) lead to positions that are added, least loss first, then
// shallowest first; after each addition the ancestors are re-negamaxed, so
// the next choice sees the new values. It stops at the budget (Positions,
// Deadline, ctx) or when no candidate is left, and checkpoints on the way.
// A stopped run resumes by calling Grow again on the saved book: the
// positions added are in the book and are skipped.
func (b *Book) Grow(ctx context.Context, v Valuer, opt GrowOptions) (GrowStats, error) {
	var st GrowStats
	if !opt.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, opt.Deadline)
		defer cancel()
	}
	lastCheck := time.Now()
	checkpoint := func(force bool) error {
		if opt.Checkpoint == nil || !force && (opt.CheckpointEvery <= 0 || time.Since(lastCheck) < opt.CheckpointEvery) {
			return nil
		}
		lastCheck = time.Now()
		return opt.Checkpoint(b)
	}
	add := func(pos bitboard.Position) (bool, error) {
		k, _ := keyOf(pos)
		if b.has(k) || !opt.Shard.owns(k) || pos.Moves() == 0 {
			return false, nil
		}
		n, err := b.Expand(ctx, pos, v)
		st.Searches += n
		if err != nil {
			return false, err
		}
		st.Added++
		n, err = b.fixStale(ctx, v)
		st.Searches += n
		if err != nil {
			return false, err
		}
		st.Last = pos
		if opt.Progress != nil {
			opt.Progress(st)
		}
		return true, checkpoint(false)
	}
	full := func() bool { return opt.Positions > 0 && st.Added >= opt.Positions }
	finish := func(why string, err error) (GrowStats, error) {
		// A budget or a Ctrl-C ends a run normally (the book is saved);
		// the report says which, so that a log tells a finished shard from
		// one stopped by hand.
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			why, err = "time", nil
		case errors.Is(err, context.Canceled):
			why, err = "interrupted", nil
		}
		st.Stopped = why
		if cerr := checkpoint(true); err == nil {
			err = cerr
		}
		return st, err
	}

	b.markStale()
	n, err := b.fixStale(ctx, v)
	st.Searches += n
	if err != nil {
		return finish("", err)
	}
	for _, s := range opt.Seeds {
		if full() {
			return finish("positions", nil)
		}
		ok, err := add(s.Pos)
		if err != nil {
			return finish("", err)
		}
		if ok {
			st.SeedsAdded++
		}
	}
	for !full() {
		cands := b.deviations(opt)
		if len(cands) == 0 && opt.Refill != nil {
			n, err := opt.Refill(b)
			if err != nil {
				return finish("", err)
			}
			if n > 0 {
				continue
			}
		}
		if len(cands) == 0 {
			return finish("no candidate left", nil)
		}
		progress := false
		for _, c := range cands {
			if full() {
				break
			}
			ok, err := add(c.pos)
			if err != nil {
				return finish("", err)
			}
			if ok {
				progress = true
				// Values changed: re-collect, so that the next addition
				// is chosen from the new values.
				break
			}
		}
		if !progress {
			return finish("no candidate left", nil)
		}
	}
	return finish("positions", nil)
}

type candidate struct {
	pos  bitboard.Position
	loss int // summed loss of the line from the root
	ply  int
}

// deviations lists the positions that deviation would add: reached from
// the start through book moves within the windows, not in the book, owned
// by the shard; least loss first, then shallowest.
func (b *Book) deviations(opt GrowOptions) []candidate {
	var out []candidate
	seen := map[key]int{} // smallest loss a position was reached with
	var walk func(pos bitboard.Position, loss, ply int)
	walk = func(pos bitboard.Position, loss, ply int) {
		k, _ := keyOf(pos)
		if l, ok := seen[k]; ok && l <= loss {
			return
		}
		seen[k] = loss
		ms := b.Moves(pos)
		if ms == nil {
			return
		}
		for _, m := range ms {
			l := loss + ms[0].Value - m.Value
			if ms[0].Value-m.Value > opt.Window || l > opt.PathWindow {
				break // sorted by value: the rest lose more
			}
			c := pos.Play(m.Square)
			if c.Moves() == 0 {
				if c.GameOver() {
					continue
				}
				c = c.Pass()
			}
			if m.InBook {
				walk(c, l, ply+1)
				continue
			}
			ck, _ := keyOf(c)
			if ply+1 > opt.MaxPly || !opt.Shard.owns(ck) {
				continue
			}
			out = append(out, candidate{pos: c, loss: l, ply: ply + 1})
		}
	}
	root := bitboard.Start()
	if rk, _ := keyOf(root); !b.Contains(root) && opt.Shard.owns(rk) {
		return []candidate{{pos: root}}
	}
	walk(root, 0, 0)
	for _, r := range opt.Roots {
		walk(r, 0, 60-r.Empties())
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].loss != out[j].loss {
			return out[i].loss < out[j].loss
		}
		return out[i].ply < out[j].ply
	})
	return out
}

// Learn adds the positions of a game (from its start, up to maxPly discs
// placed from the start position) that are not yet in the book, each with
// all its moves valued by v, and re-negamaxes. It returns the positions
// added and the searches made.
func (b *Book) Learn(ctx context.Context, start bitboard.Position, moves []bitboard.Square, maxPly int, v Valuer) (added, searches int, err error) {
	_, positions, err := bitboard.Replay(start, moves)
	if err != nil {
		return 0, 0, fmt.Errorf("book: %w", err)
	}
	for _, p := range positions {
		if 60-p.Empties() > maxPly {
			break
		}
		if p.Moves() == 0 || b.Contains(p) {
			continue
		}
		n, err := b.Expand(ctx, p, v)
		searches += n
		if err == nil {
			n, err = b.fixStale(ctx, v)
			searches += n
		}
		if err != nil {
			return added, searches, err
		}
		added++
	}
	return added, searches, nil
}

// Merge adds the positions of o (e.g. a shard's) to b. A position in both
// keeps, move by move, the deeper search (then the less selective one);
// then b is negamaxed. An empty b takes o's parity offset; otherwise b keeps
// its own.
func (b *Book) Merge(o *Book) {
	b.thaw()
	if len(b.nodes) == 0 {
		b.parity = o.parity
	}
	remap := make([]int, len(o.evals)+1) // o's evaluation index to b's
	for i, name := range o.evals {
		remap[i+1] = b.evalIndex(name)
	}
	for k, ors := range o.all() {
		rs, ok := b.nodes[k]
		if !ok {
			rs = make([]rec, len(ors))
			for i, r := range ors {
				rs[i] = r.withEval(remap[r.evalIndex()])
			}
			b.nodes[k] = rs
			continue
		}
		for i := range rs {
			for _, r := range ors {
				if r.sq == rs[i].sq && (r.depth > rs[i].depth || r.depth == rs[i].depth && r.sel > rs[i].sel) {
					rs[i] = r.withEval(remap[r.evalIndex()])
				}
			}
		}
	}
	b.parents = nil
	b.Negamax()
}

// RevalueStats says what Revalue did.
type RevalueStats struct{ Positions, Searches int }

// RevalueOptions says which moves Revalue searches again.
type RevalueOptions struct {
	// MinDepth: leaf moves valued below this depth are searched again.
	MinDepth int
	// MaxPly: only positions at most this many moves from the start (0:
	// all), so that the top of a book can be valued deeper than the rest.
	MaxPly int
	// Evaluation, when not "", is the valuer's evaluation (its
	// Valuation.Evaluation): leaf moves valued by another one, or by one
	// the book does not record, are searched again at any depth. Exact
	// values depend on no evaluation and stay.
	Evaluation string
	// NearBest: only the leaf moves within Window discs of their
	// position's best (by the values before the position is revalued)
	// are searched again: where a deeper search can change which move the
	// book plays, and so what a game through the book meets. The others
	// keep their values.
	NearBest bool
	Window   int
	// Shard: only the positions it owns (as Grow's shards own them), so
	// that processes revaluing one book's copies each take a part; "book
	// merge" keeps the deeper value of each move.
	Shard Shard
}

// Revalue searches again, with v, every leaf move (one whose position is not
// in the book) valued below opt.MinDepth or, with opt.Evaluation, by
// another evaluation, except moves valued by the screen alone (they lost
// clearly; see Screener), shallowest book positions first (those most
// games reach), and re-negamaxes: re-valuing a book with a newer
// evaluation or a deeper search. It stops cleanly on ctx (the book stays
// consistent) and resumes where it stopped, since moves already re-valued
// are deep enough, and by the evaluation asked, to be skipped; checkpoint,
// if not nil, is called after every position.
func (b *Book) Revalue(ctx context.Context, v Valuer, opt RevalueOptions, checkpoint func(*Book) error) (RevalueStats, error) {
	var st RevalueStats
	b.thaw()
	keys := b.keys()
	keys = slices.DeleteFunc(keys, func(k key) bool {
		return opt.MaxPly > 0 && discs(k) > 4+opt.MaxPly || !opt.Shard.owns(k)
	})
	sort.SliceStable(keys, func(i, j int) bool { return discs(keys[i]) < discs(keys[j]) })
	b.indexParents()
	for _, k := range keys {
		rs := b.nodes[k]
		pos := k.position()
		changed := false
		br, _ := best(rs)
		top := int(br.value)
		for i, r := range rs {
			c := pos.Play(bitboard.Square(r.sq))
			current := opt.Evaluation == "" || r.flags&flagExact != 0 || b.evalName(r) == opt.Evaluation
			if int(r.depth) >= opt.MinDepth && current || r.flags&flagScreened != 0 || c.GameOver() {
				continue
			}
			if opt.NearBest && top-int(r.value) > opt.Window {
				continue
			}
			if _, in := b.resolve(c); in {
				continue
			}
			val, err := v.Value(ctx, c)
			st.Searches++
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				if changed {
					b.insert(k, rs)
				}
				return st, err
			}
			rs[i] = b.leafRec(bitboard.Square(r.sq), val)
			changed = true
		}
		if changed {
			b.insert(k, rs)
			st.Positions++
			if checkpoint != nil {
				if err := checkpoint(b); err != nil {
					return st, err
				}
			}
		}
	}
	return st, nil
}

// Adopt records evaluation name as the one behind every value that records
// none (books written before the book recorded it), except exact values,
// which depend on no evaluation, and returns how many leaf moves it named.
// It is for a book its owner knows that evaluation built: adopting the
// wrong one only hides values a revaluation should search again.
func (b *Book) Adopt(name string) (leaves int, err error) {
	if name == "" {
		return 0, errors.New("adopt: no evaluation named")
	}
	i := b.evalIndex(name)
	if i == 0 {
		return 0, fmt.Errorf("adopt: the book already tells %d evaluations apart, the most it can", MaxEvaluations)
	}
	b.thaw()
	for k, rs := range b.nodes {
		pos := k.position()
		for j, r := range rs {
			if r.evalIndex() != 0 || r.flags&flagExact != 0 {
				continue
			}
			rs[j] = r.withEval(i)
			if _, in := b.resolve(pos.Play(bitboard.Square(r.sq))); !in {
				leaves++
			}
		}
	}
	b.Negamax()
	return leaves, nil
}
