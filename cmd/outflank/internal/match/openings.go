package match

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// Opening is where a pair of games starts: a start position and the moves
// already played from it (passes explicit), all recorded in the GGF.
type Opening struct {
	Name  string // transcript, "obf line N" or "start"
	Start bitboard.Position
	Moves []bitboard.Square
}

// Position returns the position after the opening moves.
func (o Opening) Position() bitboard.Position {
	p := o.Start
	for _, m := range o.Moves {
		if m == bitboard.PassMove {
			p = p.Pass()
		} else {
			p = p.Play(m)
		}
	}
	return p
}

// xotText is the XOT list of 10,784 balanced 8-move openings by Matthias
// Berg (berg.earthlingz.de/xot), the usual way to start engine matches from
// varied, roughly even positions.
//
//go:embed xot/openingslarge.txt
var xotText string

// XOT returns the built-in XOT openings.
func XOT() []Opening {
	ops, err := ReadOpenings(strings.NewReader(xotText))
	if err != nil {
		panic("match: built-in XOT openings: " + err.Error()) // checked by a test
	}
	return ops
}

// StandardStart is the single opening "no moves from the standard start".
func StandardStart() []Opening {
	return []Opening{{Name: "start", Start: bitboard.Start()}}
}

// ReadOpenings reads one opening transcript a line ("f5d6c4d3c2b3b4b5", or
// separated "f5 d6 c4"), played from the standard start. Blank lines and
// lines starting with '#' or '%' are skipped. Errors name the line.
func ReadOpenings(r io.Reader) ([]Opening, error) {
	var out []Opening
	ls := bitboard.NewLines(r)
	for ls.Scan() {
		line := strings.TrimSpace(ls.Text())
		if line == "" || line[0] == '#' || line[0] == '%' {
			continue
		}
		moves, err := bitboard.ParseMoves(line)
		if err != nil {
			return nil, ls.Errorf("%w", err)
		}
		played, pos, err := bitboard.Replay(bitboard.Start(), moves)
		if err != nil {
			return nil, ls.Errorf("%w", err)
		}
		if pos[len(pos)-1].GameOver() {
			return nil, ls.Errorf("the game is already over")
		}
		out = append(out, Opening{Name: bitboard.Transcript(played), Start: bitboard.Start(), Moves: played})
	}
	if err := ls.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("openings: no opening found")
	}
	return out, nil
}

// ReadStartPositions reads start positions from an OBF stream (one board
// and side to move a line; move scores, if any, are ignored).
func ReadStartPositions(r io.Reader) ([]Opening, error) {
	entries, err := bitboard.ReadOBF(r)
	if err != nil {
		return nil, err
	}
	var out []Opening
	for _, e := range entries {
		if e.Position.GameOver() {
			return nil, &bitboard.LineError{Line: e.Line, Err: errors.New("the game is already over")}
		}
		out = append(out, Opening{Name: fmt.Sprintf("obf line %d", e.Line), Start: e.Position})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("start positions: no position found")
	}
	return out, nil
}
