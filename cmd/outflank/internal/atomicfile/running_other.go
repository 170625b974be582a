//go:build !unix

package atomicfile

// running cannot tell here; stale temporaries are then judged by age.
func running(pid int) (alive, known bool) { return false, false }
