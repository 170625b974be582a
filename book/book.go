// Package book is Outflank's opening book: positions whose moves are valued
// by the engine's own search, and interior values negamaxed from the book
// positions the moves lead to.
//
// A book position (a node) is stored once for its eight symmetric forms, in
// canonical form. It holds every legal move with its value (the disc
// difference the side that plays it can expect with best play after it)
// and the depth and selectivity of the search that produced that value. A
// move whose resulting position is itself in the book takes the value of
// that position's best move (negamax); any other move keeps the value of a
// search of the position it leads to (a leaf). The book grows from the
// moves that real games play and then by deviation, adding the best
// unexplored moves close to the best (see Grow); games played are learnt
// the same way (Learn). The engine probes the book to play good opening
// moves at once (Choose) and to show GUIs the values of book moves.
//
// A default book is embedded in the binary (see book/README.md for how it
// was built); --book FILE loads another.
package book

import (
	"fmt"
	"slices"
	"sort"

	"github.com/outflank-othello/outflank/bitboard"
)

// Move is a book move as seen from a position.
type Move struct {
	Square bitboard.Square
	// Value is the disc difference that the side playing the move can
	// expect: negamaxed through the book, from searches at its leaves.
	Value int
	// Depth is the depth in plies, counted from the position where the move
	// is played, of the search behind Value: a search of the position after
	// the move to depth d values the move at depth d+1, as the root moves
	// of a depth d+1 search are valued. A negamaxed value keeps the depth
	// of the leaf search it comes from (the child's best move). For an
	// exact value it is the number of empties the solve covered, plus one.
	Depth int
	// Selectivity is the Multi-ProbCut confidence of that search in
	// percent (100: no selective cut).
	Selectivity int
	// Exact is true when Value is proven: an exact solve, or negamaxed from
	// a book position all of whose moves are exact.
	Exact bool
	// InBook is true when the position after the move is in the book, so
	// Value is negamaxed from it rather than from a single search.
	InBook bool
	// Screened is true when Value comes from the shallow screening search
	// only: the move lost clearly against the best (see Screener).
	Screened bool
	// Evaluation names the evaluation whose search gave Value (the leaf's,
	// for a negamaxed value), as the valuer gave it (Valuation.Evaluation);
	// "" when the book does not record it (books written before it did).
	Evaluation string
}

// String writes the move as "c4 +2 @14/100" ("@14/100x" when exact,
// "s" when screened).
func (m Move) String() string {
	x := ""
	if m.Exact {
		x = "x"
	}
	if m.Screened {
		x += "s"
	}
	return fmt.Sprintf("%s %+d @%d/%d%s", m.Square, m.Value, m.Depth, m.Selectivity, x)
}

// rec is a move as stored: in the canonical orientation of its node.
type rec struct {
	sq    uint8
	value int8
	depth uint8
	sel   uint8
	flags uint8
}

// Record flags: an exact value; a value from the screen (a shallow search,
// see Screener), which the book never lets be a position's best. The six
// bits above them hold the evaluation that valued the move: 0 none
// recorded, i the book's evaluation i-1 (Book.evals).
const (
	flagExact    = 1
	flagScreened = 2
	flagsKnown   = flagExact | flagScreened
	evalShift    = 2
	// MaxEvaluations is the number of evaluations a book can tell apart;
	// values from more are stored as unrecorded.
	MaxEvaluations = 0xFF >> evalShift
)

// evalIndex is the evaluation a record names: 0 none, i Book.evals[i-1].
func (r rec) evalIndex() int { return int(r.flags >> evalShift) }

// withEval returns r naming evaluation i (0: none).
func (r rec) withEval(i int) rec {
	r.flags = r.flags&flagsKnown | uint8(i)<<evalShift
	return r
}

// key is a canonical position: the discs of the side to move and of the
// other side (the colour does not change the game from here).
type key struct{ p, o uint64 }

func keyOf(p bitboard.Position) (key, bitboard.Symmetry) {
	c, s := p.Canonical()
	return key{c.Player, c.Opponent}, s
}

func (k key) position() bitboard.Position {
	return bitboard.Position{Player: k.p, Opponent: k.o}
}

