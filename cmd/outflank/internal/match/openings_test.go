package match

import (
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

func TestXOT(t *testing.T) {
	ops := XOT()
	if len(ops) != 10784 {
		t.Fatalf("%d XOT openings; want 10784", len(ops))
	}
	for _, o := range ops {
		if len(o.Moves) != 8 || o.Position().Empties() != 52 {
			t.Fatalf("opening %s: %d moves, %d empties; want 8 moves, 52 empties", o.Name, len(o.Moves), o.Position().Empties())
		}
	}
	if ops[0].Name != "f5d6c4d3c2b3b4b5" {
		t.Errorf("first opening %q", ops[0].Name)
	}
}

func TestReadOpenings(t *testing.T) {
	ops, err := ReadOpenings(strings.NewReader("# comment\n\nf5 d6 c3\r\n% another\nF5-F6-E6-F4\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Name != "f5d6c3" || ops[1].Name != "f5f6e6f4" {
		t.Fatalf("openings %+v", ops)
	}
	if p := ops[0].Position(); p.ToMove != bitboard.White || p.Empties() != 57 {
		t.Errorf("after f5d6c3: %s", p)
	}
	for in, want := range map[string]string{
		"f5d6\nf5f5\n": "line 2: move 2 (f5) illegal",
		"f5d6\nz9\n":   "line 2: move 1",
		"\n# none\n":   "no opening found",
	} {
		_, err := ReadOpenings(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want %q", in, err, want)
		}
	}
}

func TestReadStartPositions(t *testing.T) {
	obf := "% two positions\n" + bitboard.Start().String() + "\n" +
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;\n"
	ops, err := ReadStartPositions(strings.NewReader(obf))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0].Start != bitboard.Start() || ops[1].Name != "obf line 3" || ops[1].Start.Empties() != 14 {
		t.Fatalf("positions %+v", ops)
	}
	over := strings.Repeat("X", 64) + " O\n"
	if _, err := ReadStartPositions(strings.NewReader(over)); err == nil || !strings.Contains(err.Error(), "line 1: the game is already over") {
		t.Errorf("finished game: error %v", err)
	}
}

func FuzzReadOpenings(f *testing.F) {
	for _, s := range []string{"f5d6c4d3c2b3b4b5\n", "# x\nf5 f6\n", "f5-d6--", "pass", "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3h5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ops, err := ReadOpenings(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, o := range ops {
			if _, _, err := bitboard.Replay(o.Start, o.Moves); err != nil {
				t.Fatalf("%q: opening %s does not replay: %v", s, o.Name, err)
			}
			if o.Position().GameOver() {
				t.Fatalf("%q: opening %s ends the game", s, o.Name)
			}
		}
	})
}
