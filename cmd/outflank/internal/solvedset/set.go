// Package solvedset is the work of "outflank solvedset": a set of
// self-play positions at 24-36 empties whose best moves are known exactly,
// the resumable, sharded job that builds it, and the scorer that asks any
// NBoard engine for its move in each position and reports how often it
// chose an optimal move and how many discs its choices lost. README.md
// says what the set is, what it costs and how to rebuild it.
package solvedset

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

// The set file is OBF (bitboard.ReadOBF reads it, and so "outflank
// evalcheck --ffo" and "outflank solve"), with header comments naming how
// it was made and a comment after each position:
//
//	% outflank solved set 1
//	% games selfplay-gen8-burst.sp.gz (44114 games)
//	% seed 1
//	% counts 24:2,25:1
//	% shard 1/1
//	XO--…-- X; D2:+24; B4:+24; % id 0 game 1000123 ply 36 moves 13 nodes 181126970 cpu 11.44
//
// A position lists every legal move whose exact score is the best, with
// that score; every legal move it does not list scores less (the solve
// proved it with a window just below the best, not how much less). The
// cost of a move's exact value is paid when an engine chooses it: the
// scorer solves it then and keeps it in the move values file beside the
// set (valuesKey), so later scorings of the same choice are free.
const (
	setKey    = "% outflank solved set 1"
	valuesKey = "% outflank solved set move values 1"
)

// Header says which positions a set file holds: those of the pick
// (games, seed, counts) whose id falls in the shard.
type Header struct {
	Games  string // the self-play files' base names, comma-separated, and the games read
	Seed   uint64
	Counts Counts
	Shard  [2]int // K, N: the positions shards deals to shard K of N
}

// Counts is the number of positions at each count of empties.
type Counts [61]int

// String writes c as "24:2,25:1" (nonzero counts, ascending empties).
func (c Counts) String() string {
	var parts []string
	for n, k := range c {
		if k > 0 {
			parts = append(parts, fmt.Sprintf("%d:%d", n, k))
		}
	}
	return strings.Join(parts, ",")
}

// within reports whether c asks for no more positions than d at any
// count of empties.
func (c Counts) within(d Counts) bool {
	for n := range c {
		if c[n] > d[n] {
			return false
		}
	}
	return true
}

// Total is the number of positions c asks for.
func (c Counts) Total() int {
	t := 0
	for _, k := range c {
		t += k
	}
	return t
}

// MinEmpties and MaxEmpties bound the empties of a set's positions.
const (
	MinEmpties = 14 // below the range the issue asks for, so that tests are fast
	MaxEmpties = 40
)

// ParseCounts reads "N:K" or "N-M:K" items, comma-separated: K positions
// at each count of empties from N to M.
func ParseCounts(s string) (Counts, error) {
	var c Counts
	for _, item := range strings.Split(s, ",") {
		span, k, ok := strings.Cut(strings.TrimSpace(item), ":")
		lo, hi, err := cli.ParseSpan(span)
		n, errK := strconv.Atoi(k)
		if !ok || err != nil || errK != nil || lo < MinEmpties || hi > MaxEmpties || lo > hi || n < 0 || n > 10000 {
			return c, fmt.Errorf("counts %q: item %q: want EMPTIES:COUNT or LO-HI:COUNT, empties within %d-%d, count 0-10000", s, item, MinEmpties, MaxEmpties)
		}
		for e := lo; e <= hi; e++ {
			c[e] = n
		}
	}
	if c.Total() == 0 {
		return c, fmt.Errorf("counts %q: no positions", s)
	}
	return c, nil
}

// Entry is one position of the set.
type Entry struct {
	ID      int // its place in the pick; the scorer's order
	Pos     bitboard.Position
	Best    int               // exact score of the position for the side to move
	Optimal []bitboard.Square // every legal move scoring Best, in square order
	Game    uint64            // the self-play game's index in its run
	Ply     int               // the position is before Moves[Ply] of the game
	Nodes   uint64            // nodes of the solve
	CPU     float64           // CPU seconds of the solve
}

// Line writes e as its set file line.
func (e Entry) Line() string {
	var sb strings.Builder
	sb.WriteString(e.Pos.String())
	sb.WriteString(";")
	for _, m := range e.Optimal {
		fmt.Fprintf(&sb, " %s:%+d;", m.Upper(), e.Best)
	}
	fmt.Fprintf(&sb, " %% id %d game %d ply %d moves %d nodes %d cpu %.2f",
		e.ID, e.Game, e.Ply, bitboard.Count(e.Pos.Moves()), e.Nodes, e.CPU)
	return sb.String()
}

// IsOptimal reports whether m is one of e's optimal moves.
func (e Entry) IsOptimal(m bitboard.Square) bool { return slices.Contains(e.Optimal, m) }