// Book is a set of valued positions. The zero value is not usable; use New.
// A Book is not safe for concurrent writers; concurrent readers are fine
// (only a change turns a book read from a file into its map form).
type Book struct {
	// nodes holds the positions once the book has changed (or was built
	// rather than read); flat holds them as read from a file, nodes nil,
	// until the first change (see thaw).
	nodes map[key][]rec
	flat  *flat
	// Info says how the book was built (the commands and the engine); it
	// is stored in the file and printed by "outflank book info".
	Info string
	// parents maps a position (in book or not) to the book positions with
	// a move into it; built on the first addition, so that an addition
	// re-negamaxes exactly its ancestors.
	parents map[key][]key
	// stale holds the positions whose best value is a screened one.
	stale map[key]bool
	// parity is the odd-even correction of the negamax in discs (see
	// SetParityOffset); 0 negamaxes plainly.
	parity int
	// evals names the evaluations that valued the book's moves (see
	// Valuation.Evaluation), in the order they first did.
	evals []string
}

// MaxParityOffset bounds the parity offset a book may hold.
const MaxParityOffset = 16

// checkParity checks a parity offset's range (set, read from a file or a
// text book).
func checkParity(n int) error {
	if n < -MaxParityOffset || n > MaxParityOffset {
		return fmt.Errorf("parity offset %d: want %d to %d discs", n, -MaxParityOffset, MaxParityOffset)
	}
	return nil
}

// ParityOffset returns the book's odd-even correction (see SetParityOffset).
func (b *Book) ParityOffset() int { return b.parity }

// SetParityOffset sets the odd-even correction of the negamax and
// re-negamaxes the book.
//
// A search to an odd depth values the side to move higher than one to an
// even depth: the side that chooses last, at the horizon, picks the best of
// noisy evaluations. Measured on book positions with the default
// evaluation, depth 13 minus depth 14 is +2.75 discs (`go run
// bench/parity.go -book 600 -depths 12,13,14`). A book leaf searches the
// child to depth D-1; a move into a book position takes that position's
// best move, itself valued by searches of its children to D-1, so it sees
// one ply further and carries the other parity. Left alone, a plain
// negamax prefers moves into the book's own lines by the whole gap, at
// every level. With offset n, the value a book position passes to its
// parents is moved by n towards the leaves' parity first: its best move's
// value (for its side to move) plus n when the leaf search behind it had
// an odd depth (its record's depth D even), minus n when even; exact
// values are not moved. n is in [-MaxParityOffset, MaxParityOffset].
func (b *Book) SetParityOffset(n int) error {
	if err := checkParity(n); err != nil {
		return err
	}
	b.parity = n
	b.Negamax()
	return nil
}

// New returns an empty book.
func New() *Book { return &Book{nodes: map[key][]rec{}} }

// Len returns the number of positions in the book.
func (b *Book) Len() int {
	if b.flat != nil {
		return len(b.flat.keys)
	}
	return len(b.nodes)
}

// Contains reports whether pos is a book position.
func (b *Book) Contains(pos bitboard.Position) bool {
	k, _ := keyOf(pos)
	return b.has(k)
}

// Moves returns the book moves of pos, best first (by value, then depth),
// in pos's orientation; nil when pos is not in the book.
func (b *Book) Moves(pos bitboard.Position) []Move {
	k, s := keyOf(pos)
	rs, ok := b.node(k)
	if !ok {
		return nil
	}
	inv := s.Inverse()
	out := make([]Move, len(rs))
	for i, r := range rs {
		canon := k.position().Play(bitboard.Square(r.sq))
		_, in := b.resolve(canon)
		out[i] = Move{
			Square: inv.Square(bitboard.Square(r.sq)), Value: int(r.value),
			Depth: int(r.depth), Selectivity: int(r.sel), Exact: r.flags&flagExact != 0, InBook: in,
			Screened: r.flags&flagScreened != 0 && !in, Evaluation: b.evalName(r),
		}
	}
	sortMoves(out)
	return out
}

func sortMoves(ms []Move) {
	sort.SliceStable(ms, func(i, j int) bool {
		if ms[i].Value != ms[j].Value {
			return ms[i].Value > ms[j].Value
		}
		if ms[i].Depth != ms[j].Depth {
			return ms[i].Depth > ms[j].Depth
		}
		return ms[i].Square < ms[j].Square
	})
}

