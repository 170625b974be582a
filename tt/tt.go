// Package tt is the transposition table shared by the searches: a fixed-size
// hash table, sized in MiB, that remembers for a position the bounds found
// on its score, the depth they were searched to, whether they are proven
// (exact endgame) or heuristic (midgame), and the best move.
//
// The table is safe for any number of concurrent readers and writers without
// a lock: each slot is two 64-bit words, the packed data and the position's
// key XORed with that data, written and read with atomic operations. A reader
// that sees one word of one write and the other word of another write gets a
// key that does not verify, and treats the slot as a miss; so a torn entry is
// never returned.
//
// Buckets are one cache line of four entries; replacement prefers entries of
// older searches, then shallower ones. On Linux a table of 2 MiB or more is
// backed by transparent huge pages where the system allows it, which saves
// a TLB miss on most probes.
package tt

import (
	"sync/atomic"
	"unsafe"

	"github.com/outflank-othello/outflank/bitboard"
)

// Entry is what the table stores for a position. Scores are final disc
// differences for the side to move, -64..64.
type Entry struct {
	Lower, Upper int8  // bounds on the score: Lower <= score <= Upper
	Depth        uint8 // midgame: remaining depth searched, in DepthUnit steps; endgame: empties
	Move         uint8 // best move found (a square 0-63), NoMove if none
	Proven       bool  // the bounds come from an exact endgame search
}

// DepthUnit is the number of Depth values per ply of a heuristic (midgame)
// entry: the midgame search packs its depth and its confidence as
// depth·DepthUnit + rank (rank < DepthUnit), so that at the same position the
// deeper, then surer, entry wins. Replacement across kinds compares a
// heuristic entry's plies (Depth / DepthUnit) with a proven entry's empties:
// compared raw, a depth-3 ordering search's entry (Depth 23) outranked an
// exact result at 22 empties, and the endgame solver lost its deep entries
// (FFO #49: 407 M nodes instead of 306 M).
const DepthUnit = 6

// NoMove is the Move of an entry that has no best move.
const NoMove = 255

// BucketSlots is the number of entries in a bucket: a bucket fills one
// 64-byte cache line, so a probe costs one memory access.
const BucketSlots = 4

// A slot's words are read and written only through load and store
// (atomic_other.go, atomic_wasm.go). A slice's elements start 8-byte
// aligned, so the words are aligned for 64-bit atomics on 32-bit
// platforms too.
type slot struct {
	key  uint64 // the position's key XOR data
	data uint64
}

type bucket [BucketSlots]slot

// Table is a transposition table. The zero value is not usable; call New.
type Table struct {
	buckets []bucket
	mask    uint64
	gen     atomic.Uint32 // age of the current search, stored in entries
}

// Data word layout. validBit is always set so that an empty slot (all
// zeros) never verifies, whatever the key.
const (
	shLower  = 0
	shUpper  = 8
	shDepth  = 16
	shMove   = 24
	shGen    = 32
	shFlags  = 40
	proven   = 1 << shFlags
	validBit = 2 << shFlags
)

// New returns a table using about mib MiB (rounded down to a power of two
// number of buckets; at least one bucket).
func New(mib int) *Table {
	n := uint64(1)
	if mib > 0 {
		want := uint64(mib) << 20 / 64
		for n*2 <= want {
			n *= 2
		}
	}
	return &Table{buckets: allocBuckets(n), mask: n - 1}
}

// hugePage is the size of a transparent huge page on x86-64 and arm64
// Linux. Probes hit random buckets, so with 4 KiB pages nearly every probe
// of a large table also misses the TLB; tables of at least this size are
// aligned to it and, where the OS allows, backed by huge pages.
const hugePage = 2 << 20

func allocBuckets(n uint64) []bucket {
	size := n * uint64(unsafe.Sizeof(bucket{}))
	if size < hugePage {
		return make([]bucket, n)
	}
	extra := uint64(hugePage / unsafe.Sizeof(bucket{}))
	raw := make([]bucket, n+extra)
	off := (hugePage - uintptr(unsafe.Pointer(&raw[0]))%hugePage) % hugePage / unsafe.Sizeof(bucket{})
	b := raw[off : off+uintptr(n) : off+uintptr(n)]
	adviseHuge(unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), size))
	return b
}

