package bitboard

import (
	"fmt"
	"strconv"
	"strings"
)

// GameMove is one move of a game record, with the optional evaluation and
// time that GGF and NBoard attach to it ("f5/1.23/0.5").
type GameMove struct {
	Square  Square
	Eval    float64
	HasEval bool
	Time    float64 // seconds
	HasTime bool
}

// String writes the move as NBoard and GGF do: "F5", "F5/1.23", "F5/1.23/0.50",
// "F5//0.50", "PA".
func (m GameMove) String() string {
	s := m.Square.Upper()
	if m.HasEval || m.HasTime {
		s += "/"
		if m.HasEval {
			s += strconv.FormatFloat(m.Eval, 'f', 2, 64)
		}
		if m.HasTime {
			s += "/" + strconv.FormatFloat(m.Time, 'f', 2, 64)
		}
	}
	return s
}

// ParseGameMove reads "F5", "f5/1.2", "F5//2.449", "PA/0/1".
func ParseGameMove(s string) (GameMove, error) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) > 3 {
		return GameMove{}, fmt.Errorf("move %q: too many '/' fields", s)
	}
	sq, err := ParseSquare(parts[0])
	if err != nil {
		return GameMove{}, err
	}
	m := GameMove{Square: sq}
	if len(parts) > 1 && parts[1] != "" {
		v, err := strconv.ParseFloat(parts[1], 64)
		if err != nil {
			return GameMove{}, fmt.Errorf("move %q: bad evaluation %q", s, parts[1])
		}
		m.Eval, m.HasEval = v, true
	}
	if len(parts) > 2 && parts[2] != "" {
		v, err := strconv.ParseFloat(parts[2], 64)
		if err != nil {
			return GameMove{}, fmt.Errorf("move %q: bad time %q", s, parts[2])
		}
		m.Time, m.HasTime = v, true
	}
	return m, nil
}

// Game is a game record: a start position and the moves played from it
// (passes explicit), plus the record's other properties (GGF keys such as
// PB, PW, TI, RE), kept in order for writing back.
type Game struct {
	Start Position
	Moves []GameMove
	Props []Prop
}

// Prop is one KEY[value] property of a GGF record.
type Prop struct{ Key, Value string }

