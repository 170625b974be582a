//go:build !unix

package main

// cpuTime is not measured on this system; the CPU columns read 0.
func cpuTime() float64 { return 0 }
