package gtp

import (
	"errors"
	"fmt"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// parseRecord reads a game record for loadsgf: a GGF record ("(;GM[Othello]"),
// or an Othello SGF (GM[2]) as Quarry and other SGF editors write it.
func parseRecord(text string) (*bitboard.Game, error) {
	if strings.Contains(text, "GM[Othello]") {
		return bitboard.ParseGGF(text)
	}
	return parseSGF(text)
}

// sgfProp is one property of an SGF node with its values.
type sgfProp struct {
	id     string
	values []string
}

// parseSGF reads the main line of an Othello SGF record (GM[2], SZ[8]):
// set-up stones (AB, AW, AE: without them the standard start), the side to
// move (PL), and the moves B[..] and W[..]. A point is written as SGF does
// ("fe": column f, row e from the top) or as Othello players do ("f5");
// B[] and B[tt] are passes, and a pass the record leaves out is made.
func parseSGF(text string) (*bitboard.Game, error) {
	nodes, err := sgfMainLine(text)
	if err != nil {
		return nil, err
	}
	var black, white uint64
	setup, toMove := false, bitboard.Black
	g := &bitboard.Game{}
	started := false
	for n, node := range nodes {
		for _, p := range node {
			switch p.id {
			case "GM":
				if p.values[0] != "2" {
					return nil, fmt.Errorf("sgf: GM[%s] is not Othello (GM[2])", p.values[0])
				}
			case "SZ":
				if p.values[0] != "8" {
					return nil, fmt.Errorf("sgf: SZ[%s]: an Othello board is 8 by 8", p.values[0])
				}
			case "AB", "AW", "AE":
				if started {
					return nil, fmt.Errorf("sgf: node %d: set-up (%s) after the moves began", n+1, p.id)
				}
				if !setup {
					black, white, setup = 0, 0, true
				}
				for _, v := range p.values {
					sq, err := sgfPoint(v)
					if err != nil || sq == bitboard.PassMove {
						return nil, fmt.Errorf("sgf: %s[%s]: not a square", p.id, v)
					}
					bit := uint64(1) << sq
					black, white = black&^bit, white&^bit
					switch p.id {
					case "AB":
						black |= bit
					case "AW":
						white |= bit
					}
				}
			case "PL":
				c, err := parseColor(p.values[0])
				if err != nil {
					return nil, fmt.Errorf("sgf: PL[%s]: want B or W", p.values[0])
				}
				toMove = c
			case "B", "W":
				if !started {
					g.Start = sgfStart(setup, black, white, toMove)
					started = true
				}
				sq, err := sgfPoint(p.values[0])
				if err != nil {
					return nil, fmt.Errorf("sgf: node %d: %s[%s]: %v", n+1, p.id, p.values[0], err)
				}
				col := bitboard.Black
				if p.id == "W" {
					col = bitboard.White
				}
				if cur := g.Current(); cur.ToMove != col && !cur.GameOver() {
					if sq == bitboard.PassMove || !cur.MustPass() {
						return nil, fmt.Errorf("sgf: node %d: %s moves but %s is to move", n+1, col, cur.ToMove)
					}
				}
				if err := g.Append(bitboard.GameMove{Square: sq}); err != nil {
					return nil, fmt.Errorf("sgf: node %d: %w", n+1, err)
				}
			}
		}
	}
	if !started {
		g.Start = sgfStart(setup, black, white, toMove)
	}
	return g, nil
}

// sgfStart is the position the record starts from.
func sgfStart(setup bool, black, white uint64, toMove bitboard.Color) bitboard.Position {
	if !setup {
		start := bitboard.Start()
		if toMove != start.ToMove {
			start = start.Pass()
		}
		return start
	}
	if toMove == bitboard.Black {
		return bitboard.Position{Player: black, Opponent: white, ToMove: bitboard.Black}
	}
	return bitboard.Position{Player: white, Opponent: black, ToMove: bitboard.White}
}

// sgfPoint reads a move or point: "" or "tt" for a pass, SGF's "fe"
// (column, then row counted from the top), or "f5".
func sgfPoint(v string) (bitboard.Square, error) {
	v = strings.TrimSpace(v)
	switch {
	case v == "" || v == "tt" || strings.EqualFold(v, "pass") || strings.EqualFold(v, "pa"):
		return bitboard.PassMove, nil
	case len(v) == 2 && v[0] >= 'a' && v[0] <= 'h' && v[1] >= 'a' && v[1] <= 'h':
		return bitboard.SquareAt(int(v[0]-'a'), int(v[1]-'a')), nil
	}
	sq, err := bitboard.ParseSquare(v)
	if err != nil {
		return 0, errors.New("not a square")
	}
	return sq, nil
}

// sgfMainLine splits an SGF record into the nodes of its main line: the
// first variation wherever the record branches.
func sgfMainLine(text string) ([][]sgfProp, error) {
	i := strings.IndexByte(text, '(')
	if i < 0 || !strings.HasPrefix(strings.TrimLeft(text[i+1:], " \t\r\n"), ";") {
		return nil, errors.New("sgf: no \"(;\" that starts a game record")
	}
	var nodes [][]sgfProp
	for i++; i < len(text); {
		c := text[i]
		switch {
		case c == ';':
			nodes = append(nodes, nil)
			i++
		case c == '(':
			i++ // the first variation continues the main line
		case c == ')':
			return nodes, nil // the main line ends here
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			if len(nodes) == 0 {
				return nil, fmt.Errorf("sgf: property at byte %d outside a node", i)
			}
			j := i
			for j < len(text) && (text[j] >= 'A' && text[j] <= 'Z' || text[j] >= 'a' && text[j] <= 'z') {
				j++
			}
			p := sgfProp{id: strings.Map(func(r rune) rune {
				if r >= 'a' && r <= 'z' {
					return -1 // FF[3] lower-case letters in names are dropped
				}
				return r
			}, text[i:j])}
			for {
				for j < len(text) && strings.IndexByte(" \t\r\n", text[j]) >= 0 {
					j++
				}
				if j >= len(text) || text[j] != '[' {
					break
				}
				v, end, err := sgfValue(text, j+1)
				if err != nil {
					return nil, err
				}
				p.values = append(p.values, v)
				j = end
			}
			if len(p.values) == 0 {
				return nil, fmt.Errorf("sgf: property %s at byte %d has no value", p.id, i)
			}
			nodes[len(nodes)-1] = append(nodes[len(nodes)-1], p)
			i = j
		case strings.IndexByte(" \t\r\n", c) >= 0:
			i++
		default:
			return nil, fmt.Errorf("sgf: unexpected %q at byte %d", c, i)
		}
	}
	return nil, errors.New("sgf: the record is not closed by \")\"")
}

// sgfValue reads a property value starting at i (after its '['), with
// SGF's escapes; it returns the value and the index after its ']'.
func sgfValue(text string, i int) (string, int, error) {
	var sb strings.Builder
	for ; i < len(text); i++ {
		switch text[i] {
		case '\\':
			i++
			if i < len(text) {
				sb.WriteByte(text[i])
			}
		case ']':
			return sb.String(), i + 1, nil
		default:
			sb.WriteByte(text[i])
		}
	}
	return "", i, errors.New("sgf: a value is not closed by \"]\"")
}