// Prop returns the value of the first property named key.
func (g *Game) Prop(key string) (string, bool) {
	for _, p := range g.Props {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// SetProp sets (or adds) a property.
func (g *Game) SetProp(key, value string) {
	for i := range g.Props {
		if g.Props[i].Key == key {
			g.Props[i].Value = value
			return
		}
	}
	g.Props = append(g.Props, Prop{key, value})
}

// Squares returns the game's moves as squares (passes as PassMove), for
// the functions that take a move list.
func (g *Game) Squares() []Square {
	out := make([]Square, len(g.Moves))
	for i, m := range g.Moves {
		out[i] = m.Square
	}
	return out
}

// Positions replays the game and returns every position, positions[0] =
// Start. The moves of a Game are legal by construction (ParseGGF checks).
func (g *Game) Positions() []Position {
	out := []Position{g.Start}
	p := g.Start
	for _, m := range g.Moves {
		if m.Square == PassMove {
			p = p.Pass()
		} else {
			p = p.Play(m.Square)
		}
		out = append(out, p)
	}
	return out
}

// Current returns the position after the last move.
func (g *Game) Current() Position {
	ps := g.Positions()
	return ps[len(ps)-1]
}

// Append plays one more move, checked; a board move when the side to move
// must pass inserts the pass first, as transcripts imply. A refused move
// changes nothing: the implied pass is recorded only with the move it
// precedes, so a GUI whose move is refused still sees the same side to move.
func (g *Game) Append(m GameMove) error {
	p := g.Current()
	n := len(g.Moves) + 1
	pass := m.Square != PassMove && p.MustPass()
	if pass {
		p = p.Pass()
		n++
	}
	if _, err := p.PlayMove(m.Square); err != nil {
		return fmt.Errorf("move %d (%s) illegal for %s: %w", n, m.Square, p.ToMove, err)
	}
	if pass {
		g.Moves = append(g.Moves, GameMove{Square: PassMove})
	}
	g.Moves = append(g.Moves, m)
	return nil
}

// ParseGGF reads one GGF game record, "(;GM[Othello]…BO[8 …]B[f5]W[d6/1.2/0.5]…;)".
// The start board comes from BO (the standard start if absent); the B and W
// moves are replayed and checked, passes included. Errors name the problem
// and its byte offset in the input.
func ParseGGF(s string) (*Game, error) {
	start := strings.Index(s, "(;")
	if start < 0 {
		return nil, fmt.Errorf("ggf: no \"(;\" that starts a game record")
	}
	g := &Game{Start: Start()}
	i := start + 2
	haveBoard := false
	var p Position = g.Start
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return nil, fmt.Errorf("ggf: record not closed with \";)\"")
		}
		if s[i] == ';' {
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\n' || s[j] == '\r' || s[j] == '\t') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				break
			}
			return nil, fmt.Errorf("ggf: at offset %d: ';' not followed by ')'", i)
		}
		k := i
		for k < len(s) && s[k] >= 'A' && s[k] <= 'Z' {
			k++
		}
		if k == i || k >= len(s) || s[k] != '[' {
			return nil, fmt.Errorf("ggf: at offset %d: want KEY[value], found %q", i, clip(s[i:]))
		}
		key := s[i:k]
		end := strings.IndexByte(s[k:], ']')
		if end < 0 {
			return nil, fmt.Errorf("ggf: at offset %d: property %s not closed with ']'", i, key)
		}
		val := s[k+1 : k+end]
		i = k + end + 1
		switch key {
		case "BO":
			if haveBoard || len(g.Moves) > 0 {
				return nil, fmt.Errorf("ggf: at offset %d: BO after moves or twice", k-2)
			}
			b := strings.TrimSpace(val)
			if !strings.HasPrefix(b, "8") {
				return nil, fmt.Errorf("ggf: at offset %d: BO[%s]: only 8x8 boards are supported", k-2, clip(val))
			}
			pos, err := ParseBoard(strings.TrimSpace(b[1:]))
			if err != nil {
				return nil, fmt.Errorf("ggf: at offset %d: BO: %w", k-2, err)
			}
			g.Start, p, haveBoard = pos, pos, true
		case "B", "W":
			m, err := ParseGameMove(val)
			if err != nil {
				return nil, fmt.Errorf("ggf: at offset %d: %s[%s]: %w", k-len(key), key, clip(val), err)
			}
			want := Black
			if key == "W" {
				want = White
			}
			if p.ToMove != want {
				// Some writers omit the pass of a side that cannot move.
				if m.Square != PassMove && p.MustPass() {
					g.Moves = append(g.Moves, GameMove{Square: PassMove})
					p = p.Pass()
				} else {
					return nil, fmt.Errorf("ggf: at offset %d: %s[%s] but %s is to move", k-len(key), key, clip(val), p.ToMove)
				}
			}
			q, err := p.PlayMove(m.Square)
			if err != nil {
				return nil, fmt.Errorf("ggf: at offset %d: move %d %s[%s]: %w", k-len(key), len(g.Moves)+1, key, clip(val), err)
			}
			p = q
			g.Moves = append(g.Moves, m)
		default:
			g.Props = append(g.Props, Prop{key, val})
		}
	}
	return g, nil
}

func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "…"
	}
	return s
}

// GGF writes the game as a GGF record (GGS board characters: * black, O white).
func (g *Game) GGF() string {
	var sb strings.Builder
	sb.WriteString("(;GM[Othello]")
	for _, p := range g.Props {
		if p.Key == "GM" {
			continue
		}
		fmt.Fprintf(&sb, "%s[%s]", p.Key, p.Value)
	}
	fmt.Fprintf(&sb, "BO[8 %s]", g.Start.BoardString('*', 'O', '-', " "))
	c := g.Start.ToMove
	for _, m := range g.Moves {
		k := "B"
		if c == White {
			k = "W"
		}
		fmt.Fprintf(&sb, "%s[%s]", k, m)
		c = c.Other()
	}
	sb.WriteString(";)")
	return sb.String()
}