// parseEntry reads a position line of a set file.
func parseEntry(line string) (Entry, error) {
	var e Entry
	body, meta, _ := strings.Cut(line, "%")
	ob, ok, err := bitboard.ParseOBFLine(body)
	if err != nil {
		return e, err
	}
	if !ok {
		return e, fmt.Errorf("no position")
	}
	e.Pos = ob.Position
	if len(ob.Scores) == 0 {
		return e, fmt.Errorf("no optimal move listed")
	}
	e.Best = ob.Scores[0].Score
	for _, ms := range ob.Scores {
		if ms.Score != e.Best {
			return e, fmt.Errorf("move %s: score %+d, the first listed %+d: a set lists only the optimal moves", ms.Move.Upper(), ms.Score, e.Best)
		}
		if !e.Pos.IsLegal(ms.Move) {
			return e, fmt.Errorf("move %s is not legal", ms.Move.Upper())
		}
		if e.IsOptimal(ms.Move) {
			return e, fmt.Errorf("move %s listed twice", ms.Move.Upper())
		}
		e.Optimal = append(e.Optimal, ms.Move)
	}
	f := strings.Fields(meta)
	if len(f)%2 != 0 {
		return e, fmt.Errorf("comment %q: want KEY VALUE pairs", strings.TrimSpace(meta))
	}
	seen := map[string]bool{}
	for i := 0; i < len(f); i += 2 {
		k, v := f[i], f[i+1]
		var err error
		switch k {
		case "id":
			e.ID, err = strconv.Atoi(v)
			if err == nil && e.ID < 0 {
				err = fmt.Errorf("negative")
			}
		case "game":
			e.Game, err = strconv.ParseUint(v, 10, 64)
		case "ply":
			e.Ply, err = strconv.Atoi(v)
		case "nodes":
			e.Nodes, err = strconv.ParseUint(v, 10, 64)
		case "cpu":
			e.CPU, err = strconv.ParseFloat(v, 64)
		case "moves":
			var n int
			n, err = strconv.Atoi(v)
			if err == nil && n != bitboard.Count(e.Pos.Moves()) {
				err = fmt.Errorf("the position has %d", bitboard.Count(e.Pos.Moves()))
			}
		default:
			continue // room for more facts about a position
		}
		if err != nil {
			return e, fmt.Errorf("%s %q: %v", k, v, err)
		}
		seen[k] = true
	}
	if !seen["id"] {
		return e, fmt.Errorf("no id in the comment")
	}
	if n := e.ID%width + MinEmpties; n != e.Pos.Empties() {
		return e, fmt.Errorf("id %d is the id of a position at %d empties, not %d", e.ID, n, e.Pos.Empties())
	}
	return e, nil
}

// Set is a set file: its header and positions, in id order.
type Set struct {
	Header  Header
	Entries []Entry
}

// Write writes s in the set file format.
func (s *Set) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	h := s.Header
	fmt.Fprintln(bw, setKey)
	fmt.Fprintf(bw, "%% games %s\n", h.Games)
	fmt.Fprintf(bw, "%% seed %d\n", h.Seed)
	fmt.Fprintf(bw, "%% counts %s\n", h.Counts)
	fmt.Fprintf(bw, "%% shard %d/%d\n", h.Shard[0], h.Shard[1])
	for _, e := range s.Entries {
		fmt.Fprintln(bw, e.Line())
	}
	return bw.Flush()
}

// ReadSet reads a set file. Errors name the line.
func ReadSet(r io.Reader) (*Set, error) {
	s := &Set{}
	ls := bitboard.NewLines(r)
	have := map[string]bool{}
	ids := map[int]bool{}
	for ls.Scan() {
		line := strings.TrimSpace(ls.Text())
		fail := func(err error) (*Set, error) { return nil, &bitboard.LineError{Line: ls.Line(), Err: err} }
		if ls.Line() == 1 {
			if line != setKey {
				return fail(fmt.Errorf("not a solved set file: want %q first", setKey))
			}
			continue
		}
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "%") {
			k, v, _ := strings.Cut(strings.TrimSpace(line[1:]), " ")
			v = strings.TrimSpace(v)
			var err error
			switch k {
			case "games":
				s.Header.Games = v
			case "seed":
				s.Header.Seed, err = strconv.ParseUint(v, 10, 64)
			case "counts":
				s.Header.Counts, err = ParseCounts(v)
			case "shard":
				var k, n int
				k, n, err = cli.ParseShard(v)
				s.Header.Shard = [2]int{k, n}
			default:
				continue // a comment
			}
			if err != nil {
				return fail(fmt.Errorf("%s: %v", k, err))
			}
			have[k] = true
			continue
		}
		e, err := parseEntry(line)
		if err != nil {
			return fail(err)
		}
		if ids[e.ID] {
			return fail(fmt.Errorf("id %d twice", e.ID))
		}
		ids[e.ID] = true
		s.Entries = append(s.Entries, e)
	}
	if err := ls.Err(); err != nil {
		return nil, err
	}
	for _, k := range []string{"games", "seed", "counts", "shard"} {
		if !have[k] {
			return nil, fmt.Errorf("no %q header line", "% "+k)
		}
	}
	slices.SortFunc(s.Entries, func(a, b Entry) int { return a.ID - b.ID })
	return s, nil
}