// Value returns the book value of pos for the side to move (its best move)
// and whether pos is in the book.
func (b *Book) Value(pos bitboard.Position) (Move, bool) {
	ms := b.Moves(pos)
	if len(ms) == 0 {
		return Move{}, false
	}
	return ms[0], true
}

// best returns the best record of a node (by value, then depth) and
// whether every move of the node is exact.
func best(rs []rec) (rec, bool) {
	bi, exact := 0, true
	for i, r := range rs {
		if r.value > rs[bi].value || r.value == rs[bi].value && r.depth > rs[bi].depth {
			bi = i
		}
		if r.flags&flagExact == 0 {
			exact = false
		}
	}
	return rs[bi], exact
}

// resolve finds what the book says of the position c reached by a move,
// from the point of view of the side that played it: the negamaxed value
// of c, or of c after a forced pass. in is false when c is not in the book
// (a finished game never is: its move keeps the exact score it was given).
func (b *Book) resolve(c bitboard.Position) (r rec, in bool) {
	if c.Moves() == 0 {
		if c.GameOver() {
			return rec{}, false
		}
		k, _ := keyOf(c.Pass())
		rs, ok := b.node(k)
		if !ok {
			return rec{}, false
		}
		br, exact := best(rs)
		return derived(br, exact, false, b.parity), true
	}
	k, _ := keyOf(c)
	rs, ok := b.node(k)
	if !ok {
		return rec{}, false
	}
	br, exact := best(rs)
	return derived(br, exact, true, b.parity), true
}

// derived is the record of a move whose child's best record is br: the
// value corrected for parity (see SetParityOffset) and negated unless the
// opponent had to pass, and the depth and selectivity of the leaf search
// it comes from.
func derived(br rec, exact, negate bool, parity int) rec {
	v := int(br.value)
	if br.flags&flagExact == 0 {
		if br.depth%2 == 0 {
			v += parity
		} else {
			v -= parity
		}
	}
	if negate {
		v = -v
	}
	r := rec{value: int8(max(-64, min(64, v))), depth: br.depth, sel: br.sel}
	if exact {
		r.flags = flagExact
	}
	return r.withEval(br.evalIndex())
}

// evalName is the evaluation that valued r ("" when not recorded).
func (b *Book) evalName(r rec) string {
	if i := r.evalIndex(); i > 0 && i <= len(b.evals) {
		return b.evals[i-1]
	}
	return ""
}

// evalIndex returns the index records use for evaluation name, adding it
// to the book's list: 0 for "" or when the list is full.
func (b *Book) evalIndex(name string) int {
	if name == "" {
		return 0
	}
	if i := slices.Index(b.evals, name); i >= 0 {
		return i + 1
	}
	if len(b.evals) >= MaxEvaluations {
		return 0
	}
	b.evals = append(b.evals, name)
	return len(b.evals)
}

// refresh re-derives the moves of node k whose children are in the book
// and reports whether the node's best record changed.
func (b *Book) refresh(k key) bool {
	b.thaw()
	rs := b.nodes[k]
	before, bx := best(rs)
	pos := k.position()
	for i := range rs {
		if r, ok := b.resolve(pos.Play(bitboard.Square(rs[i].sq))); ok {
			r.sq = rs[i].sq
			rs[i] = r
		}
	}
	after, ax := best(rs)
	if stale(rs) {
		if b.stale == nil {
			b.stale = map[key]bool{}
		}
		b.stale[k] = true
	}
	return before != after || bx != ax
}

// stale reports whether a screened value is above every other value of a
// node: the full searches or the negamax below it fell, and the screened
// move must now be searched fully (Grow and Learn do it).
func stale(rs []rec) bool {
	top, topScreened := -65, -65
	for _, r := range rs {
		if r.flags&flagScreened != 0 {
			topScreened = max(topScreened, int(r.value))
		} else {
			top = max(top, int(r.value))
		}
	}
	return topScreened > top
}

// Negamax re-derives every book position's values from its children,
// deepest positions first, so that each child is final before its parents
// read it. Reading, importing and merging call it.
func (b *Book) Negamax() {
	b.thaw()
	keys := b.keys()
	sort.SliceStable(keys, func(i, j int) bool { return discs(keys[i]) > discs(keys[j]) })
	for _, k := range keys {
		b.refresh(k)
	}
}

