// Package solve is the work of "outflank solve" and "outflank bench":
// reading positions (an OBF file, or a board on the command line), solving
// them exactly with the engine (or, beyond reach, searching for a time),
// checking the answers against the file's move scores, and printing a line
// (or a JSON object) per position and the totals.
package solve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// Flags are the flags shared by solve and bench.
type Flags struct {
	wld     *bool
	hash    *int
	threads *int
	json    *bool
	eval    *string
	time    time.Duration // solve --time: 0 none
	timeSet bool          // --time was given
	depths  bool          // progress lines per depth for deep or timed solves (solve, not bench)
	timeArg *string       // solve --time as given
	fs      *pflag.FlagSet
}

// AddFlags declares the flags of solve and bench on fs.
func AddFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{
		wld:     fs.Bool("wld", false, "solve for win/loss/draw only (score -1, 0 or +1)"),
		hash:    fs.Int("hash", search.DefaultHashMB, "transposition table size in MiB"),
		threads: fs.Int("threads", runtime.NumCPU(), "search threads: the exact solve splits its tree over them"),
		json:    fs.Bool("json", false, "print one JSON object a line per position instead of text (JSON Lines, as every --json)"),
		eval:    fs.String("eval", "", engine.EvalFlagHelp+"; it orders the moves"),
	}
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(fs, "threads", 1, cli.MaxThreads)
	cli.EveryCore(fs, "threads")
	return f
}

func (f *Flags) check(cmd string) error {
	if *f.hash < 1 || *f.hash > 1<<16 {
		return fmt.Errorf("%s: --hash %d: want a size from 1 to 65536 MiB", cmd, *f.hash)
	}
	if *f.threads < 1 {
		return fmt.Errorf("%s: --threads %d: want at least 1", cmd, *f.threads)
	}
	return nil
}

// AddTimeFlag declares solve's --time flag (bench has none: it always
// solves).
func (f *Flags) AddTimeFlag(fs *pflag.FlagSet) {
	f.timeArg = fs.String("time", "", "time limit per position: seconds or a duration (30, 1m30s; 0: none); positions beyond reach get "+solveBeyondReachTime.String())
	f.depths = true
	f.fs = fs
}

// Run solves the positions of args (an OBF file, or a board given as
// arguments: boards, as SplitBoardArgs took them out, or the arguments
// left after the flags).
func Run(e *cli.Env, f *Flags, boards, args []string) error {
	if err := f.check("solve"); err != nil {
		return err
	}
	if f.fs.Changed("time") {
		d, err := parseTimeLimit(*f.timeArg)
		if err != nil {
			return fmt.Errorf("solve: --time %q: %w", *f.timeArg, err)
		}
		f.time = d
		f.timeSet = true
	}
	if len(boards) > 0 && len(args) > 0 {
		return fmt.Errorf("solve: unexpected argument %q after the board", args[0])
	}
	pos := append(boards, args...)
	if len(pos) == 0 {
		return errors.New("solve: want an OBF file or a board")
	}
	entries, nums, err := readPositions(pos)
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	return solveAll(e, entries, nums, *f)
}

