package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "solve",
		args:    "FILE.obf|BOARD [flags]",
		summary: "Solve endgame positions exactly and check them against known scores.",
		details: `Solves every position of an OBF file (one position a line: 64 squares
X/O/- a1..h8, the side to move, then optional "MOVE:SCORE;" fields), or one
board given on the command line, printing a line per position as it finishes:
number, empties, best move, score (final disc difference for the side to
move, empties to the winner), principal variation, nodes, time and nodes per
second; then a total line. Positions are numbered from 1, or by the range in
the file's name (fforum-20-39.obf: #20-#39). Where the file lists move scores
the answer is checked (the score must equal the best listed score, the move
must be one having it) and a wrong answer is marked; the exit status is 1 if
any is. A board no game can reach (fewer than 4 discs, an empty centre
square) is refused.

From 26 empties, or under --time, a progress line per search depth goes to
stderr. Beyond 30 empties an exact solve would take hours to centuries: the
position gets an estimate and 30 s of deepening search instead (--time to
change, --time 0 to solve anyway); a score the time limit cut short is marked
"not exact". Flags may follow the board; a board starting with "-" needs "--"
before it, e.g.
  outflank solve -- "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--" X --wld`,
		run: runSolve,
	})
}

// solveFlags are the flags shared by solve and bench.
type solveFlags struct {
	wld     *bool
	hash    *int
	threads *int
	json    *bool
	eval    *string
	time    time.Duration // solve --time: 0 none
	timeSet bool          // --time was given
	depths  bool          // progress lines per depth for deep or timed solves (solve, not bench)
}

func addSolveFlags(fs *pflag.FlagSet) solveFlags {
	f := solveFlags{
		wld:     fs.Bool("wld", false, "solve for win/loss/draw only (score -1, 0 or +1)"),
		hash:    fs.Int("hash", search.DefaultHashMB, "transposition table size in MiB"),
		threads: fs.Int("threads", runtime.NumCPU(), "search threads, all cores unless set: the exact solve splits its tree over them"),
		json:    fs.Bool("json", false, "print one JSON object per position instead of text"),
		eval:    fs.String("eval", "", evalFlagHelp+"; it orders the moves"),
	}
	bound(fs, "hash", 1, maxHashMB)
	bound(fs, "threads", 1, maxThreads)
	return f
}

func (f solveFlags) check(cmd string) error {
	if *f.hash < 1 || *f.hash > 1<<16 {
		return fmt.Errorf("%s: --hash %d: want a size from 1 to 65536 MiB", cmd, *f.hash)
	}
	if *f.threads < 1 {
		return fmt.Errorf("%s: --threads %d: want at least 1", cmd, *f.threads)
	}
	return nil
}

func runSolve(e *env, args []string) error {
	c := findCommand("solve")
	fs := c.flags(e)
	sf := addSolveFlags(fs)
	tl := fs.String("time", "", "time limit per position: seconds or a duration (30, 1m30s; 0: none); positions beyond reach get "+solveBeyondReachTime.String())
	sf.depths = true
	boards, rest := splitBoardArgs(args)
	if ok, err := parse(fs, rest); !ok {
		return err
	}
	if err := sf.check("solve"); err != nil {
		return err
	}
	if fs.Changed("time") {
		if *tl == "0" {
			sf.time = 0
		} else {
			d, err := match.ParseDuration(*tl)
			if err != nil {
				return fmt.Errorf("solve: --time %q: %w", *tl, err)
			}
			sf.time = d
		}
		sf.timeSet = true
	}
	if len(boards) > 0 && fs.NArg() > 0 {
		return fmt.Errorf("solve: unexpected argument %q after the board", fs.Arg(0))
	}
	pos := append(boards, fs.Args()...)
	if len(pos) == 0 {
		return errors.New("solve: want an OBF file or a board")
	}
	entries, nums, err := readPositions(pos)
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	return solveAll(e, entries, nums, sf)
}

// splitBoardArgs takes a board out of the arguments before flag parsing, so
// that flags may follow it: a board such as "--XXXXX--OOO..." starts with
// "-", which the flag parser would take for a flag, and the "--" that
// protects it would end the flags. It returns the board's arguments (the
// squares and, if separate, the side to move) and the others, less a "--"
// that only protected the board.
func splitBoardArgs(args []string) (board, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" && i+1 < len(args) && isBoardArg(args[i+1]) {
			continue
		}
		if !isBoardArg(a) || len(board) > 0 {
			rest = append(rest, a)
			continue
		}
		board = append(board, a)
		if i+1 < len(args) && (args[i+1] == "X" || args[i+1] == "O" || args[i+1] == "x" || args[i+1] == "o") {
			board = append(board, args[i+1])
			i++
		}
	}
	return board, rest
}

