//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// running reports whether process pid exists; known is false when the
// system would not say.
func running(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM):
		return true, true
	case errors.Is(err, syscall.ESRCH):
		return false, true
	}
	return false, false
}
