//go:build !linux

package tt

func adviseHuge([]byte) {}
