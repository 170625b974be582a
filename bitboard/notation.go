package bitboard

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ParseBoard reads a board string: 64 squares from a1 to h8 row by row, then
// the side to move. Discs are X, x, *, B or b for black, O, o, 0, W or w for
// white, and -, ., _ or e for empty. Spaces between squares are allowed (GGS
// puts one after each row); the side to move may be given with or without a
// space before it. Errors name the offending character and its position.
func ParseBoard(s string) (Position, error) {
	var black, white uint64
	n := 0
	i := 0
	for ; i < len(s) && n < 64; i++ {
		c := s[i]
		switch c {
		case ' ', '\t':
			continue
		case 'X', 'x', '*', 'B', 'b':
			black |= 1 << uint(n)
		case 'O', 'o', '0', 'W', 'w':
			white |= 1 << uint(n)
		case '-', '.', '_', 'e', 'E':
		default:
			return Position{}, fmt.Errorf("board: bad square character %q at column %d (want X, O or -)", c, i+1)
		}
		n++
	}
	if n < 64 {
		return Position{}, fmt.Errorf("board: only %d of 64 squares", n)
	}
	rest := strings.TrimSpace(s[i:])
	if rest == "" {
		return Position{}, fmt.Errorf("board: side to move missing after the 64 squares (want X or O)")
	}
	if len(rest) != 1 {
		return Position{}, fmt.Errorf("board: unexpected %q after the side to move at column %d", rest, len(s)-len(rest)+2)
	}
	var side Color
	switch rest[0] {
	case 'X', 'x', '*', 'B', 'b':
		side = Black
	case 'O', 'o', '0', 'W', 'w':
		side = White
	default:
		return Position{}, fmt.Errorf("board: bad side to move %q (want X or O)", rest)
	}
	return FromColors(black, white, side), nil
}

// String returns the position as an OBF board string: 64 squares (X black,
// O white, - empty), a space and the side to move.
func (p Position) String() string {
	return p.BoardString('X', 'O', '-', "")
}

// BoardString writes the 64 squares with the given characters, sep after each
// row but the last (GGS uses " "), then a space and the side to move.
func (p Position) BoardString(black, white, empty byte, sep string) string {
	var sb strings.Builder
	b, w := p.Black(), p.White()
	for sq := 0; sq < 64; sq++ {
		switch {
		case b>>uint(sq)&1 != 0:
			sb.WriteByte(black)
		case w>>uint(sq)&1 != 0:
			sb.WriteByte(white)
		default:
			sb.WriteByte(empty)
		}
		if sq%8 == 7 && sq != 63 {
			sb.WriteString(sep)
		}
	}
	sb.WriteByte(' ')
	if p.ToMove == White {
		sb.WriteByte(white)
	} else {
		sb.WriteByte(black)
	}
	return sb.String()
}

// Picture draws the board for a person: a header of columns, one line a
// row, X black, O white, and marked squares (e.g. the legal moves) as '*'.
func (p Position) Picture(marks uint64) string {
	var sb strings.Builder
	sb.WriteString("  a b c d e f g h\n")
	b, w := p.Black(), p.White()
	for r := 0; r < 8; r++ {
		sb.WriteByte('1' + byte(r))
		for c := 0; c < 8; c++ {
			bit := SquareAt(c, r).Bit()
			ch := byte('-')
			switch {
			case b&bit != 0:
				ch = 'X'
			case w&bit != 0:
				ch = 'O'
			case marks&bit != 0:
				ch = '*'
			}
			sb.WriteByte(' ')
			sb.WriteByte(ch)
		}
		sb.WriteString(" " + string('1'+byte(r)))
		switch r {
		case 3:
			fmt.Fprintf(&sb, "   X black: %2d", Count(b))
		case 4:
			fmt.Fprintf(&sb, "   O white: %2d", Count(w))
		}
		sb.WriteByte('\n')
	}
	sb.WriteString("  a b c d e f g h\n")
	return sb.String()
}

// MoveScore is one "move:score" field of an OBF line.
type MoveScore struct {
	Move  Square
	Score int
}

// OBFEntry is one position of an OBF file with its optional move scores and
// the line it came from.
type OBFEntry struct {
	Position Position
	Scores   []MoveScore
	Line     int
}

