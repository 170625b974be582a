// Package puzzle reads puzzle files and checks positions against the facts
// they state: legal-move sets, flips, lines of play, corner-forcing moves,
// disc counts and results, and (given a Solver) exact scores, best moves and
// win/loss/draw. It backs "outflank puzzle" and the rulebook suite in
// testdata/rulebook, and holds the seeded search that reconstructed the
// rulebook's Strategy puzzles (reconstruct.go).
//
// # File format
//
// A puzzle file is a small superset of OBF. Each puzzle is a board (64
// squares X/O/- and the side to move, as in OBF), then fields separated by
// ';'. A '%' starts a comment; blank lines are skipped. A line whose first
// non-blank character is ';' continues the previous puzzle, so long puzzles
// can put one fact a line. The fields:
//
//	id NAME              a name for reports
//	setup                the diagram is set up, not reached in a game: skip the
//	                     reachability check (centre filled, discs connected)
//	moves SQ...          the legal moves are exactly these ("pass": the side to
//	                     move must pass; "none": the game is over)
//	legal SQ...          each of these is a legal move ("pass" too: the
//	                     side to move must pass)
//	illegal SQ...        none of these is a legal move ("pass": the side
//	                     to move may not pass)
//	flips SQ: SQ...      SQ is legal and flips exactly these discs
//	stable SQ...         these discs can never be flipped (by the standard
//	                     sufficient test: see StableDiscs)
//	line STEP...         the moves are legal one after another from here
//	                     (passes implied or written "pass"); a move written
//	                     with a '!' (h7!) must also be the only legal move
//	corner SQ...         each move forces a corner: it is legal, and after every
//	                     reply of the opponent (a pass included) the side to
//	                     move has a legal corner move
//	corner-exactly SQ... the corner-forcing moves are exactly these (or "none")
//	discs B-W            black has B discs and white W
//	board BOARD          the position is exactly this board and side to move
//	result B-W           the game is over with B black and W white discs
//	score N              exact score for the side to move, empties to the
//	                     winner (the FFO convention); needs the solver
//	best SQ...           the moves that reach the exact score are exactly these
//	wld win|draw|loss    the game-theoretic result for the side to move
//	SQ:N                 (OBF) the exact score after playing SQ is N
//	after STEP...: FACT  FACT holds after the moves (which must be legal)
package puzzle

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// Kind is the type of a goal.
type Kind int

// The goal kinds; see the package documentation for their syntax.
const (
	Moves Kind = iota
	Legal
	Illegal
	Flips
	Stable
	Line
	Corner
	CornerExactly
	Discs
	Result
	Board
	Score
	Best
	MoveScore
	WLD
)

var kindNames = map[string]Kind{
	"moves": Moves, "legal": Legal, "illegal": Illegal, "board": Board, "flips": Flips, "stable": Stable, "line": Line,
	"corner": Corner, "corner-exactly": CornerExactly, "discs": Discs,
	"result": Result, "score": Score, "best": Best, "wld": WLD,
}

// NeedsSolver reports whether checking the kind needs an exact solver.
func (k Kind) NeedsSolver() bool { return k == Score || k == Best || k == MoveScore || k == WLD }

// Step is one move of a line; Only marks a move that must be the only legal one.
type Step struct {
	Move bitboard.Square
	Only bool
}

// Goal is one checkable fact about a puzzle's position.
type Goal struct {
	Text  string // the field as written, for reports
	Line  int    // the file line it is on
	Kind  Kind
	After []Step // moves to play before checking (from "after" and "line")

	Squares []bitboard.Square // the listed squares (moves, illegal, flips, corner, best)
	Move    bitboard.Square   // the move of flips and SQ:N
	Pass    bool              // "moves pass"
	Over    bool              // "moves none"
	None    bool              // "corner-exactly none"
	B, W    int               // discs, result
	Board   bitboard.Position // board
	Value   int               // score, SQ:N, wld (-1, 0, +1)
}

