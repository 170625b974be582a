package tt

import (
	"math/rand/v2"
	"sync"
	"testing"
	"unsafe"
)

func TestStoreProbe(t *testing.T) {
	tb := New(1)
	if tb.Bytes() != 1<<20 {
		t.Fatalf("1 MiB table has %d bytes", tb.Bytes())
	}
	k := Key(0x0000000810000000, 0x0000001008000000)
	if _, ok := tb.Probe(k); ok {
		t.Fatal("empty table found an entry")
	}
	e := Entry{Lower: -12, Upper: 30, Depth: 7, Move: 19}
	tb.Store(k, e)
	got, ok := tb.Probe(k)
	if !ok || got != e {
		t.Fatalf("probe = %+v %v, want %+v", got, ok, e)
	}
	// Same depth: bounds intersect, move kept when the new one has none.
	tb.Store(k, Entry{Lower: -4, Upper: 64, Depth: 7, Move: NoMove})
	got, _ = tb.Probe(k)
	if want := (Entry{Lower: -4, Upper: 30, Depth: 7, Move: 19}); got != want {
		t.Fatalf("after merge %+v, want %+v", got, want)
	}
	// Shallower: ignored.
	tb.Store(k, Entry{Lower: 0, Upper: 0, Depth: 3, Move: 1})
	if got2, _ := tb.Probe(k); got2 != got {
		t.Fatalf("shallower store replaced %+v by %+v", got, got2)
	}
	// Proven replaces heuristic, heuristic never replaces proven.
	pe := Entry{Lower: 6, Upper: 6, Depth: 2, Move: 5, Proven: true}
	tb.Store(k, pe)
	tb.Store(k, Entry{Lower: -64, Upper: 64, Depth: 40, Move: 1})
	if got, _ := tb.Probe(k); got != pe {
		t.Fatalf("proven entry became %+v", got)
	}
	// Extreme values round-trip.
	k2 := Key(1, 2)
	ex := Entry{Lower: -64, Upper: 64, Depth: 60, Move: 63, Proven: true}
	tb.Store(k2, ex)
	if got, _ := tb.Probe(k2); got != ex {
		t.Fatalf("extremes: %+v, want %+v", got, ex)
	}
	tb.Clear()
	if _, ok := tb.Probe(k2); ok {
		t.Fatal("entry survived Clear")
	}
}

func TestReplacementKeepsBucketFull(t *testing.T) {
	tb := New(0) // one bucket: every key collides
	for i := range 100 {
		tb.Store(Key(uint64(i), 0), Entry{Depth: uint8(i % 10), Move: NoMove})
	}
	found := 0
	for i := range 100 {
		if _, ok := tb.Probe(Key(uint64(i), 0)); ok {
			found++
		}
	}
	if found != BucketSlots {
		t.Fatalf("found %d entries in a one-bucket table, want %d", found, BucketSlots)
	}
}

// TestConcurrent hammers a small table from several goroutines; every entry
// encodes its own key, so a torn read shows as a mismatch. Run with -race.
func TestConcurrent(t *testing.T) {
	tb := New(0)
	tb.buckets = make([]bucket, 16)
	tb.mask = 15
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 7))
			for range 20000 {
				i := r.Uint64N(200)
				k := Key(i, i*3)
				want := int8(i % 64)
				if r.IntN(2) == 0 {
					tb.Store(k, Entry{Lower: want, Upper: want, Depth: uint8(r.IntN(20)), Move: uint8(i % 64)})
				} else if e, ok := tb.Probe(k); ok && (e.Lower != want || e.Upper != want || e.Move != uint8(i%64)) {
					select {
					case errs <- "torn entry":
					default:
					}
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func TestLargeTableAligned(t *testing.T) {
	tb := New(4)
	if tb.Bytes() != 4<<20 {
		t.Fatalf("4 MiB table has %d bytes", tb.Bytes())
	}
	if a := uintptr(unsafe.Pointer(&tb.buckets[0])); a%hugePage != 0 {
		t.Fatalf("table at %#x is not aligned to %d", a, hugePage)
	}
	for i := range uint64(1000) {
		tb.Store(Key(i, ^i), Entry{Lower: 2, Upper: 4, Depth: 9, Move: uint8(i % 64)})
	}
	for i := range uint64(1000) {
		if e, ok := tb.Probe(Key(i, ^i)); ok && e.Move != uint8(i%64) {
			t.Fatalf("entry %d: %+v", i, e)
		}
	}
}

// TestReplacementHeuristicInPlies: a heuristic entry's depth counts in plies
// (Depth / DepthUnit) against a proven entry's empties, so an entry proven
// at 8 empties replaces a shallow midgame entry (depth 3, surest: Depth
// 3·DepthUnit+5), not an entry proven at 20 empties.
func TestReplacementHeuristicInPlies(t *testing.T) {
	tb := New(0) // one bucket: every key collides
	tb.Store(1, Entry{Lower: -64, Upper: 64, Depth: 3*DepthUnit + DepthUnit - 1, Move: NoMove})
	for i := 2; i <= BucketSlots; i++ {
		tb.Store(uint64(i), Entry{Lower: 2, Upper: 2, Depth: 20, Move: NoMove, Proven: true})
	}
	tb.Store(100, Entry{Lower: 0, Upper: 0, Depth: 8, Move: NoMove, Proven: true})
	if _, ok := tb.Probe(1); ok {
		t.Errorf("the depth-3 midgame entry survived, an entry proven at 20 empties did not")
	}
	for i := 2; i <= BucketSlots; i++ {
		if _, ok := tb.Probe(uint64(i)); !ok {
			t.Errorf("an entry proven at 20 empties was replaced, the depth-3 midgame entry kept")
		}
	}
	if _, ok := tb.Probe(100); !ok {
		t.Errorf("the new entry was not stored")
	}
}
