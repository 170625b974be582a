package search

import (
	"testing"

	"github.com/outflank-othello/outflank/tt"
)

// TestTTDepthUnit: the midgame's packed depth (ttDepth) is depth·tt.DepthUnit
// plus a rank below tt.DepthUnit, as the table's replacement assumes when it
// weighs a midgame entry against an endgame one.
func TestTTDepthUnit(t *testing.T) {
	for d := 0; d <= 41; d++ {
		for sel := range selectivityLevels {
			if got := int(ttDepth(d, sel)) / tt.DepthUnit; got != d {
				t.Fatalf("ttDepth(%d, %d) = %d: %d plies by tt.DepthUnit, want %d", d, sel, ttDepth(d, sel), got, d)
			}
		}
	}
}
