//go:build exptune

// Tuning knobs read from the environment, for experiments only
// (go build -tags exptune); normal builds use the constants of tune.go.
package search

import (
	"fmt"
	"os"
	"strconv"
)

func envInt(k string, d int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
		return v
	}
	return d
}

var (
	xEvalMin    = envInt("X_EVALMIN", 12)
	xEvalSh     = envInt("X_EVALSH", 3)
	xParity     = envInt("X_PARITY", 4)
	xTTMin      = envInt("X_TTMIN", 8)
	xETCMin     = envInt("X_ETCMIN", 12)
	xSortMin    = envInt("X_SORTMIN", 16)
	xSortD      = envInt("X_SORTD", 2)
	xSortStep   = envInt("X_SORTSTEP", 4)
	xMobSh      = envInt("X_MOBSH", 4)
	xPotW       = envInt("X_POTW", 1)
	xCornW      = envInt("X_CORNW", 0)
	xAspGrow    = envInt("X_ASPGROW", 2)
	xMidSortMin = envInt("X_MIDSORTMIN", 99)
	xMidSortDiv = envInt("X_MIDSORTDIV", 4)
	xMidEvalMin = envInt("X_MIDEVALMIN", 3)
	xPreOff     = envInt("X_PREOFF", 14)
	xPreMax     = envInt("X_PREMAX", 8)
	xAspW       = envInt("X_ASPW", 4)
)

func debugf(f string, a ...any) {
	if os.Getenv("X_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, f, a...)
	}
}
