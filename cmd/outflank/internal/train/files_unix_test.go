//go:build unix

package train

import (
	"strings"
	"testing"
)

// TestReadersRefuseDevices: the checkpoint, keyed-file and GGF readers
// refuse /dev/zero at once (a checkpoint read from it once grew to 2.5 GB
// in 10 s).
func TestReadersRefuseDevices(t *testing.T) {
	check := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s of /dev/zero: %v", what, err)
		}
	}
	check("checkpoint", loadCheckpoint("/dev/zero", Config{}, &state{}))
	_, _, err := keyedFile{what: "samples"}.load("/dev/zero", "key")
	check("keyed file", err)
	_, _, err = ReadFinishedGGF("/dev/zero", func(error) {}, nil)
	check("GGF", err)
}
