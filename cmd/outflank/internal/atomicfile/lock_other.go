//go:build !unix && !windows

package atomicfile

import (
	"errors"
	"os"
)

// Without file locks (Plan 9, the browser) the lock is not taken: a second
// writer is not stopped there.
func tryLock(*os.File) (busy bool, err error) { return false, nil }

func waitLock(*os.File) error { return errors.New("file locks are not supported on this system") }
