package web

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// gameRequest is a game as the page sends it: a start board (an OBF board
// string; empty for the standard start) and the moves played from it.
type gameRequest struct {
	Start string   `json:"start"`
	Moves []string `json:"moves"`
	Props []prop   `json:"props"` // the record's other GGF properties (players, date, ...), kept for the export
}

// prop is one KEY[value] property of a GGF record.
type prop struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ggfKey is what a property name may be; BO, B and W are the record's
// structure, written from the game itself (and GM is always Othello).
var ggfKey = regexp.MustCompile(`^[A-Z]{1,8}$`)

// checkProps refuses properties that would not write back as GGF.
func checkProps(ps []prop) ([]bitboard.Prop, error) {
	if len(ps) > 32 {
		return nil, fmt.Errorf("%d game properties: at most 32", len(ps))
	}
	var out []bitboard.Prop
	for _, p := range ps {
		switch {
		case !ggfKey.MatchString(p.Key):
			return nil, fmt.Errorf("game property %q: want a name of 1 to 8 capital letters", p.Key)
		case p.Key == "BO" || p.Key == "B" || p.Key == "W":
			return nil, fmt.Errorf("game property %s: the board and moves are given on their own", p.Key)
		case strings.ContainsAny(p.Value, "]\x00") || len(p.Value) > 1000:
			return nil, fmt.Errorf("game property %s: the value must be under 1000 characters without ']'", p.Key)
		}
		out = append(out, bitboard.Prop{Key: p.Key, Value: p.Value})
	}
	return out, nil
}

// maxMoves bounds a game's move list: 60 board moves and the passes
// between them fit with room to spare.
const maxMoves = 128