// Bytes returns the memory used by the entries.
func (t *Table) Bytes() int { return len(t.buckets) * 64 }

// Clear forgets every entry.
func (t *Table) Clear() {
	clear(t.buckets)
	t.gen.Store(0)
}

// NewSearch ages the entries already stored, so that they are replaced in
// preference to the ones a new search writes.
func (t *Table) NewSearch() { t.gen.Add(1) }

// Key returns the hash key of a position (side to move's discs p, the
// other side's o): the position's hash, bitboard.Hash. It is the
// verification key stored in the table and its low bits choose the bucket.
func Key(p, o uint64) uint64 { return bitboard.Hash(p, o) }

func decode(d uint64) Entry {
	return Entry{
		Lower:  int8(uint8(d>>shLower) - 64),
		Upper:  int8(uint8(d>>shUpper) - 64),
		Depth:  uint8(d >> shDepth),
		Move:   uint8(d >> shMove),
		Proven: d&proven != 0,
	}
}

func encode(e Entry, gen uint32) uint64 {
	d := uint64(uint8(e.Lower+64))<<shLower | uint64(uint8(e.Upper+64))<<shUpper |
		uint64(e.Depth)<<shDepth | uint64(e.Move)<<shMove | uint64(uint8(gen))<<shGen | validBit
	if e.Proven {
		d |= proven
	}
	return d
}

// Probe looks up the position with key k.
func (t *Table) Probe(k uint64) (Entry, bool) {
	b := &t.buckets[k&t.mask]
	for i := range b {
		s := &b[i]
		d := load(&s.data)
		if load(&s.key)^d == k && d&validBit != 0 {
			return decode(d), true
		}
	}
	return Entry{}, false
}

// Prefetch starts bringing the bucket of k into the cache, without waiting
// for it, so that a Probe or Store soon after finds it there.
func (t *Table) Prefetch(k uint64) { prefetch(uintptr(unsafe.Pointer(&t.buckets[k&t.mask]))) }

// worth ranks an entry for replacement: entries of older searches first,
// then shallower ones (a heuristic entry's depth counted in plies).
func worth(d uint64, gen uint32) int {
	w := int(uint8(d >> shDepth))
	if d&proven == 0 {
		w /= DepthUnit
	}
	if uint8(d>>shGen) == uint8(gen) {
		w += 256
	}
	if d&proven != 0 {
		w += 2 // a proven result at the same depth is worth a little more
	}
	return w
}

// Store records e for the position with key k. If the position is already
// stored, the entry is replaced unless the stored one is deeper (then only
// a missing best move is filled in); at equal depth and kind the bounds are
// intersected, keeping what both searches proved. Otherwise the least
// valuable slot of the bucket is replaced.
func (t *Table) Store(k uint64, e Entry) {
	gen := t.gen.Load()
	b := &t.buckets[k&t.mask]
	victim := 0
	vw := 1 << 30
	for i := range b {
		s := &b[i]
		d := load(&s.data)
		if load(&s.key)^d == k && d&validBit != 0 {
			old := decode(d)
			if old.Proven == e.Proven && old.Depth == e.Depth {
				m := e
				m.Lower = max(m.Lower, old.Lower)
				m.Upper = min(m.Upper, old.Upper)
				if m.Lower <= m.Upper { // else one was heuristic and stale: keep the new one
					e = m
				}
			} else if (old.Proven && !e.Proven) || (old.Proven == e.Proven && old.Depth > e.Depth) {
				if old.Move == NoMove && e.Move != NoMove {
					old.Move = e.Move
					t.write(s, k, encode(old, gen))
				}
				return
			}
			if e.Move == NoMove {
				e.Move = old.Move
			}
			t.write(s, k, encode(e, gen))
			return
		}
		if w := worth(d, gen); w < vw {
			victim, vw = i, w
		}
	}
	t.write(&b[victim], k, encode(e, gen))
}

func (t *Table) write(s *slot, k, d uint64) {
	store(&s.key, k^d)
	store(&s.data, d)
}
