package book

import "iter"

// flat is a book's positions as a file holds them: keys sorted, node i's
// moves recs[off[i]:off[i+1]]. Reading a file into it costs no map of a
// hundred thousand keys (the browser build's start waits for the book);
// lookups are binary searches. A book turns into its map form (thaw)
// before its first change.
type flat struct {
	keys []key
	off  []uint32 // len(keys)+1
	recs []rec
}

// lessKey orders keys as files store them.
func lessKey(a, b key) bool { return a.p < b.p || a.p == b.p && a.o < b.o }

// find returns node k's moves (capped: an append reallocates).
func (f *flat) find(k key) ([]rec, bool) {
	lo, hi := 0, len(f.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if lessKey(f.keys[m], k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(f.keys) || f.keys[lo] != k {
		return nil, false
	}
	a, z := f.off[lo], f.off[lo+1]
	return f.recs[a:z:z], true
}

// node returns the moves of node k and whether k is in the book. The
// moves are the book's own: only a thawed book's may be changed.
func (b *Book) node(k key) ([]rec, bool) {
	if b.flat != nil {
		return b.flat.find(k)
	}
	rs, ok := b.nodes[k]
	return rs, ok
}

// has reports whether node k is in the book.
func (b *Book) has(k key) bool {
	_, ok := b.node(k)
	return ok
}

// all yields every node: sorted by key in the flat form, in map order
// in the other.
func (b *Book) all() iter.Seq2[key, []rec] {
	return func(yield func(key, []rec) bool) {
		if f := b.flat; f != nil {
			for i, k := range f.keys {
				a, z := f.off[i], f.off[i+1]
				if !yield(k, f.recs[a:z:z]) {
					return
				}
			}
			return
		}
		for k, rs := range b.nodes {
			if !yield(k, rs) {
				return
			}
		}
	}
}

// thaw turns a book read from a file into the map form that changes
// work on; the moves stay where they are. Every change calls it first.
func (b *Book) thaw() {
	f := b.flat
	if f == nil {
		return
	}
	b.nodes = make(map[key][]rec, len(f.keys))
	for i, k := range f.keys {
		a, z := f.off[i], f.off[i+1]
		b.nodes[k] = f.recs[a:z:z]
	}
	b.flat = nil
}

// sorted yields every node in key order, as files and exports list them.
func (b *Book) sorted() iter.Seq2[key, []rec] {
	if b.flat != nil {
		return b.all()
	}
	return func(yield func(key, []rec) bool) {
		for _, k := range b.keys() {
			if !yield(k, b.nodes[k]) {
				return
			}
		}
	}
}