// parseTimeLimit reads solve's --time: seconds or a duration, 0 for no
// limit.
func parseTimeLimit(s string) (time.Duration, error) {
	if v, err := strconv.ParseFloat(s, 64); err == nil && v == 0 {
		return 0, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d == 0 {
		return 0, nil
	}
	d, err := match.ParseDuration(s)
	if err != nil {
		return 0, errors.New("want seconds or a duration (30, 1m30s), or 0 for no limit")
	}
	return d, nil
}

// SplitBoardArgs takes a board out of the arguments before flag parsing, so
// that flags may follow it: a board such as "--XXXXX--OOO..." starts with
// "-", which the flag parser would take for a flag, and the "--" that
// protects it would end the flags. It returns the board's arguments (the
// squares and, if separate, the side to move) and the others, less a "--"
// that only protected the board.
func SplitBoardArgs(args []string) (board, rest []string) {
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
		f, err := bitboard.Open(args[0])
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
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, err
		} else if len(args[0]) < 64 && !boardLike(args[0]) {
			// Not a file, and nothing like a board: say both, as for
			// any other argument that is neither.
			return nil, nil, fmt.Errorf("%q is neither a file nor a board: no such file, and a board has 64 squares", clipArg(args[0]))
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
		if err := cli.CheckReachable(ent.Position); err != nil {
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

func clipArg(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// Result is one solved position, as printed (and as JSON).
type Result struct {
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
			good = append(good, cli.MoveName(ms.Move))
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
func solveAll(e *cli.Env, entries []bitboard.OBFEntry, nums []int, sf Flags) error {
	ev, _, err := engine.LoadEvaluator(*sf.eval)
	if err != nil {
		return fmt.Errorf("--eval: %w", err)
	}
	eng := search.New(search.Options{HashMB: *sf.hash, Threads: *sf.threads, Eval: ev})
	progress := cli.IsTerminal(e.Stdout) && cli.IsTerminal(e.Stderr) // its line is rewritten in place
	if !*sf.json {
		fmt.Fprintf(e.Stdout, "%3s %3s %4s %5s  %-30s %14s %10s %12s %9s\n", "#", "emp", "move", "score", "principal variation", "nodes", "seconds", "nodes/s", "CPU s")
	}
	var totalNodes uint64
	var totalTime time.Duration
	var totalCPU float64
	wrong, unfinished := 0, 0
	for i, ent := range entries {
		lim, note := solveLimits(ent.Position.Empties(), sf)
		if note != "" {
			fmt.Fprintf(e.Stderr, "#%d: %s\n", nums[i], note)
		}
		var report func(search.Info)
		if sf.depths && (lim.Time > 0 || ent.Position.Empties() >= solveProgressEmpties) {
			report = func(in search.Info) { printProgress(e.Stderr, nums[i], in) }
		} else if progress {
			fmt.Fprintf(e.Stderr, "solving #%d (%d empties)...\r", nums[i], ent.Position.Empties())
		}
		eng.Clear()
		c0 := cli.CPUTime()
		info := play.Think(context.Background(), eng, ent.Position, lim, report) // as every front end solves: the move always legal
		if progress && report == nil {
			fmt.Fprintf(e.Stderr, "%40s\r", "")
		}
		r := Result{N: nums[i], Empties: ent.Position.Empties(), Best: cli.MoveName(info.Best), Score: info.Score,
			WLD: *sf.wld, Exact: info.Exact, Depth: info.Depth, Selectivity: info.Selectivity,
			Nodes: info.Nodes, Seconds: info.Time.Seconds(), CPU: cli.CPUTime() - c0, Checked: len(ent.Scores) > 0 && info.Exact}
		totalCPU += r.CPU
		r.NPS = float64(r.Nodes) / max(r.Seconds, 1e-9)
		for _, m := range info.PV {
			r.PV = append(r.PV, cli.MoveName(m))
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
		printResult(e.Stdout, r, *sf.json)
	}
	secs := totalTime.Seconds()
	if *sf.json {
		b, _ := json.Marshal(map[string]any{"total": true, "positions": len(entries), "wrong": wrong, "unfinished": unfinished,
			"nodes": totalNodes, "seconds": cli.Micro(secs), "cpu_seconds": cli.Micro(totalCPU), "nodes_per_second": math.Round(float64(totalNodes) / max(secs, 1e-9))})
		fmt.Fprintln(e.Stdout, string(b))
	} else {
		if unfinished > 0 {
			fmt.Fprintf(e.Stdout, "%d position(s) not solved exactly within the time limit: their scores are estimates\n", unfinished)
		}
		fmt.Fprintf(e.Stdout, "total: %d positions, %d wrong, %d nodes, %.3f s, %.0f nodes/s, %.3f CPU s, %.0f nodes/CPU s\n",
			len(entries), wrong, totalNodes, secs, float64(totalNodes)/max(secs, 1e-9), totalCPU, float64(totalNodes)/max(totalCPU, 1e-9))
	}
	if wrong > 0 {
		return cli.QuietError{Code: 1}
	}
	return nil
}

func printResult(w io.Writer, r Result, asJSON bool) {
	if asJSON {
		r.Seconds, r.CPU, r.NPS = cli.Micro(r.Seconds), cli.Micro(r.CPU), math.Round(r.NPS)
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
		cli.ClipPV(strings.Join(r.PV, " "), 30), r.Nodes, r.Seconds, r.NPS, r.CPU, mark)
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
func solveLimits(empties int, sf Flags) (search.Limits, string) {
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
		pv[i] = cli.MoveName(m)
	}
	fmt.Fprintf(w, "#%d  %-22s score %+3d  best %-3s  %s  %d nodes  %.1f s\n", n, kind, in.Score, cli.MoveName(in.Best),
		cli.ClipPV(strings.Join(pv, " "), 30), in.Nodes, in.Time.Seconds())
}
