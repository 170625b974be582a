//go:build !unix

package cli

// CPUTime is not measured on this system; the CPU columns read 0.
func CPUTime() float64 { return 0 }
