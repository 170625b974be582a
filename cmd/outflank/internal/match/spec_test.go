package match

import (
	"reflect"

	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

func TestParseSpec(t *testing.T) {
	good := []struct {
		in   string
		want Spec
		argv []string
	}{
		{"self", Spec{Self: true}, []string{"BIN", "nboard"}},
		{"self:depth=8", Spec{Self: true, Depth: 8}, []string{"BIN", "nboard"}},
		{"self:time=1s,eval=w.bin", Spec{Self: true, Time: time.Second, Flags: []string{"--eval=w.bin"}},
			[]string{"BIN", "nboard", "--eval=w.bin"}},
		{"self: depth = 4 , hash=64,threads=1,nobook,name=small", Spec{Self: true, Depth: 4, Name: "small",
			Flags: []string{"--hash=64", "--threads=1", "--nobook"}}, []string{"BIN", "nboard", "--hash=64", "--threads=1", "--nobook"}},
		{"self:time=0.25", Spec{Self: true, Time: 250 * time.Millisecond}, []string{"BIN", "nboard"}},
		{"self:clock=1m", Spec{Self: true, Clock: time.Minute}, []string{"BIN", "nboard"}},
		{"nboard:edax -q", Spec{Command: []string{"edax", "-q"}}, []string{"edax", "-q"}},
		{"nboard,depth=12,dir=/opt/edax,name=edax:./edax 'a b' \"c \\\" d\" e\\ f",
			Spec{Depth: 12, Dir: "/opt/edax", Name: "edax", Command: []string{"./edax", "a b", "c \" d", "e f"}},
			[]string{"./edax", "a b", "c \" d", "e f"}},
	}
	for _, c := range good {
		got, err := ParseSpec(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		c.want.Text = c.in
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: got %+v, want %+v", c.in, got, c.want)
		}
		if argv := got.Argv("BIN"); !reflect.DeepEqual(argv, c.argv) {
			t.Errorf("%q: argv %q, want %q", c.in, argv, c.argv)
		}
	}
	bad := map[string]string{
		"":                      "want self",
		"edax":                  "want self",
		"self,depth=3":          "after the colon",
		"nboard:":               "no command",
		"nboard:  ":             "no command",
		"nboard:edax 'x":        "unclosed '",
		"nboard:edax \"x":       "unclosed \"",
		"self:depth=0":          "from 1 to 60",
		"self:depth=61":         "from 1 to 60",
		"self:depth=x":          "from 1 to 60",
		"self:time=-1s":         "positive",
		"self:time=fast":        "positive",
		"self:name=a b":         "one word",
		"self:=3":               "KEY=VALUE",
		"nboard,eval=x:edax":    "unknown option",
		"nboard,dir=:edax":      "needs a directory",
		"nboard,depth=99:edax":  "from 1 to 60",
		"self:time=0":           "positive",
		"self:name=x]":          "brackets",
		"nboard,time=1h,x:edax": "unknown option",
		"self:clock=1m,time=1s": "goes alone",
		"self:clock=0":          "positive",
	}
	for in, want := range bad {
		_, err := ParseSpec(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want one containing %q", in, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error spans lines: %q", in, err)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"self", "self:depth=8,time=1s", "nboard,depth=3:a 'b c' \"d\\\"\" e\\ f", "nboard:x", "self:=,", "nboard,:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s)
		if err != nil {
			return
		}
		if !sp.Self && len(sp.Command) == 0 {
			t.Fatalf("%q: external engine without a command", s)
		}
		if sp.Depth < 0 || sp.Depth > 60 || sp.Time < 0 {
			t.Fatalf("%q: limits out of range: %+v", s, sp)
		}
		_ = sp.Argv("x")
		_ = sp.Label()
	})
}

func TestParseAnswer(t *testing.T) {
	for in, want := range map[string]string{
		"F5":              "F5",
		"f5/-1.00/0.5":    "F5/-1.00/0.50",
		"D6//2.449":       "D6//2.45",
		"F5 -1.00 0.5":    "F5/-1.00",
		"  C4   3.5  ":    "C4/3.50",
		"PA":              "PA",
		"E3/1.00/0.2 xyz": "E3/1.00/0.20",
	} {
		m, err := parseAnswer(in)
		if err != nil || m.String() != want {
			t.Errorf("%q: %v %v; want %s", in, m, err, want)
		}
	}
	for _, in := range []string{"", "  ", "Z9", "F5/x", "F5/1/2/3"} {
		if _, err := parseAnswer(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"F5", "f5/-1.00/0.5", "F5 -1.00 0.5", "PA", "", "Z9 x", "F5//", "a1/1e309"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := parseAnswer(s)
		if err == nil && m.Square != bitboard.PassMove && !m.Square.IsBoard() {
			t.Fatalf("%q: square %d", s, m.Square)
		}
	})
}
