package book

import (
	"strings"
	"testing"
)

// A move that is not legal is named by its square, a1 included (it was
// "move 0").
func TestImportNamesSquare(t *testing.T) {
	line := "---------------------------OX------XO--------------------------- X a1:+0@4/100\n"
	_, err := Import(strings.NewReader(line))
	if err == nil || err.Error() != "line 1: move a1 is not legal" {
		t.Errorf("err %v", err)
	}
}