// Puzzle is a position and the goals stated about it.
type Puzzle struct {
	Line     int // the line of its board
	ID       string
	Position bitboard.Position
	Setup    bool
	Goals    []Goal
}

// Name is the puzzle's id, or "line N" when it has none.
func (p *Puzzle) Name() string {
	if p.ID != "" {
		return p.ID
	}
	return fmt.Sprintf("line %d", p.Line)
}

// Read parses a puzzle file. Errors name the line and the field.
func Read(r io.Reader) ([]*Puzzle, error) {
	var out []*Puzzle
	ls := bitboard.NewLines(r)
	for ls.Scan() {
		n := ls.Line()
		line := ls.Text()
		if i := strings.IndexByte(line, '%'); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var p *Puzzle
		var fields string
		if strings.HasPrefix(line, ";") {
			if len(out) == 0 {
				return nil, ls.Errorf("continuation ';' before any board")
			}
			p, fields = out[len(out)-1], line[1:]
		} else {
			board, rest, _ := strings.Cut(line, ";")
			pos, err := bitboard.ParseBoard(board)
			if err != nil {
				return nil, ls.Errorf("%w", err)
			}
			p = &Puzzle{Line: n, Position: pos}
			out = append(out, p)
			fields = rest
		}
		for _, f := range strings.Split(fields, ";") {
			f = strings.Join(strings.Fields(f), " ")
			if f == "" {
				continue
			}
			if err := p.addField(f, n); err != nil {
				return nil, ls.Errorf("field %q: %w", f, err)
			}
		}
	}
	if err := ls.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

func (p *Puzzle) addField(f string, line int) error {
	key, arg, _ := strings.Cut(f, " ")
	switch key {
	case "id":
		if arg == "" {
			return fmt.Errorf("id needs a name")
		}
		if p.ID != "" {
			return fmt.Errorf("second id (already %q)", p.ID)
		}
		p.ID = arg
		return nil
	case "setup":
		if arg != "" {
			return fmt.Errorf("setup takes no argument")
		}
		p.Setup = true
		return nil
	}
	g, err := parseGoal(f)
	if err != nil {
		return err
	}
	g.Text, g.Line = f, line
	p.Goals = append(p.Goals, g)
	return nil
}

// parseGoal reads one goal field (without id/setup).
func parseGoal(f string) (Goal, error) {
	var g Goal
	key, arg, _ := strings.Cut(f, " ")
	arg = strings.TrimSpace(arg)
	if key == "after" {
		moves, inner, ok := strings.Cut(arg, ":")
		if !ok {
			return g, fmt.Errorf("after: want \"after MOVES: FACT\"")
		}
		steps, err := parseSteps(moves)
		if err != nil {
			return g, fmt.Errorf("after: %w", err)
		}
		if len(steps) == 0 {
			return g, fmt.Errorf("after: no moves before ':'")
		}
		inner = strings.TrimSpace(inner)
		if inner == "" {
			return g, fmt.Errorf("after: no fact after ':'")
		}
		g, err = parseGoal(inner)
		if err != nil {
			return g, err
		}
		g.After = append(steps, g.After...)
		return g, nil
	}
	if mv, sc, ok := strings.Cut(f, ":"); ok && !strings.Contains(mv, " ") {
		// OBF move score, e.g. "G8:+38".
		sq, err := bitboard.ParseSquare(mv)
		if err != nil {
			return g, err
		}
		v, err := strconv.Atoi(strings.TrimSpace(sc))
		if err != nil || v < -64 || v > 64 {
			return g, fmt.Errorf("score %q is not an integer from -64 to 64", sc)
		}
		g.Kind, g.Move, g.Value = MoveScore, sq, v
		return g, nil
	}
	kind, ok := kindNames[key]
	if !ok {
		return g, fmt.Errorf("unknown fact %q (want moves, legal, illegal, flips, stable, line, corner, corner-exactly, discs, result, board, score, best, wld, after, id or setup)", key)
	}
	g.Kind = kind
	var err error
	switch kind {
	case Moves:
		switch strings.ToLower(arg) {
		case "pass":
			g.Pass = true
		case "none":
			g.Over = true
		default:
			g.Squares, err = parseSquares(arg)
		}
	case Board:
		g.Board, err = bitboard.ParseBoard(arg)
	case Legal, Illegal:
		g.Squares, err = parseMoves(arg)
	case Stable, Corner, Best:
		g.Squares, err = parseSquares(arg)
	case CornerExactly:
		if strings.ToLower(arg) == "none" {
			g.None = true
		} else {
			g.Squares, err = parseSquares(arg)
		}
	case Flips:
		mv, rest, ok := strings.Cut(arg, ":")
		if !ok {
			return g, fmt.Errorf("flips: want \"flips SQ: SQ...\"")
		}
		if g.Move, err = bitboard.ParseSquare(mv); err != nil {
			return g, err
		}
		if g.Move == bitboard.PassMove {
			return g, fmt.Errorf("flips: a pass flips nothing")
		}
		g.Squares, err = parseSquares(rest)
	case Line:
		g.After, err = parseSteps(arg)
		if err == nil && len(g.After) == 0 {
			err = fmt.Errorf("line: no moves")
		}
	case Discs, Result:
		g.B, g.W, err = parseCounts(arg)
	case Score:
		g.Value, err = strconv.Atoi(arg)
		if err != nil || g.Value < -64 || g.Value > 64 {
			err = fmt.Errorf("score %q is not an integer from -64 to 64", arg)
		}
	case WLD:
		switch strings.ToLower(arg) {
		case "win":
			g.Value = 1
		case "draw":
			g.Value = 0
		case "loss":
			g.Value = -1
		default:
			err = fmt.Errorf("wld %q: want win, draw or loss", arg)
		}
	}
	return g, err
}

// parseSquares reads board squares separated by spaces or commas.
func parseSquares(s string) ([]bitboard.Square, error) {
	var out []bitboard.Square
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		sq, err := bitboard.ParseSquare(w)
		if err != nil {
			return nil, err
		}
		if !sq.IsBoard() {
			return nil, fmt.Errorf("%q is not a board square", w)
		}
		if slices.Contains(out, sq) {
			return nil, fmt.Errorf("%s listed twice", sq)
		}
		out = append(out, sq)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no squares listed")
	}
	return out, nil
}

