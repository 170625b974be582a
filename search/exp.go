//go:build exptune

// Tuning knobs read from the environment, for experiments only
// (go build -tags exptune): OUTFLANK_<name> overrides the default. Normal
// builds use the constants of tune.go; TestTuneKnobsAgree checks that this
// list has the same names and defaults.
package search

import (
	"fmt"
	"os"
	"strconv"
)

func knob(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv("OUTFLANK_" + name)); err == nil {
		return v
	}
	return def
}

var (
	endShallowMaxEmpties     = knob("endShallowMaxEmpties", 6)
	endShallowIsolatedFirst  = knob("endShallowIsolatedFirst", 1)
	endTTMinEmpties          = knob("endTTMinEmpties", 7)
	endLocalMaxEmpties       = knob("endLocalMaxEmpties", 11)
	endQuickReplies          = knob("endQuickReplies", 1)
	endTTMoveFirstMinEmpties = knob("endTTMoveFirstMinEmpties", 8)
	endETCMinEmpties         = knob("endETCMinEmpties", 12)
	endETCSkipFailLow        = knob("endETCSkipFailLow", 1)
	endPrefetch              = knob("endPrefetch", 1)
	endTTHeuristicMoveDepth  = knob("endTTHeuristicMoveDepth", 10)
	endEvalOrderMinEmpties   = knob("endEvalOrderMinEmpties", 13)
	endSearchOrderMinEmpties = knob("endSearchOrderMinEmpties", 18)
	endSearchOrderDepth      = knob("endSearchOrderDepth", 2)
	endSearchOrderStep       = knob("endSearchOrderStep", 3)
	endSearchOrderWindow     = knob("endSearchOrderWindow", 0)
	endSearchTopK            = knob("endSearchTopK", 6)
	endSearchTopKMaxEmpties  = knob("endSearchTopKMaxEmpties", 20)

	endOrderEvalWeight           = knob("endOrderEvalWeight", 8)
	endOrderSearchWeight         = knob("endOrderSearchWeight", 8)
	endOrderMobilityWeight       = knob("endOrderMobilityWeight", 16)
	endOrderCornerMobilityWeight = knob("endOrderCornerMobilityWeight", 16)
	endOrderPotentialWeight      = knob("endOrderPotentialWeight", 1)
	endOrderCornerWeight         = knob("endOrderCornerWeight", 0)
	endOrderParityBonus          = knob("endOrderParityBonus", 4)
	endOrderWipeoutWeight        = knob("endOrderWipeoutWeight", 4)
	endOrderCornerMoveBonus      = knob("endOrderCornerMoveBonus", 8)
	endOrderXMovePenalty         = knob("endOrderXMovePenalty", 4)

	solvePresearchOffset     = knob("solvePresearchOffset", 10)
	solvePresearchMaxDepth   = knob("solvePresearchMaxDepth", 12)
	solveSelectivePercent    = knob("solveSelectivePercent", 87)
	solveSelectiveMinEmpties = knob("solveSelectiveMinEmpties", 22)
	solveSelectiveMaxScore   = knob("solveSelectiveMaxScore", 40)
	solveAspirationWidth     = knob("solveAspirationWidth", 4)
	solveAspirationGrowth    = knob("solveAspirationGrowth", 2)

	clockSolveEmpties        = knob("clockSolveEmpties", 20)
	clockSolvedMovePercent   = knob("clockSolvedMovePercent", 25)
	timeIterationFitPercent  = knob("timeIterationFitPercent", 40)
	timeCapFitPercent        = knob("timeCapFitPercent", 5)
	timeDefaultGrowthPercent = knob("timeDefaultGrowthPercent", 300)
	timeMinGrowthPercent     = knob("timeMinGrowthPercent", 150)
	timeMaxGrowthPercent     = knob("timeMaxGrowthPercent", 800)
	timeExtendPercent        = knob("timeExtendPercent", 160)
	timeScoreDrop            = knob("timeScoreDrop", 4)
	solveNodes20k            = knob("solveNodes20k", 5000)
	solveGrowthPercent       = knob("solveGrowthPercent", 200)
	solveNodeSpeedup         = knob("solveNodeSpeedup", 8)
	solveFitPercent          = knob("solveFitPercent", 70)

	parSplitMinEmpties  = knob("parSplitMinEmpties", 14)
	parMidSplitMinDepth = knob("parMidSplitMinDepth", 6)

	midEvalOrderMinDepth    = knob("midEvalOrderMinDepth", 3)
	midOrderEvalShift       = knob("midOrderEvalShift", 4)
	midOrderMobilityShift   = knob("midOrderMobilityShift", 4)
	midOrderPotentialWeight = knob("midOrderPotentialWeight", 1)
	midOrderCornerWeight    = knob("midOrderCornerWeight", 0)
	midOrderCornerMoveBonus = knob("midOrderCornerMoveBonus", 16)
	midOrderXMovePenalty    = knob("midOrderXMovePenalty", 8)
	midAspirationWidth      = knob("midAspirationWidth", 3)
	midAspirationStep       = knob("midAspirationStep", 12)
	midAspirationParity     = knob("midAspirationParity", 1)
	midEndJumpEmpties       = knob("midEndJumpEmpties", 8)
	midEndJumpCostPercent   = knob("midEndJumpCostPercent", 800)
	midSolveAfterEnd        = knob("midSolveAfterEnd", 1)
	mpcMinDepth             = knob("mpcMinDepth", 3)
	mpcExactMaxEmpties      = knob("mpcExactMaxEmpties", 12)
	mpcRecursiveLevels      = knob("mpcRecursiveLevels", 1)
	mpcEvalGatePercent      = knob("mpcEvalGatePercent", 50)
)

func debugf(f string, a ...any) {
	if os.Getenv("OUTFLANK_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, f, a...)
	}
}