// isBoardArg reports whether a is a board: 64 squares, with or without the
// side to move.
func isBoardArg(a string) bool {
	if len(a) < 64 {
		return false
	}
	if _, err := bitboard.ParseBoard(a); err == nil {
		return true
	}
	_, err := bitboard.ParseBoard(a + " X")
	return err == nil
}

// boardLike reports whether a, not a file, was meant as a board: only the
// characters of board strings, as in "XXXX" (then the board's own error
// says what is wrong, not "no such file").
func boardLike(a string) bool {
	return a != "" && strings.Trim(a, "XxOo-.*_ ") == ""
}

// readPositions reads an OBF file, or failing that parses the arguments as
// one board. Positions are numbered from 1, or, when the file's name ends
// in a range N-M that matches its number of positions (fforum-20-39.obf),
// by that range: the positions' own FFO numbers, as bench prints them.
func readPositions(args []string) ([]bitboard.OBFEntry, []int, error) {
	var es []bitboard.OBFEntry
	first := 1
	if len(args) == 1 {
		f, err := os.Open(args[0])
		if err == nil {
			defer f.Close()
			es, err = bitboard.ReadOBF(f)
			if err != nil {
				return nil, nil, bitboard.InFile(args[0], err)
			}
			if len(es) == 0 {
				return nil, nil, fmt.Errorf("%s: no positions", args[0])
			}
			if lo, hi, ok := fileRange(args[0]); ok && hi-lo+1 == len(es) {
				first = lo
			}
		} else if !errors.Is(err, fs.ErrNotExist) || len(args[0]) < 64 && !boardLike(args[0]) {
			return nil, nil, err
		}
	}
	if es == nil {
		s := strings.Join(args, " ")
		ent, ok, err := bitboard.ParseOBFLine(s)
		if err != nil || !ok {
			if err == nil {
				err = errors.New("empty board")
			}
			// ParseBoard's errors start "board: ", which this one has said.
			return nil, nil, fmt.Errorf("%q is neither a file nor a board: %s", clipArg(s), strings.TrimPrefix(err.Error(), "board: "))
		}
		es = []bitboard.OBFEntry{ent}
	}
	nums := make([]int, len(es))
	for i, ent := range es {
		nums[i] = first + i
		if err := checkReachable(ent.Position); err != nil {
			if len(es) > 1 || ent.Line > 0 {
				return nil, nil, bitboard.InFile(args[0], &bitboard.LineError{Line: ent.Line, Err: err})
			}
			return nil, nil, err
		}
	}
	return es, nums, nil
}

// fileRange reads the range N-M at the end of a file name such as
// fforum-20-39.obf.
func fileRange(name string) (lo, hi int, ok bool) {
	m := fileRangeRE.FindStringSubmatch(filepath.Base(name))
	if m == nil {
		return 0, 0, false
	}
	lo, _ = strconv.Atoi(m[1])
	hi, _ = strconv.Atoi(m[2])
	return lo, hi, lo >= 1 && lo <= hi
}

var fileRangeRE = regexp.MustCompile(`(\d{1,4})-(\d{1,4})\.[A-Za-z]+$`)

// checkReachable rejects a board that no game can reach: every game starts
// with the four centre squares occupied, and discs are never removed.
func checkReachable(p bitboard.Position) error {
	const centre = 1<<27 | 1<<28 | 1<<35 | 1<<36 // d4 e4 d5 e5
	occ := p.Player | p.Opponent
	if n := bits.OnesCount64(occ); n < 4 {
		return fmt.Errorf("board has %d discs: a game position has at least the 4 of the start", n)
	}
	if occ&centre != centre {
		return errors.New("board has an empty centre square (d4, e4, d5, e5): no game can reach it")
	}
	return nil
}

