//go:build unix

package train

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
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

// TestCheckpointLocked: a second fit on a checkpoint that a fit is using
// fails at once, naming it, instead of saving over the first one's epochs.
func TestCheckpointLocked(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "fit.ck")
	unlock, err := atomicfile.Lock(ck, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	_, _, err = Fit(nil, Config{Checkpoint: ck, Epochs: 1})
	if err == nil || !strings.Contains(err.Error(), "fit.ck is being updated by another process") {
		t.Errorf("a second fit on a checkpoint in use: %v", err)
	}
}