// parseMoves reads moves separated by spaces or commas: board squares or
// "pass".
func parseMoves(s string) ([]bitboard.Square, error) {
	var out []bitboard.Square
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		sq, err := bitboard.ParseSquare(w)
		if err != nil {
			return nil, err
		}
		if slices.Contains(out, sq) {
			return nil, fmt.Errorf("%s listed twice", sq)
		}
		out = append(out, sq)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no moves listed")
	}
	return out, nil
}

// parseSteps reads a move list with optional '!' marks ("h2 h7! h8 pass").
func parseSteps(s string) ([]Step, error) {
	var out []Step
	for _, w := range strings.Fields(s) {
		st := Step{}
		if strings.HasSuffix(w, "!") {
			st.Only, w = true, strings.TrimSuffix(w, "!")
		}
		sq, err := bitboard.ParseSquare(w)
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", len(out)+1, err)
		}
		st.Move = sq
		out = append(out, st)
	}
	return out, nil
}

// parseCounts reads "B-W" disc counts.
func parseCounts(s string) (b, w int, err error) {
	bs, ws, ok := strings.Cut(s, "-")
	if ok {
		b, err = strconv.Atoi(strings.TrimSpace(bs))
		if err == nil {
			w, err = strconv.Atoi(strings.TrimSpace(ws))
		}
	}
	if !ok || err != nil || b < 0 || w < 0 {
		return 0, 0, fmt.Errorf("counts %q: want BLACK-WHITE, e.g. 54-10", s)
	}
	if b+w > 64 {
		return 0, 0, fmt.Errorf("counts %q: %d discs do not fit on 64 squares", s, b+w)
	}
	return b, w, nil
}
