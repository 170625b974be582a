package textio

import (
	"strings"
	"testing"
)

func collect(in string) []Line {
	var out []Line
	for l := range ReadLines(strings.NewReader(in), nil) {
		out = append(out, l)
	}
	return out
}

func TestReadLines(t *testing.T) {
	got := collect("a b\r\n\nlast")
	want := []string{"a b", "", "last"}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i].Text != want[i] || got[i].TooLong {
			t.Errorf("line %d: %+v, want %q", i, got[i], want[i])
		}
	}
}

func TestReadLinesTooLong(t *testing.T) {
	long := strings.Repeat("x", MaxLine+10)
	got := collect(long + "\nping 1\n")
	if len(got) != 2 || !got[0].TooLong || len(got[0].Text) > 100 || got[1].Text != "ping 1" {
		t.Fatalf("got %d lines, first too long %v", len(got), len(got) > 0 && got[0].TooLong)
	}
}

func TestReporterClose(t *testing.T) {
	var b strings.Builder
	o := NewOut(&b, &b)
	r := o.Reporter()
	r.Printf("search %d", 1)
	r.Close()
	r.Println("late")
	o.Errorf("error: %s", "x")
	o.Prompt("> ")
	if b.String() != "search 1\nerror: x\n> " {
		t.Errorf("got %q", b.String())
	}
}

func TestWrap(t *testing.T) {
	got := Wrap("the quick brown fox jumps over a lazy dog; supercalifragilistic", 12)
	want := []string{"the quick", "brown fox", "jumps over a", "lazy dog;", "supercalifragilistic"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Wrap = %q, want %q", got, want)
	}
}
