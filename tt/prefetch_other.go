//go:build !amd64

package tt

func prefetch(uintptr) {}
