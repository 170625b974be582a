package solvedset

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// ScoreConfig is a scoring run: every engine asked for its move in each
// position of the set.
type ScoreConfig struct {
	Set      string
	Values   string // the move values file (created if missing)
	Engines  []match.Spec
	Self     string        // this binary, for self specs
	MoveTime time.Duration // for a spec without depth, time or clock
	HashMB   int           // of the solver of chosen moves
	Threads  int           // of the solver of chosen moves
	Bands    [][2]int      // rows of the table: empties lo-hi
	First    int           // score only the first First positions (0: all)
	Record   string        // write every choice to this file (JSON Lines), if not ""
	// NoSolve leaves a non-optimal choice whose score is not in the values
	// file unsolved: it counts 2 discs lost, the least it can lose, and the
	// table says the sum is a lower bound.
	NoSolve  bool
	Out, Log io.Writer
	Protocol io.Writer // every NBoard line, if not nil
}

// DefaultBands are the table's rows for a set of 24-36 empties.
var DefaultBands = [][2]int{{24, 26}, {27, 29}, {30, 32}, {33, 36}}

// ParseBands reads "24-26,27-29": the rows of the table.
func ParseBands(s string) ([][2]int, error) {
	var out [][2]int
	for _, item := range strings.Split(s, ",") {
		lo, hi, err := cli.ParseSpan(item)
		if err != nil || lo < 0 || hi > 60 || lo > hi {
			return nil, fmt.Errorf("bands %q: item %q: want N or N-M within 0-60", s, item)
		}
		out = append(out, [2]int{lo, hi})
	}
	return out, nil
}

// choice is one engine's answer in one position.
type choice struct {
	move  bitboard.Square
	think time.Duration
	fault error
	value int  // the move's exact score, when known
	known bool // value is known
}

// ScoreSet asks each engine for its move in every position, the engines in
// turn, the first engine of position i being engine i mod the number of
// engines (whatever the machine does to the timings falls on all alike),
// then scores the choices: optimal or not from the set, and a
// non-optimal move's exact score from the values file, or solved now and
// added to it. It prints a table per engine.
func ScoreSet(ctx context.Context, cfg ScoreConfig) error {
	set, err := readSetFile(cfg.Set)
	if err != nil {
		return err
	}
	entries := set.Entries
	if cfg.First > 0 && cfg.First < len(entries) {
		entries = entries[:cfg.First]
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s: no positions", cfg.Set)
	}
	askers := make([]*match.Asker, len(cfg.Engines))
	for i, sp := range cfg.Engines {
		askers[i] = match.NewAsker(sp, cfg.Self, cfg.MoveTime, cfg.Protocol)
	}
	closeAll := func() {
		for _, a := range askers {
			a.Close()
		}
	}
	defer closeAll()
	choices := make([][]choice, len(cfg.Engines))
	for i := range choices {
		choices[i] = make([]choice, len(entries))
	}
	for k, e := range entries {
		var notes []string
		for j := range cfg.Engines {
			i := (k + j) % len(cfg.Engines)
			m, dt, err := askers[i].Move(ctx, e.Pos)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			var f *match.Fault
			if err != nil && (!errors.As(err, &f) || f.Kind == match.FaultStart) {
				// An engine that cannot be started would fault in every
				// position: say so once.
				return fmt.Errorf("engine %s: %w", cfg.Engines[i].Label(), err)
			}
			choices[i][k] = choice{move: m, think: dt, fault: err}
			if err != nil {
				fmt.Fprintf(cfg.Log, "solvedset score: id %d: engine %s: %v\n", e.ID, cfg.Engines[i].Label(), err)
			}
		}
		for i := range cfg.Engines {
			c := choices[i][k]
			mark := "?"
			switch {
			case c.fault != nil:
				mark = "fault"
			case e.IsOptimal(c.move):
				mark = "optimal"
			}
			notes = append(notes, fmt.Sprintf("%s %s %.2fs %s", cfg.Engines[i].Label(), c.move.Upper(), c.think.Seconds(), mark))
		}
		fmt.Fprintf(cfg.Log, "solvedset score: %d/%d: id %d, %d empties: %s\n", k+1, len(entries), e.ID, e.Pos.Empties(), strings.Join(notes, ", "))
	}
	closeAll()

	if err := solveChoices(ctx, cfg, entries, choices); err != nil {
		return err
	}
	if cfg.Record != "" {
		if err := writeRecord(cfg.Record, cfg.Engines, entries, choices); err != nil {
			return err
		}
	}
	fmt.Fprintln(cfg.Out, bench.CPULine())
	fmt.Fprintf(cfg.Out, "%s: %d positions (%s), the engines in turn; optimal: the chosen move scores the best; discs lost: best score minus the chosen move's, in all\n",
		filepath.Base(cfg.Set), len(entries), set.Header.Games)
	for i := range cfg.Engines {
		writeTable(cfg.Out, cfg.Engines[i].Label(), entries, choices[i], cfg.Bands)
	}
	return nil
}

