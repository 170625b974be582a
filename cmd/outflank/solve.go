package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
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
second; then a total line. Where the file lists move scores the answer is
checked (the score must equal the best listed score, the move must be one
having it) and a wrong answer is marked; the exit status is 1 if any is.
A board starting with "-" needs "--" before it, e.g.
  outflank solve -- "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--" X`,
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
}

func addSolveFlags(fs interface {
	Bool(string, bool, string) *bool
	Int(string, int, string) *int
	String(string, string, string) *string
}) solveFlags {
	return solveFlags{
		wld:     fs.Bool("wld", false, "solve for win/loss/draw only (score -1, 0 or +1)"),
		hash:    fs.Int("hash", search.DefaultHashMB, "transposition table size in MiB"),
		threads: fs.Int("threads", 1, "search threads (lazy SMP sharing the hash table)"),
		json:    fs.Bool("json", false, "print one JSON object per position instead of text"),
		eval:    fs.String("eval", "", evalFlagHelp+"; it orders the moves"),
	}
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
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if err := sf.check("solve"); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("solve: want an OBF file or a board")
	}
	entries, err := readPositions(fs.Args())
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	nums := make([]int, len(entries))
	for i := range nums {
		nums[i] = i + 1
	}
	return solveAll(e, entries, nums, sf)
}

// readPositions reads an OBF file, or failing that parses the arguments as
// one board.
func readPositions(args []string) ([]bitboard.OBFEntry, error) {
	if len(args) == 1 {
		f, err := os.Open(args[0])
		if err == nil {
			defer f.Close()
			es, err := bitboard.ReadOBF(f)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", args[0], err)
			}
			if len(es) == 0 {
				return nil, fmt.Errorf("%s: no positions", args[0])
			}
			return es, nil
		}
		if !errors.Is(err, fs.ErrNotExist) || len(args[0]) < 64 {
			return nil, err
		}
	}
	s := strings.Join(args, " ")
	ent, ok, err := bitboard.ParseOBFLine(s)
	if err != nil || !ok {
		if err == nil {
			err = errors.New("empty board")
		}
		return nil, fmt.Errorf("%q is neither a file nor a board: %w", clipArg(s), err)
	}
	return []bitboard.OBFEntry{ent}, nil
}

func clipArg(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// solveResult is one solved position, as printed (and as JSON).
type solveResult struct {
	N        int      `json:"n"`
	Empties  int      `json:"empties"`
	Best     string   `json:"best"`
	Score    int      `json:"score"`
	WLD      bool     `json:"wld,omitempty"`
	PV       []string `json:"pv"`
	Nodes    uint64   `json:"nodes"`
	Seconds  float64  `json:"seconds"`
	CPU      float64  `json:"cpu_seconds"` // CPU time of the process during the solve
	NPS      float64  `json:"nodes_per_second"`
	Checked  bool     `json:"checked"`            // the file gave move scores
	OK       bool     `json:"ok"`                 // checked and right (or not checked)
	Expected string   `json:"expected,omitempty"` // what a wrong answer should have been
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
			good = append(good, ms.Move.Upper())
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
	progress := isTerminal(e.stdout)
	if !*sf.json {
		fmt.Fprintf(e.stdout, "%3s %3s %4s %5s  %-30s %14s %10s %12s %9s\n", "#", "emp", "move", "score", "principal variation", "nodes", "seconds", "nodes/s", "CPU s")
	}
	var totalNodes uint64
	var totalTime time.Duration
	var totalCPU float64
	wrong := 0
	for i, ent := range entries {
		if progress {
			fmt.Fprintf(e.stderr, "solving #%d (%d empties)...\r", nums[i], ent.Position.Empties())
		}
		eng.Clear()
		c0 := cpuTime()
		info := eng.Search(context.Background(), ent.Position, search.Limits{EndgameEmpties: 64, WLD: *sf.wld}, nil)
		if progress {
			fmt.Fprintf(e.stderr, "%40s\r", "")
		}
		r := solveResult{N: nums[i], Empties: ent.Position.Empties(), Best: moveName(info.Best), Score: info.Score,
			WLD: *sf.wld, Nodes: info.Nodes, Seconds: info.Time.Seconds(), CPU: cpuTime() - c0, Checked: len(ent.Scores) > 0}
		totalCPU += r.CPU
		r.NPS = float64(r.Nodes) / max(r.Seconds, 1e-9)
		for _, m := range info.PV {
			r.PV = append(r.PV, moveName(m))
		}
		r.OK, r.Expected = checkAnswer(ent, info.Best, info.Score, *sf.wld)
		if !r.OK {
			wrong++
		}
		totalNodes += info.Nodes
		totalTime += info.Time
		printResult(e.stdout, r, *sf.json)
	}
	secs := totalTime.Seconds()
	if *sf.json {
		b, _ := json.Marshal(map[string]any{"total": true, "positions": len(entries), "wrong": wrong,
			"nodes": totalNodes, "seconds": secs, "cpu_seconds": totalCPU, "nodes_per_second": float64(totalNodes) / max(secs, 1e-9)})
		fmt.Fprintln(e.stdout, string(b))
	} else {
		fmt.Fprintf(e.stdout, "total: %d positions, %d wrong, %d nodes, %.3f s, %.0f nodes/s, %.3f CPU s, %.0f nodes/CPU s\n",
			len(entries), wrong, totalNodes, secs, float64(totalNodes)/max(secs, 1e-9), totalCPU, float64(totalNodes)/max(totalCPU, 1e-9))
	}
	if wrong > 0 {
		return quietError{1}
	}
	return nil
}

func moveName(m bitboard.Square) string {
	if m == bitboard.NoSquare {
		return "--"
	}
	return m.Upper()
}

func printResult(w io.Writer, r solveResult, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(r)
		fmt.Fprintln(w, string(b))
		return
	}
	mark := ""
	if !r.OK {
		mark = "  WRONG, want " + r.Expected
	}
	fmt.Fprintf(w, "%3d %3d %4s %+5d  %-30s %14d %10.3f %12.0f %9.3f%s\n", r.N, r.Empties, r.Best, r.Score,
		clipPV(strings.Join(r.PV, " "), 30), r.Nodes, r.Seconds, r.NPS, r.CPU, mark)
}

func clipPV(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
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
