//go:build unix

package selfplay

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lock takes an exclusive advisory lock on f, so that two runs (say, a
// requeued job beside its still-running first try) never append to one
// file. The kernel drops it when the process ends, however it ends.
func lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return fmt.Errorf("%s is being written by another run", f.Name())
	}
	return err
}