// solveChoices fills in the value of every non-optimal choice: from the
// values file, else by an exact solve of the position after the move,
// added to the file at once (a stopped run keeps what it solved). It holds
// the file's lock throughout, so that two scorers at once cannot drop each
// other's values.
func solveChoices(ctx context.Context, cfg ScoreConfig, entries []Entry, choices [][]choice) error {
	unlock, err := atomicfile.Lock(cfg.Values, func() {
		fmt.Fprintf(cfg.Log, "solvedset score: waiting for another scorer to finish with %s\n", cfg.Values)
	})
	if err != nil {
		return err
	}
	defer unlock()
	vals, err := readValuesFile(cfg.Values)
	if err != nil {
		return err
	}
	var eng *search.Engine
	for k, e := range entries {
		for i := range choices {
			c := &choices[i][k]
			if c.fault != nil {
				continue
			}
			if e.IsOptimal(c.move) {
				c.value, c.known = e.Best, true
				continue
			}
			if v, ok := vals.get(e.Pos, c.move); ok {
				if v >= e.Best {
					return fmt.Errorf("%s: %s after %s scores %+d, but the set says it is below the best, %+d", cfg.Values, e.Pos, c.move.Upper(), v, e.Best)
				}
				c.value, c.known = v, true
				continue
			}
			if cfg.NoSolve {
				continue // not optimal: at least 2 discs lost (scores are even)
			}
			if eng == nil {
				eng = search.New(search.Options{HashMB: cfg.HashMB, Eval: eval.Default(), Threads: cfg.Threads})
			}
			t0 := time.Now()
			v, err := moveValue(ctx, eng, e.Pos, c.move)
			if err != nil {
				return err
			}
			if v >= e.Best {
				return fmt.Errorf("id %d: %s solves to %+d, but the set says it is below the best, %+d: the set or the solver is wrong", e.ID, c.move.Upper(), v, e.Best)
			}
			vals.add(e.Pos, c.move, v)
			if err := vals.save(cfg.Values); err != nil {
				return err
			}
			c.value, c.known = v, true
			fmt.Fprintf(cfg.Log, "solvedset score: id %d, %d empties: %s solved, %+d (best %+d), in %s; kept in %s\n",
				e.ID, e.Pos.Empties(), c.move.Upper(), v, e.Best, time.Since(t0).Round(time.Millisecond), cfg.Values)
		}
	}
	return nil
}

