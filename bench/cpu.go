// Package bench holds Outflank's whole-engine benchmarks (perft, the FFO
// endgame suite) and the machine description that every speed figure is
// printed with, so that numbers from different machines are not confused.
package bench

import (
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// CPULine describes the machine and the build in one line: the CPU brand,
// logical cores, the instruction-set features that matter to the engine,
// the GOAMD64 level the binary was built for, and whether PGO was used.
func CPULine() string {
	c := cpuid.CPU
	var feats []string
	for _, f := range []struct {
		id   cpuid.FeatureID
		name string
	}{
		{cpuid.POPCNT, "POPCNT"}, {cpuid.BMI1, "BMI1"}, {cpuid.BMI2, "BMI2"},
		{cpuid.AVX2, "AVX2"}, {cpuid.AVX512F, "AVX512F"}, {cpuid.AVX512VL, "AVX512VL"},
	} {
		if c.Supports(f.id) {
			feats = append(feats, f.name)
		}
	}
	level := "GOAMD64=" + buildSetting("GOAMD64", "v1")
	if runtime.GOARCH != "amd64" {
		level = "GOARCH=" + runtime.GOARCH
	}
	pgo := "no PGO"
	if v := buildSetting("-pgo", ""); v != "" {
		pgo = "PGO " + pgoName(v)
	}
	return fmt.Sprintf("cpu: %s, %d logical cores, features %s, amd64 level v%d; build %s, %s, %s",
		strings.TrimSpace(c.BrandName), runtime.NumCPU(), strings.Join(feats, " "), c.X64Level(),
		runtime.Version(), level, pgo)
}

// pgoName is the profile's path as the module names it (the go command
// records the absolute path, which names the build machine's folders):
// from the module's cmd/ folder on, else the file's name.
func pgoName(path string) string {
	path = filepath.ToSlash(path)
	if i := strings.LastIndex(path, "/cmd/"); i >= 0 {
		return path[i+1:]
	}
	return filepath.Base(path)
}

// buildSetting reads a setting recorded in the binary by the go command.
func buildSetting(key, def string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == key {
				return s.Value
			}
		}
	}
	return def
}
