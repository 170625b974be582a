package bitboard

import (
	"errors"
	"strings"
	"testing"
)

func TestLinesBOMAndLimit(t *testing.T) {
	start := "---------------------------OX------XO--------------------------- X"
	es, err := ReadOBF(strings.NewReader("\uFEFF" + start + "\n" + start + "\n"))
	if err != nil || len(es) != 2 || es[1].Line != 2 {
		t.Fatalf("OBF with a byte order mark: %d entries, %v", len(es), err)
	}
	// A mark is only dropped before the first line.
	if _, err := ReadOBF(strings.NewReader(start + "\n\uFEFF" + start + "\n")); err == nil || !strings.HasPrefix(err.Error(), "line 2: ") {
		t.Errorf("a mark on line 2: %v", err)
	}
	_, err = ReadOBF(strings.NewReader(start + "\n" + strings.Repeat("-", MaxLine+1) + "\n"))
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || !strings.Contains(err.Error(), "1048576 bytes") {
		t.Errorf("an over-long line: %v", err)
	}
	if got := InFile("f.obf", err).Error(); !strings.HasPrefix(got, "f.obf line 2: longer than") {
		t.Errorf("InFile: %q", got)
	}
	if got := InFile("f.obf", errors.New("no positions")).Error(); got != "f.obf: no positions" {
		t.Errorf("InFile of another error: %q", got)
	}
}
