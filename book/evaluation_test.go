package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// named is standIn reporting evaluation name, at depth d.
func named(name string, d int) Valuer {
	return ValuerFunc(func(ctx context.Context, p bitboard.Position) (Valuation, error) {
		v, err := standIn.Value(ctx, p)
		if !v.Exact {
			v.Depth = d
		}
		v.Evaluation = name
		return v, err
	})
}

// leafEvals counts b's inexact leaf moves by evaluation, as Moves shows
// them.
func leafEvals(b *Book) map[string]int {
	n := map[string]int{}
	for k := range b.all() {
		for _, m := range b.Moves(k.position()) {
			if !m.InBook && !m.Exact {
				n[m.Evaluation]++
			}
		}
	}
	return n
}

// TestEvaluationsRecorded checks that every value a search gives the book
// names the valuer's evaluation, that a negamaxed value names its leaf's,
// and that the names survive the file, the text form and a merge that
// numbers them differently.
func TestEvaluationsRecorded(t *testing.T) {
	b := New()
	if _, err := b.Grow(context.Background(), named("eval A", 4), GrowOptions{Window: 3, PathWindow: 5, MaxPly: 4, Positions: 12}); err != nil {
		t.Fatal(err)
	}
	st := b.Stats()
	if st.Evaluations["eval A"] != st.Leaves-st.Exact || len(st.Evaluations) != 1 {
		t.Fatalf("leaves %d (%d exact), by evaluation %v", st.Leaves, st.Exact, st.Evaluations)
	}
	for _, m := range b.Moves(bitboard.Start()) {
		if m.InBook && !m.Exact && m.Evaluation != "eval A" {
			t.Errorf("negamaxed %v names evaluation %q", m, m.Evaluation)
		}
	}

	// A second book valued by two evaluations, B first: merged, b lists
	// them as A, B, its records renumbered.
	o := New()
	if _, err := o.Grow(context.Background(), named("eval B", 6), GrowOptions{Window: 3, PathWindow: 5, MaxPly: 5, Positions: 20}); err != nil {
		t.Fatal(err)
	}
	if _, err := o.Revalue(context.Background(), named("eval A", 8), RevalueOptions{MinDepth: 8, MaxPly: 2}, nil); err != nil {
		t.Fatal(err)
	}
	if len(o.evals) != 2 || o.evals[0] != "eval B" {
		t.Fatalf("evaluations %q", o.evals)
	}
	want := leafEvals(o)
	b.Merge(o)
	if b.evals[0] != "eval A" || b.evals[1] != "eval B" {
		t.Fatalf("merged evaluations %q", b.evals)
	}
	for k, rs := range o.all() {
		bs, _ := b.node(k)
		for _, r := range rs {
			for _, m := range bs {
				if m.sq == r.sq && m.depth == r.depth && m.value == r.value && b.evalName(m) != o.evalName(r) {
					t.Fatalf("merged move %s: evaluation %q, was %q", bitboard.Square(r.sq), b.evalName(m), o.evalName(r))
				}
			}
		}
	}
	if want["eval A"] == 0 || want["eval B"] == 0 {
		t.Fatalf("the second book's leaves by evaluation: %v", want)
	}

	r := readBack(t, b)
	if exportString(t, r) != exportString(t, b) || !strings.Contains(exportString(t, b), "~2") {
		t.Error("evaluations changed through Write/Read (or none exported)")
	}
	text := exportString(t, b)
	i, err := Import(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if exportString(t, i) != text {
		t.Error("evaluations changed through Export/Import")
	}
	for _, bad := range []string{"#evaluation 2 x\n", "#evaluation 1 \n", "#evaluation 1 x\n#evaluation 2 x\n", "#evaluation one x\n"} {
		if _, err := Import(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "evaluation") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	// A move naming an evaluation the book does not list is refused.
	if _, err := Import(strings.NewReader(strings.Replace(text, "~2", "~3", 1))); err == nil {
		t.Error("a move naming evaluation 3 of 2 accepted")
	}
}

// TestRevalueFindsOtherEvaluations checks that a revaluation with an
// evaluation searches again every inexact leaf another one valued, however
// deep, and none of its own, and that it resumes as a no-op.
func TestRevalueFindsOtherEvaluations(t *testing.T) {
	b := New()
	if _, err := b.Grow(context.Background(), named("old", 20), GrowOptions{Window: 3, PathWindow: 5, MaxPly: 4, Positions: 12}); err != nil {
		t.Fatal(err)
	}
	// Depth only: nothing is below depth 10.
	if st, err := b.Revalue(context.Background(), named("new", 12), RevalueOptions{MinDepth: 10}, nil); err != nil || st.Searches != 0 {
		t.Fatalf("revalue by depth: %+v %v", st, err)
	}
	n := b.Stats().Evaluations["old"]
	st, err := b.Revalue(context.Background(), named("new", 12), RevalueOptions{MinDepth: 10, Evaluation: "new"}, nil)
	if err != nil || st.Searches != n {
		t.Fatalf("revalue by evaluation: %+v %v, want %d searches", st, err, n)
	}
	if ev := leafEvals(b); ev["new"] != n || len(ev) != 1 {
		t.Fatalf("after revaluing: %v", ev)
	}
	if st, _ := b.Revalue(context.Background(), named("new", 12), RevalueOptions{MinDepth: 10, Evaluation: "new"}, nil); st.Searches != 0 {
		t.Errorf("a second revalue searched %d times", st.Searches)
	}
}

// TestVersion2Book checks that a book file of version 2 (no evaluations)
// still reads, every value unrecorded, that Adopt names them, and that a
// version 3 file naming an evaluation it does not list is refused.
func TestVersion2Book(t *testing.T) {
	b := grown(t)
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	// Version 3 with no evaluations is version 2 with a zero count after
	// the info.
	d := buf.Bytes()
	at := len(magic) + 12 + len(b.Info)
	if d[at] != 0 {
		t.Fatalf("the stand-in named %d evaluations", d[at])
	}
	v2 := append(bytes.Clone(d[:at]), d[at+1:len(d)-4]...)
	binary.LittleEndian.PutUint16(v2[len(magic):], versionV2)
	v2 = binary.LittleEndian.AppendUint32(v2, crc32.ChecksumIEEE(v2))
	r, err := Read(v2)
	if err != nil {
		t.Fatal(err)
	}
	if exportString(t, r) != exportString(t, b) {
		t.Error("the version 2 file reads differently")
	}
	leaves, err := r.Adopt("today's")
	if ev := leafEvals(r); err != nil || leaves != ev["today's"] || len(ev) != 1 || leaves == 0 {
		t.Fatalf("adopt: %d leaves, %v; by evaluation %v", leaves, err, ev)
	}
	if n, _ := r.Adopt("another"); n != 0 {
		t.Errorf("a second adopt named %d leaves", n)
	}

	// A record naming evaluation 1 of none: refused even with its checksum
	// made right.
	bad := bytes.Clone(d)
	bad[at+1+17+4] |= 1 << evalShift // the flags of the first position's first move
	binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.ChecksumIEEE(bad[:len(bad)-4]))
	if _, err := Read(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a move naming an unlisted evaluation: %v", err)
	}
}
