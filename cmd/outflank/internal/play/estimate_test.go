package play

import "testing"

// TestRoughYears: long solve estimates read as numbers a person says
// ("360 years"), not as "3.6e+02 years".
func TestRoughYears(t *testing.T) {
	for y, want := range map[float64]string{2: "2.0 years", 2.46: "2.5 years", 36.4: "36 years", 360: "360 years", 3640: "3600 years", 4.5e6: "4.5 million years", 2.2e13: "22 trillion years", 7.77e10: "78 billion years"} {
		if got := roughYears(y); got != want {
			t.Errorf("%g years: %q, want %q", y, got, want)
		}
	}
	if got := roughDuration(360 * 365 * 86400); got != "360 years" {
		t.Errorf("roughDuration: %q", got)
	}
}
