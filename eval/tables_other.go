//go:build !linux

package eval

func adviseHuge([]byte) {}