// game replays the request. Passes that the rules force are made
// explicit, both between the moves (as transcripts leave them implied)
// and after the last one, so that the side to move of the final position
// has a move or the game is over.
func (q gameRequest) game() (*bitboard.Game, error) {
	start := bitboard.Start()
	if strings.TrimSpace(q.Start) != "" {
		p, err := parseBoard(q.Start)
		if err != nil {
			return nil, err
		}
		start = p
	}
	if len(q.Moves) > maxMoves {
		return nil, fmt.Errorf("%d moves: a game has at most %d", len(q.Moves), maxMoves)
	}
	props, err := checkProps(q.Props)
	if err != nil {
		return nil, err
	}
	g := &bitboard.Game{Start: start, Props: props}
	for _, s := range q.Moves {
		m, err := bitboard.ParseGameMove(s)
		if err == nil && (!finite(m.Eval) || !finite(m.Time) || m.Time < 0) {
			err = fmt.Errorf("move %q: evaluation and time must be finite, the time not negative", s)
		}
		if err != nil {
			return nil, fmt.Errorf("move %d: %w", len(g.Moves)+1, err)
		}
		if m.Square == bitboard.PassMove && !g.Current().MustPass() {
			return nil, fmt.Errorf("move %d: pass while %s has a move", len(g.Moves)+1, g.Current().ToMove)
		}
		if err := g.Append(m); err != nil {
			return nil, err
		}
	}
	forcePass(g)
	return g, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// forcePass adds the pass that the side to move of g must make.
func forcePass(g *bitboard.Game) {
	if p := g.Current(); p.MustPass() {
		g.Moves = append(g.Moves, bitboard.GameMove{Square: bitboard.PassMove})
	}
}

// parseBoard reads a board string: an OBF line (optionally with move
// scores and comments) or an FFO position (64 squares, then "Black to
// move" or "White to move" on the next line).
func parseBoard(s string) (bitboard.Position, error) {
	s = strings.TrimSpace(s)
	if m := ffoSide.FindStringSubmatch(s); m != nil {
		side := "X"
		if strings.EqualFold(m[1], "white") {
			side = "O"
		}
		s = strings.TrimSpace(s[:len(s)-len(m[0])]) + " " + side
	}
	e, ok, err := bitboard.ParseOBFLine(s)
	if err != nil {
		return bitboard.Position{}, err
	}
	if !ok {
		return bitboard.Position{}, errors.New("board: empty")
	}
	return e.Position, nil
}

// ffoSide matches the side-to-move line of an FFO position file.
var ffoSide = regexp.MustCompile(`(?i)\s+(black|white)\s+to\s+move\.?$`)

// parseText reads what a person pastes: a GGF record, a board string (OBF
// or FFO), or a transcript of moves from the standard start. The error
// says which of them the text looked like and what is wrong with it.
func parseText(text string) (*bitboard.Game, error) {
	t := strings.TrimSpace(text)
	switch {
	case t == "":
		return nil, errors.New("nothing to read: paste a GGF record, a board string or a transcript")
	case strings.HasPrefix(t, "("):
		g, err := bitboard.ParseGGF(t)
		if err != nil {
			return nil, err
		}
		return g, nil
	case looksLikeBoard(t):
		p, err := parseBoard(t)
		if err != nil {
			return nil, err
		}
		g := &bitboard.Game{Start: p}
		forcePass(g)
		return g, nil
	}
	moves, err := bitboard.ParseMoves(t)
	if err != nil {
		if _, first := bitboard.ParseSquare(t[:min(2, len(t))]); first != nil {
			// Not even a first move: no guess at what was meant.
			return nil, errors.New("not a GGF record (starting \"(;\"), a board string (64 squares) or a transcript (f5d6c3…)")
		}
		return nil, fmt.Errorf("transcript: %w", err)
	}
	g := &bitboard.Game{Start: bitboard.Start()}
	for _, m := range moves {
		if err := g.Append(bitboard.GameMove{Square: m}); err != nil {
			return nil, fmt.Errorf("transcript: %w", err)
		}
	}
	forcePass(g)
	return g, nil
}

// looksLikeBoard tells a board string from a transcript: a board has 64
// squares, so it is long, and transcripts never use X, O, * or '-' runs.
func looksLikeBoard(t string) bool {
	first, _, _ := strings.Cut(t, "\n")
	squares := strings.Count(first, "-") + strings.Count(first, ".") +
		strings.Count(strings.ToUpper(first), "X") + strings.Count(strings.ToUpper(first), "O") + strings.Count(first, "*")
	return squares >= 16
}

// ply is one position of a game as the page draws it.
type ply struct {
	Board  string   `json:"board"`  // 64 squares a1..h8: X black, O white, - empty
	ToMove string   `json:"toMove"` // "black" or "white"
	Legal  []string `json:"legal"`  // the side to move's moves
	Black  int      `json:"black"`
	White  int      `json:"white"`
	Over   bool     `json:"over"`
	Pass   bool     `json:"pass"` // the side to move must pass
	Result string   `json:"result,omitempty"`
}

// gameState is the answer to every request that changes the game: the
// game with forced passes explicit, every position, and the game written
// out in the formats the page exports.
type gameState struct {
	Start      string   `json:"start"`
	Moves      []string `json:"moves"` // "f5", or "f5/-2.00/1.35" with the evaluation and time the record gives
	Props      []prop   `json:"props"`
	Plies      []ply    `json:"plies"`
	GGF        string   `json:"ggf"`
	Transcript string   `json:"transcript"`
}

func stateOf(g *bitboard.Game) gameState {
	st := gameState{Start: g.Start.String(), Moves: []string{}, Props: []prop{}, GGF: recordGGF(g)}
	for _, p := range g.Props {
		st.Props = append(st.Props, prop{Key: p.Key, Value: p.Value})
	}
	squares := make([]bitboard.Square, len(g.Moves))
	for i, m := range g.Moves {
		st.Moves = append(st.Moves, moveString(m))
		squares[i] = m.Square
	}
	st.Transcript = bitboard.Transcript(squares)
	for _, p := range g.Positions() {
		b := p.String()
		pl := ply{Board: b[:64], ToMove: strings.ToLower(p.ToMove.String()), Legal: []string{},
			Black: bitboard.Count(p.Black()), White: bitboard.Count(p.White()), Over: p.GameOver(), Pass: p.MustPass()}
		for m := p.Moves(); m != 0; m &= m - 1 {
			pl.Legal = append(pl.Legal, bitboard.FirstSquare(m).String())
		}
		if pl.Over {
			pl.Result = resultText(p)
		}
		st.Plies = append(st.Plies, pl)
	}
	return st
}

// moveString writes a move of the record as the page keeps it: the square
// in lower case ("pa" for a pass), then GGF's "/eval/time" if any.
func moveString(m bitboard.GameMove) string {
	s := m.String()
	sq, rest, _ := strings.Cut(s, "/")
	if rest != "" {
		rest = "/" + rest
	}
	return strings.ToLower(sq) + rest
}

// recordGGF writes g as GGF, with its result (RE, Black's disc difference
// with empties to the winner, as GGS writes it) when the game is over and
// the record does not say.
func recordGGF(g *bitboard.Game) string {
	end := g.Current()
	if _, ok := g.Prop("RE"); ok || !end.GameOver() {
		return g.GGF()
	}
	c := *g
	c.Props = append(append([]bitboard.Prop(nil), g.Props...), bitboard.Prop{Key: "RE", Value: fmt.Sprintf("%+d.000", 2*end.BlackScoreEmptiesToWinner()-64)})
	return c.GGF()
}

// resultText says who won a finished game, empties counted for the winner.
func resultText(p bitboard.Position) string {
	b := p.BlackScoreEmptiesToWinner()
	switch {
	case b > 32:
		return fmt.Sprintf("Black wins %d-%d", b, 64-b)
	case b < 32:
		return fmt.Sprintf("White wins %d-%d", 64-b, b)
	}
	return "Draw 32-32"
}
