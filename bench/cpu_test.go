package bench

import "testing"

// TestPGOName: the machine line names the profile as the module does, never
// by the build machine's folders.
func TestPGOName(t *testing.T) {
	for in, want := range map[string]string{
		"/home/someone/src/outflank/cmd/outflank/default.pgo": "cmd/outflank/default.pgo",
		"/tmp/x/profile.pgo": "profile.pgo",
		"default.pgo":        "default.pgo",
	} {
		if got := pgoName(in); got != want {
			t.Errorf("pgoName(%q) = %q, want %q", in, got, want)
		}
	}
}