// moveValue is the exact score of move m in pos for pos's side to move.
func moveValue(ctx context.Context, eng *search.Engine, pos bitboard.Position, m bitboard.Square) (int, error) {
	child := pos.Play(m)
	if child.GameOver() {
		return -child.FinalScore(), nil
	}
	eng.Clear()
	info := eng.Search(ctx, child, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if !info.Exact {
		return 0, fmt.Errorf("%s after %s: the solve did not finish", pos, m.Upper())
	}
	return -info.Score, nil
}

// recordLine is one position of the --record file.
type recordLine struct {
	ID      int            `json:"id"`
	Empties int            `json:"empties"`
	Best    int            `json:"best"`
	Optimal []string       `json:"optimal"`
	Choices []recordChoice `json:"choices"`
}

type recordChoice struct {
	Engine  string  `json:"engine"`
	Move    string  `json:"move,omitempty"`
	Score   *int    `json:"score,omitempty"`
	Seconds float64 `json:"seconds"`
	Fault   string  `json:"fault,omitempty"`
}

// writeRecord writes every choice, a JSON object a position (JSON Lines),
// for comparing runs position by position.
func writeRecord(name string, engines []match.Spec, entries []Entry, choices [][]choice) error {
	return atomicfile.Write(name, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		for k, e := range entries {
			r := recordLine{ID: e.ID, Empties: e.Pos.Empties(), Best: e.Best}
			for _, m := range e.Optimal {
				r.Optimal = append(r.Optimal, m.Upper())
			}
			for i, sp := range engines {
				c := choices[i][k]
				rc := recordChoice{Engine: sp.Label(), Seconds: math.Round(c.think.Seconds()*1000) / 1000}
				if c.fault != nil {
					rc.Fault = c.fault.Error()
				} else {
					rc.Move = c.move.Upper()
					if c.known {
						v := c.value
						rc.Score = &v
					}
				}
				r.Choices = append(r.Choices, rc)
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// writeTable prints one engine's results by band of empties.
func writeTable(w io.Writer, name string, entries []Entry, cs []choice, bands [][2]int) {
	type row struct {
		label              string
		n, optimal, faults int
		lost, unsolved     int
		think              time.Duration
		asked              int
	}
	rows := make([]row, len(bands)+2) // the bands, "other", "all"
	for b, bd := range bands {
		rows[b].label = fmt.Sprintf("%d-%d", bd[0], bd[1])
		if bd[0] == bd[1] {
			rows[b].label = fmt.Sprint(bd[0])
		}
	}
	rows[len(bands)].label, rows[len(bands)+1].label = "other", "all"
	for k, e := range entries {
		b := len(bands)
		for j, bd := range bands {
			if n := e.Pos.Empties(); n >= bd[0] && n <= bd[1] {
				b = j
				break
			}
		}
		c := cs[k]
		for _, r := range []*row{&rows[b], &rows[len(bands)+1]} {
			r.n++
			if c.fault != nil {
				r.faults++
				continue
			}
			r.asked++
			r.think += c.think
			switch {
			case !c.known:
				// Not optimal and not solved (--no-solve): scores are
				// even, so it lost 2 discs at least.
				r.unsolved++
				r.lost += 2
			case c.value == e.Best:
				r.optimal++
			default:
				r.lost += e.Best - c.value
			}
		}
	}
	fmt.Fprintf(w, "engine %s\n", name)
	fmt.Fprintf(w, "  %-7s %9s %16s %11s %9s %7s\n", "empties", "positions", "optimal", "discs lost", "s a move", "faults")
	for _, r := range rows {
		if r.n == 0 {
			continue
		}
		think := 0.0
		if r.asked > 0 {
			think = r.think.Seconds() / float64(r.asked)
		}
		lost := fmt.Sprint(r.lost)
		if r.unsolved > 0 {
			lost = fmt.Sprintf(">=%d", r.lost)
		}
		fmt.Fprintf(w, "  %-7s %9d %8d (%4.1f%%) %11s %9.2f %7d\n", r.label, r.n, r.optimal, 100*float64(r.optimal)/float64(r.n), lost, think, r.faults)
	}
}

// values are exact scores of moves the set does not list, by position.
type values struct {
	lines []string
	by    map[bitboard.Position]map[bitboard.Square]int
}

func (v *values) get(p bitboard.Position, m bitboard.Square) (int, bool) {
	s, ok := v.by[p][m]
	return s, ok
}

func (v *values) add(p bitboard.Position, m bitboard.Square, s int) {
	if v.by[p] == nil {
		v.by[p] = map[bitboard.Square]int{}
	}
	v.by[p][m] = s
	v.lines = append(v.lines, fmt.Sprintf("%s; %s:%+d;", p, m.Upper(), s))
}

// save writes the values file whole (atomically).
func (v *values) save(name string) error {
	var buf bytes.Buffer
	fmt.Fprintln(&buf, valuesKey)
	fmt.Fprintln(&buf, "% Exact scores of moves a solved set does not list (not optimal), solved when an engine chose them.")
	for _, l := range v.lines {
		fmt.Fprintln(&buf, l)
	}
	return atomicfile.WriteFile(name, buf.Bytes())
}

// readValuesFile reads a values file; a missing file is an empty one.
func readValuesFile(name string) (*values, error) {
	v := &values{by: map[bitboard.Position]map[bitboard.Square]int{}}
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return v, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := v.read(f); err != nil {
		return nil, bitboard.InFile(name, err)
	}
	return v, nil
}

func (v *values) read(r io.Reader) error {
	ls := bitboard.NewLines(r)
	for ls.Scan() {
		line := ls.Text()
		if ls.Line() == 1 {
			if strings.TrimSpace(line) != valuesKey {
				return &bitboard.LineError{Line: 1, Err: fmt.Errorf("not a move values file: want %q first", valuesKey)}
			}
			continue
		}
		e, ok, err := bitboard.ParseOBFLine(line)
		if err == nil && ok && len(e.Scores) != 1 {
			err = fmt.Errorf("want one MOVE:SCORE, not %d", len(e.Scores))
		}
		if err == nil && ok && !e.Position.IsLegal(e.Scores[0].Move) {
			err = fmt.Errorf("move %s is not legal", e.Scores[0].Move.Upper())
		}
		if err != nil {
			return &bitboard.LineError{Line: ls.Line(), Err: err}
		}
		if ok {
			v.add(e.Position, e.Scores[0].Move, e.Scores[0].Score)
		}
	}
	return ls.Err()
}
