// Package wthor reads the WTHOR game database of the French Othello
// Federation: yearly .wtb files of tournament games, each with its move list,
// black's final disc count and the theoretical score of perfect play from
// the position reached at a given number of empties.
package wthor

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/outflank-othello/outflank/bitboard"
)

const (
	headerSize = 16
	recordSize = 68
)

// Header is the 16-byte header of a WTHOR file.
type Header struct {
	Created         [4]byte // century, year, month, day
	Games           int     // number of game records
	Year            int     // year of the games
	BoardSize       int     // 0 or 8 mean 8x8
	Solitaire       bool
	TheoryEmpties   int // empties at which the theoretical score was computed
	NamesOrEntities int // records in a JOU/TRN file
}

// Game is one game record.
type Game struct {
	Record      int // 1-based record number in its file
	Tournament  int
	BlackPlayer int
	WhitePlayer int
	// BlackScore is black's disc count as recorded: the final count with the
	// empties given to the winner for a finished game, the official result
	// otherwise.
	BlackScore int
	// TheoreticalScore is black's disc count after perfect play from the
	// position with TheoryEmpties empties reached in the game.
	TheoreticalScore int
	// Moves lists the moves as stored: passes are not recorded.
	Moves []bitboard.Square
}

// ErrTruncated marks a file whose size does not match its header: its
// whole records are still returned, and a caller that uses them must say
// so rather than report the file as skipped.
var ErrTruncated = errors.New("truncated or padded")

// Parse reads a whole .wtb file. A record with an unreadable square stops
// nothing: it is returned in bad with its error, and the other records are
// kept. Only a broken header or size is an error.
func Parse(data []byte) (h Header, games []Game, bad []error, err error) {
	if len(data) < headerSize {
		return h, nil, nil, fmt.Errorf("file of %d bytes is shorter than the %d-byte header", len(data), headerSize)
	}
	copy(h.Created[:], data[:4])
	h.Games = int(binary.LittleEndian.Uint32(data[4:8]))
	h.NamesOrEntities = int(binary.LittleEndian.Uint16(data[8:10]))
	h.Year = int(binary.LittleEndian.Uint16(data[10:12]))
	h.BoardSize = int(data[12])
	h.Solitaire = data[13] == 1
	h.TheoryEmpties = int(data[14])
	if h.TheoryEmpties == 0 {
		h.TheoryEmpties = 22
	}
	if h.BoardSize != 0 && h.BoardSize != 8 {
		return h, nil, nil, fmt.Errorf("board size %d: only 8x8 is supported", h.BoardSize)
	}
	body := data[headerSize:]
	n := len(body) / recordSize
	if len(body)%recordSize != 0 || n != h.Games {
		// Keep what is whole: a truncated file still has good records.
		err = fmt.Errorf("%w: header says %d games but the file holds %d bytes of records; its %d whole records are read",
			ErrTruncated, h.Games, len(body), n)
	}
	for i := 0; i < n; i++ {
		r := body[i*recordSize : (i+1)*recordSize]
		g := Game{
			Record:           i + 1,
			Tournament:       int(binary.LittleEndian.Uint16(r[0:2])),
			BlackPlayer:      int(binary.LittleEndian.Uint16(r[2:4])),
			WhitePlayer:      int(binary.LittleEndian.Uint16(r[4:6])),
			BlackScore:       int(r[6]),
			TheoreticalScore: int(r[7]),
		}
		var recErr error
		for j, b := range r[8:] {
			if b == 0 {
				break
			}
			row, col := int(b/10), int(b%10)
			if row < 1 || row > 8 || col < 1 || col > 8 {
				recErr = fmt.Errorf("record %d: move %d: byte %d is not a square", i+1, j+1, b)
				break
			}
			g.Moves = append(g.Moves, bitboard.SquareAt(col-1, row-1))
		}
		if recErr == nil && (g.BlackScore > 64 || g.TheoreticalScore > 64) {
			recErr = fmt.Errorf("record %d: score %d/%d is over 64", i+1, g.BlackScore, g.TheoreticalScore)
		}
		if recErr != nil {
			bad = append(bad, recErr)
			continue
		}
		games = append(games, g)
	}
	return h, games, bad, err
}

// ReadFile reads one .wtb file; errors name the file.
func ReadFile(path string) (Header, []Game, []error, error) {
	data, err := bitboard.ReadRegular(path)
	if err != nil {
		return Header{}, nil, nil, err
	}
	h, games, bad, err := Parse(data)
	for i := range bad {
		bad[i] = fmt.Errorf("%s: %w", path, bad[i])
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return h, games, bad, err
}

// Files lists the .wtb files of a directory in name (year) order.
func Files(dir string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "*.wtb"))
	if err != nil {
		return nil, err
	}
	m2, _ := filepath.Glob(filepath.Join(dir, "*.WTB"))
	m = append(m, m2...)
	sort.Strings(m)
	if len(m) == 0 {
		return nil, fmt.Errorf("%s: no .wtb files", dir)
	}
	return m, nil
}

// Replay plays the game from the standard start, making passes explicit.
// It returns the moves (passes included) and every position, positions[0]
// being the start. An illegal move is an error naming the record and move.
func (g *Game) Replay() ([]bitboard.Square, []bitboard.Position, error) {
	moves, pos, err := bitboard.Replay(bitboard.Start(), g.Moves)
	if err != nil {
		return moves, pos, fmt.Errorf("record %d: %w", g.Record, err)
	}
	return moves, pos, nil
}