// ParseOBFLine reads one OBF line: a board string, then optional fields
// "MOVE:SCORE;" (e.g. "G8:+38;"). A '%' starts a comment. It returns
// ok=false for a blank or comment-only line.
func ParseOBFLine(line string) (e OBFEntry, ok bool, err error) {
	if i := strings.IndexByte(line, '%'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if line == "" {
		return e, false, nil
	}
	board, fields, _ := strings.Cut(line, ";")
	e.Position, err = ParseBoard(board)
	if err != nil {
		return e, false, err
	}
	for _, f := range strings.Split(fields, ";") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		mv, sc, found := strings.Cut(f, ":")
		if !found {
			return e, false, fmt.Errorf("move score %q: want MOVE:SCORE", f)
		}
		sq, err := ParseSquare(mv)
		if err != nil {
			return e, false, fmt.Errorf("move score %q: %w", f, err)
		}
		v, err := strconv.Atoi(strings.TrimSpace(sc))
		if err != nil || v < -64 || v > 64 {
			return e, false, fmt.Errorf("move score %q: score is not an integer from -64 to 64", f)
		}
		e.Scores = append(e.Scores, MoveScore{Move: sq, Score: v})
	}
	return e, true, nil
}

// ReadOBF reads every position of an OBF stream. Errors name the line.
func ReadOBF(r io.Reader) ([]OBFEntry, error) {
	var out []OBFEntry
	ls := NewLines(r)
	for ls.Scan() {
		e, ok, err := ParseOBFLine(ls.Text())
		if err != nil {
			return out, &LineError{Line: ls.Line(), Err: err}
		}
		if ok {
			e.Line = ls.Line()
			out = append(out, e)
		}
	}
	return out, ls.Err()
}

// ParseMoves splits a move list into squares: either concatenated
// ("f5d6c3"), or separated by spaces, commas, dashes or dots ("f5 d6", "F5-D6"),
// with optional explicit passes ("PA", "pass", "--"). It checks only the
// notation; Replay checks legality.
func ParseMoves(s string) ([]Square, error) {
	var out []Square
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == ',' || c == ';' || c == '.' || c == '\n' || c == '\r':
			i++
			continue
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			out = append(out, PassMove)
			i += 2
			continue
		case c == '-':
			i++
			continue
		}
		if i+4 <= len(s) && strings.EqualFold(s[i:i+4], "pass") {
			out = append(out, PassMove)
			i += 4
			continue
		}
		if i+2 > len(s) {
			return out, fmt.Errorf("move %d at column %d: truncated %q", len(out)+1, i+1, s[i:])
		}
		sq, err := ParseSquare(s[i : i+2])
		if err != nil {
			return out, fmt.Errorf("move %d at column %d: %w", len(out)+1, i+1, err)
		}
		out = append(out, sq)
		i += 2
	}
	return out, nil
}

// Replay plays moves from start, inserting the passes that a transcript
// leaves implied (when the side to move has no move, it passes before the
// next move is read). It returns every position (positions[0] == start,
// positions[i+1] after played[i]) and the moves with the passes made
// explicit. An illegal move stops the replay with an error naming it and
// its number.
func Replay(start Position, moves []Square) (played []Square, positions []Position, err error) {
	p := start
	positions = append(positions, p)
	for i, m := range moves {
		if m != PassMove && p.MustPass() {
			p = p.Pass()
			played = append(played, PassMove)
			positions = append(positions, p)
		}
		q, err := p.PlayMove(m)
		if err != nil {
			return played, positions, fmt.Errorf("move %d (%s) illegal for %s: %w", i+1, m, p.ToMove, err)
		}
		p = q
		played = append(played, m)
		positions = append(positions, p)
	}
	return played, positions, nil
}

// PlayTranscript parses and replays a move list from start, returning the
// final position.
func PlayTranscript(start Position, s string) (Position, error) {
	moves, err := ParseMoves(s)
	if err != nil {
		return start, err
	}
	_, pos, err := Replay(start, moves)
	return pos[len(pos)-1], err
}

// Transcript writes moves as a compact transcript ("f5d6c3"), leaving passes
// out as WTHOR and GGS move lists do.
func Transcript(moves []Square) string {
	var sb strings.Builder
	for _, m := range moves {
		if m != PassMove {
			sb.WriteString(m.String())
		}
	}
	return sb.String()
}
