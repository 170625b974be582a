//go:build windows

package atomicfile

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

var lockFileEx = syscall.NewLazyDLL("kernel32.dll").NewProc("LockFileEx")

const (
	lockfileFailImmediately = 0x1
	lockfileExclusiveLock   = 0x2
	errorLockViolation      = syscall.Errno(33)
)

// lock locks the first byte of f, which the kernel releases when f is
// closed or the process ends.
func lock(f *os.File, flags uintptr) error {
	var ov syscall.Overlapped
	r, _, err := lockFileEx.Call(f.Fd(), flags, 0, 1, 0, uintptr(unsafe.Pointer(&ov)))
	if r != 0 {
		return nil
	}
	return err
}

// tryLock takes f's exclusive lock if it is free; busy says another
// process holds it.
func tryLock(f *os.File) (busy bool, err error) {
	err = lock(f, lockfileExclusiveLock|lockfileFailImmediately)
	if errors.Is(err, errorLockViolation) {
		return true, nil
	}
	return false, err
}

// waitLock waits for f's exclusive lock.
func waitLock(f *os.File) error { return lock(f, lockfileExclusiveLock) }