func clipArg(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// solveResult is one solved position, as printed (and as JSON).
type solveResult struct {
	N           int      `json:"n"`
	Empties     int      `json:"empties"`
	Best        string   `json:"best"`
	Score       int      `json:"score"`
	WLD         bool     `json:"wld,omitempty"`
	PV          []string `json:"pv"`
	Nodes       uint64   `json:"nodes"`
	Seconds     float64  `json:"seconds"`
	CPU         float64  `json:"cpu_seconds"` // CPU time of the process during the solve
	NPS         float64  `json:"nodes_per_second"`
	Exact       bool     `json:"exact"`              // false: the time ran out, the score is a search estimate
	Depth       int      `json:"depth"`              // depth reached (the empties when exact)
	Selectivity int      `json:"selectivity"`        // percent; 100: no selective cuts
	Checked     bool     `json:"checked"`            // the file gave move scores and the solve finished
	OK          bool     `json:"ok"`                 // checked and right (or not checked)
	Expected    string   `json:"expected,omitempty"` // what a wrong answer should have been
}

// checkAnswer compares a result with the file's move scores.
func checkAnswer(ent bitboard.OBFEntry, best bitboard.Square, score int, wld bool) (ok bool, expected string) {
	if len(ent.Scores) == 0 {
		return true, ""
	}
	cls := func(v int) int {
		if !wld {
			return v
		}
		return max(-1, min(1, v))
	}
	want := cls(ent.Scores[0].Score)
	for _, ms := range ent.Scores {
		want = max(want, cls(ms.Score))
	}
	var good []string
	var goodSq []bitboard.Square
	for _, ms := range ent.Scores {
		if cls(ms.Score) == want {
			good = append(good, moveName(ms.Move))
			goodSq = append(goodSq, ms.Move)
		}
	}
	if score == want && slices.Contains(goodSq, best) {
		return true, ""
	}
	return false, fmt.Sprintf("%+d by %s", want, strings.Join(good, "/"))
}

// solveAll solves entries (numbered nums) and prints them; it returns a
// quiet error if any answer was wrong.
func solveAll(e *env, entries []bitboard.OBFEntry, nums []int, sf solveFlags) error {
	ev, _, err := loadEvaluator(*sf.eval)
	if err != nil {
		return fmt.Errorf("--eval: %w", err)
	}
	eng := search.New(search.Options{HashMB: *sf.hash, Threads: *sf.threads, Eval: ev})
	progress := isTerminal(e.stdout) && isTerminal(e.stderr) // its line is rewritten in place
	if !*sf.json {
		fmt.Fprintf(e.stdout, "%3s %3s %4s %5s  %-30s %14s %10s %12s %9s\n", "#", "emp", "move", "score", "principal variation", "nodes", "seconds", "nodes/s", "CPU s")
	}
	var totalNodes uint64
	var totalTime time.Duration
	var totalCPU float64
	wrong, unfinished := 0, 0
	for i, ent := range entries {
		lim, note := solveLimits(ent.Position.Empties(), sf)
		if note != "" {
			fmt.Fprintf(e.stderr, "#%d: %s\n", nums[i], note)
		}
		var report func(search.Info)
		if sf.depths && (lim.Time > 0 || ent.Position.Empties() >= solveProgressEmpties) {
			report = func(in search.Info) { printProgress(e.stderr, nums[i], in) }
		} else if progress {
			fmt.Fprintf(e.stderr, "solving #%d (%d empties)...\r", nums[i], ent.Position.Empties())
		}
		eng.Clear()
		c0 := cpuTime()
		info := play.Think(context.Background(), eng, ent.Position, lim, report) // as every front end solves: the move always legal
		if progress && report == nil {
			fmt.Fprintf(e.stderr, "%40s\r", "")
		}
		r := solveResult{N: nums[i], Empties: ent.Position.Empties(), Best: moveName(info.Best), Score: info.Score,
			WLD: *sf.wld, Exact: info.Exact, Depth: info.Depth, Selectivity: info.Selectivity,
			Nodes: info.Nodes, Seconds: info.Time.Seconds(), CPU: cpuTime() - c0, Checked: len(ent.Scores) > 0 && info.Exact}
		totalCPU += r.CPU
		r.NPS = float64(r.Nodes) / max(r.Seconds, 1e-9)
		for _, m := range info.PV {
			r.PV = append(r.PV, moveName(m))
		}
		r.OK = true
		if r.Checked {
			r.OK, r.Expected = checkAnswer(ent, info.Best, info.Score, *sf.wld)
		}
		if !r.OK {
			wrong++
		}
		if !r.Exact {
			unfinished++
		}
		totalNodes += info.Nodes
		totalTime += info.Time
		printResult(e.stdout, r, *sf.json)
	}
	secs := totalTime.Seconds()
	if *sf.json {
		b, _ := json.Marshal(map[string]any{"total": true, "positions": len(entries), "wrong": wrong, "unfinished": unfinished,
			"nodes": totalNodes, "seconds": micro(secs), "cpu_seconds": micro(totalCPU), "nodes_per_second": math.Round(float64(totalNodes) / max(secs, 1e-9))})
		fmt.Fprintln(e.stdout, string(b))
	} else {
		if unfinished > 0 {
			fmt.Fprintf(e.stdout, "%d position(s) not solved exactly within the time limit: their scores are estimates\n", unfinished)
		}
		fmt.Fprintf(e.stdout, "total: %d positions, %d wrong, %d nodes, %.3f s, %.0f nodes/s, %.3f CPU s, %.0f nodes/CPU s\n",
			len(entries), wrong, totalNodes, secs, float64(totalNodes)/max(secs, 1e-9), totalCPU, float64(totalNodes)/max(totalCPU, 1e-9))
	}
	if wrong > 0 {
		return quietError{1}
	}
	return nil
}

// moveName writes a move of a line of play as every Outflank command
// writes them for people: lower case, "pass" for a pass.
func moveName(m bitboard.Square) string {
	switch m {
	case bitboard.NoSquare:
		return "--"
	case bitboard.PassMove:
		return "pass"
	}
	return m.String()
}

func printResult(w io.Writer, r solveResult, asJSON bool) {
	if asJSON {
		r.Seconds, r.CPU, r.NPS = micro(r.Seconds), micro(r.CPU), math.Round(r.NPS)
		b, _ := json.Marshal(r)
		fmt.Fprintln(w, string(b))
		return
	}
	mark := ""
	if !r.Exact {
		mark = fmt.Sprintf("  not exact: depth %d@%d%%, time ran out", r.Depth, r.Selectivity)
	}
	if !r.OK {
		mark = "  WRONG, want " + r.Expected
	}
	fmt.Fprintf(w, "%3d %3d %4s %+5d  %-30s %14d %10.3f %12.0f %9.3f%s\n", r.N, r.Empties, r.Best, r.Score,
		clipPV(strings.Join(r.PV, " "), 30), r.Nodes, r.Seconds, r.NPS, r.CPU, mark)
}

// micro rounds seconds to microseconds, so that JSON shows 0.001107, not
// the float noise of a difference (0.0011070000000000038).
func micro(s float64) float64 { return math.Round(s*1e6) / 1e6 }

// clipPV cuts a line of play to at most n bytes, between moves.
func clipPV(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut between moves, never inside one ("b7 b..."): the last space
	// that leaves room for " ...".
	cut := strings.LastIndexByte(s[:n-3], ' ')
	if cut < 0 {
		return s[:n-3] + "..."
	}
	return s[:cut] + " ..."
}

// Positions with more empties than solveReachEmpties are beyond an exact
// solve in reasonable time (hours to centuries): unless --time says
// otherwise they get solveBeyondReachTime of iterative deepening, with a
// line saying so at once and a progress line per depth. From
// solveProgressEmpties empties, or under a time limit, every position
// shows its progress.
const (
	solveReachEmpties    = 30
	solveProgressEmpties = 26
	solveBeyondReachTime = 30 * time.Second
)

// solveLimits returns the search limits of a position with the given
// empties, and a note to print first when the user should know what will
// happen (a solve beyond reach).
func solveLimits(empties int, sf solveFlags) (search.Limits, string) {
	lim := search.Limits{EndgameEmpties: search.AlwaysSolve, WLD: *sf.wld, Time: sf.time}
	if empties <= solveReachEmpties || (sf.timeSet && sf.time == 0) {
		// No selective cuts in the midgame search before the solve: its
		// table moves order the solve, and exact ones order it better
		// (FFO #45: 280 M nodes against 367 M at 73%).
		lim.Selectivity = 100
	}
	if empties <= solveReachEmpties {
		return lim, ""
	}
	est := "an exact solve would take about " + play.SolveEstimate(empties) + " here"
	if sf.timeSet && sf.time == 0 {
		if !sf.depths {
			return lim, "" // bench: always solved, no note
		}
		return lim, fmt.Sprintf("%d empties: %s; solving with no time limit (--time 0), progress per depth below", empties, est)
	}
	if !sf.timeSet {
		lim.Time = solveBeyondReachTime
	}
	// A midgame search deepening until the time is spent; no exact solve,
	// which could not finish.
	lim.EndgameEmpties, lim.Soft = 0, lim.Time
	return lim, fmt.Sprintf("%d empties: %s; searching for %s instead (--time to change; --time 0 to solve anyway), a line per depth below", empties, est, lim.Time)
}

// printProgress prints a line for a completed search iteration.
func printProgress(w io.Writer, n int, in search.Info) {
	kind := fmt.Sprintf("depth %d@%d%%", in.Depth, in.Selectivity)
	if in.Exact {
		kind = fmt.Sprintf("solved (%d empties)", in.Depth)
	}
	pv := make([]string, len(in.PV))
	for i, m := range in.PV {
		pv[i] = moveName(m)
	}
	fmt.Fprintf(w, "#%d  %-22s score %+3d  best %-3s  %s  %d nodes  %.1f s\n", n, kind, in.Score, moveName(in.Best),
		clipPV(strings.Join(pv, " "), 30), in.Nodes, in.Time.Seconds())
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