func discs(k key) int { return bitboard.Count(k.p | k.o) }

// keys returns the node keys sorted, so that files and exports are
// deterministic.
func (b *Book) keys() []key {
	if b.flat != nil {
		return slices.Clone(b.flat.keys)
	}
	keys := make([]key, 0, len(b.nodes))
	for k := range b.nodes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return lessKey(keys[i], keys[j]) })
	return keys
}

// children returns the keys of the positions node k's moves lead to,
// skipping forced passes as the book does.
func childKeys(k key, rs []rec) []key {
	pos := k.position()
	out := make([]key, 0, len(rs))
	for _, r := range rs {
		c := pos.Play(bitboard.Square(r.sq))
		if c.Moves() == 0 {
			if c.GameOver() {
				continue
			}
			c = c.Pass()
		}
		ck, _ := keyOf(c)
		out = append(out, ck)
	}
	return out
}

func (b *Book) indexParents() {
	if b.parents != nil {
		return
	}
	b.parents = make(map[key][]key, b.Len()*8)
	for k, rs := range b.all() {
		b.link(k, rs)
	}
}

func (b *Book) link(k key, rs []rec) {
	for _, ck := range childKeys(k, rs) {
		ps := b.parents[ck]
		dup := false
		for _, p := range ps {
			dup = dup || p == k
		}
		if !dup {
			b.parents[ck] = append(ps, k)
		}
	}
}

// insert adds node k (its moves already valued, in canonical orientation),
// derives the moves whose children are in the book, and re-negamaxes its
// ancestors: each parent whose best value changes passes the change on.
func (b *Book) insert(k key, rs []rec) {
	b.thaw()
	b.indexParents()
	b.nodes[k] = rs
	b.refresh(k)
	b.link(k, rs)
	queue := []key{k}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, p := range b.parents[c] {
			if b.refresh(p) {
				queue = append(queue, p)
			}
		}
	}
}

// Stats summarises a book.
type Stats struct {
	Positions, Moves int
	Leaves           int         // moves valued by their own search (not in book)
	Exact            int         // moves with a proven value
	Screened         int         // leaf moves valued by the screen only
	Depths           map[int]int // leaf moves by depth
	Selectivities    map[int]int // leaf moves by selectivity
	// Evaluations counts inexact leaf moves by the evaluation that valued
	// them ("": not recorded); exact values depend on none.
	Evaluations map[string]int
	MinDiscs    int
	MaxDiscs    int
}

// Stats counts the book's positions and moves.
func (b *Book) Stats() Stats {
	st := Stats{Depths: map[int]int{}, Selectivities: map[int]int{}, Evaluations: map[string]int{}, MinDiscs: 65}
	for k, rs := range b.all() {
		st.Positions++
		st.Moves += len(rs)
		d := discs(k)
		st.MinDiscs, st.MaxDiscs = min(st.MinDiscs, d), max(st.MaxDiscs, d)
		pos := k.position()
		for _, r := range rs {
			if r.flags&flagExact != 0 {
				st.Exact++
			}
			if _, in := b.resolve(pos.Play(bitboard.Square(r.sq))); in {
				continue
			}
			st.Leaves++
			if r.flags&flagScreened != 0 {
				st.Screened++
			}
			st.Depths[int(r.depth)]++
			st.Selectivities[int(r.sel)]++
			if r.flags&flagExact == 0 {
				st.Evaluations[b.evalName(r)]++
			}
		}
	}
	if st.Positions == 0 {
		st.MinDiscs = 0
	}
	return st
}

// Under counts the book positions in the part of the book reached from pos
// (pos itself included when it is in the book; a position after a forced
// pass stands for its pass, as the book keeps it), each once however many
// lines lead to it: what a player sees behind a book move ("book show").
func (b *Book) Under(pos bitboard.Position) int {
	if pos.Moves() == 0 && !pos.GameOver() {
		pos = pos.Pass()
	}
	k, _ := keyOf(pos)
	if !b.has(k) {
		return 0
	}
	seen := map[key]bool{k: true}
	stack := []key{k}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		rs, _ := b.node(k)
		for _, c := range childKeys(k, rs) {
			if !seen[c] && b.has(c) {
				seen[c] = true
				stack = append(stack, c)
			}
		}
	}
	return len(seen)
}
