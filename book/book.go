// Package book is Outflank's opening book: statistics of positions reached in
// strong games, keyed by the position's canonical form so that the eight
// symmetric forms of a position share one entry. An entry counts the games
// that reached the position and the sum of their final disc differences
// (for the side to move; WTHOR games contribute their theoretical score, the
// result of perfect play from 24 empties). The engine probes it to play known
// good opening moves instantly and to show GUIs "book" lines, and learns from
// every finished game it is given.
//
// The book is built from the WTHOR database (outflank book build); a default
// book is embedded in the binary, and --book FILE loads another.
package book

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sort"

	"github.com/outflank-othello/outflank/bitboard"
)

// Entry is what the book knows of one position.
type Entry struct {
	Games    uint32
	ScoreSum int32 // sum of final disc differences for the side to move
}

// Mean returns the average final disc difference for the side to move.
func (e Entry) Mean() float64 {
	if e.Games == 0 {
		return 0
	}
	return float64(e.ScoreSum) / float64(e.Games)
}

type key struct{ p, o uint64 }

func keyOf(p bitboard.Position) key {
	c, _ := p.Canonical()
	return key{c.Player, c.Opponent}
}

// Book maps positions to entries. The zero value is not usable; use New.
// A Book is not safe for concurrent writers; concurrent readers are fine.
type Book struct {
	entries map[key]Entry
	// MaxPly is the number of plies from the start (passes excluded) that
	// AddGame records; deeper positions are too rare to be worth keeping.
	MaxPly int
}

// New returns an empty book recording positions up to maxPly.
func New(maxPly int) *Book { return &Book{entries: map[key]Entry{}, MaxPly: maxPly} }

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.entries) }

// Lookup returns the entry of p, if the book has one.
func (b *Book) Lookup(p bitboard.Position) (Entry, bool) {
	e, ok := b.entries[keyOf(p)]
	return e, ok
}

// AddGame records every position of a game (from start, through moves, up to
// MaxPly discs placed) with the game's final result, given as black's disc
// difference. An illegal move is an error and nothing is recorded.
func (b *Book) AddGame(start bitboard.Position, moves []bitboard.Square, blackDiff int) error {
	if blackDiff < -64 || blackDiff > 64 {
		return fmt.Errorf("book: result %d is not a disc difference", blackDiff)
	}
	_, positions, err := bitboard.Replay(start, moves)
	if err != nil {
		return fmt.Errorf("book: %w", err)
	}
	startDiscs := 64 - start.Empties()
	seen := map[key]bool{} // a position counts once per game (passes repeat boards)
	for _, p := range positions {
		if 64-p.Empties()-startDiscs > b.MaxPly {
			break
		}
		k := keyOf(p)
		if seen[k] {
			continue
		}
		seen[k] = true
		s := blackDiff
		if p.ToMove == bitboard.White {
			s = -s
		}
		e := b.entries[k]
		e.Games++
		e.ScoreSum += int32(s)
		b.entries[k] = e
	}
	return nil
}

// Prune drops the positions seen in fewer than minGames games.
func (b *Book) Prune(minGames uint32) {
	for k, e := range b.entries {
		if e.Games < minGames {
			delete(b.entries, k)
		}
	}
}

// Candidate is a book move of a position with what the book knows of the
// position it leads to, from the point of view of the side that plays it.
type Candidate struct {
	Move  bitboard.Square
	Games uint32
	Score float64 // mean final disc difference for the mover
	// Rank is the score used to order moves: the sum of the results over
	// (games + priorGames), i.e. the mean shrunk towards a draw, so that a
	// line seen in three games does not outrank one seen in three thousand
	// on a lucky average.
	Rank float64
}

// priorGames is the weight of the "draw" prior in Candidate.Rank.
const priorGames = 4

// Moves lists the legal moves of p that lead to book positions, best first
// (by Rank, then by games).
func (b *Book) Moves(p bitboard.Position) []Candidate {
	var out []Candidate
	for m := p.Moves(); m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		c := p.Play(sq)
		e, ok := b.Lookup(c)
		if !ok {
			continue
		}
		// The child's entry is for the opponent (to move there), unless the
		// opponent must pass, when the mover is to move again.
		s := -e.Mean()
		if c.Moves() == 0 && !c.GameOver() {
			if e2, ok2 := b.Lookup(c.Pass()); ok2 {
				e, s = e2, e2.Mean()
			}
		}
		rank := s * float64(e.Games) / float64(e.Games+priorGames)
		out = append(out, Candidate{Move: sq, Games: e.Games, Score: s, Rank: rank})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Rank != out[j].Rank {
			return out[i].Rank > out[j].Rank
		}
		return out[i].Games > out[j].Games
	})
	return out
}

// Best returns the book move of p: the best-ranked move among those played
// in at least minGames games. ok is false when p is out of book.
func (b *Book) Best(p bitboard.Position, minGames uint32) (Candidate, bool) {
	for _, c := range b.Moves(p) {
		if c.Games >= minGames {
			return c, true
		}
	}
	return Candidate{}, false
}

// File format: magic "OFBOOK1\n", then little-endian uint32 MaxPly, uint32
// entry count, entries sorted by key (uint64 player, uint64 opponent, uint32
// games, int32 score sum), and a CRC-32 (IEEE) of everything before it.
const magic = "OFBOOK1\n"

const entrySize = 24

// Errors of Read.
var (
	ErrNotABook = errors.New("not an Outflank book file (bad magic)")
	ErrCorrupt  = errors.New("book file is truncated or corrupt")
)

// Write saves the book; entries are sorted so equal books give equal files.
func (b *Book) Write(w io.Writer) error {
	keys := make([]key, 0, len(b.entries))
	for k := range b.entries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i].p < keys[j].p || keys[i].p == keys[j].p && keys[i].o < keys[j].o
	})
	buf := make([]byte, 0, len(magic)+8+len(keys)*entrySize+4)
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(b.MaxPly))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(keys)))
	for _, k := range keys {
		e := b.entries[k]
		buf = binary.LittleEndian.AppendUint64(buf, k.p)
		buf = binary.LittleEndian.AppendUint64(buf, k.o)
		buf = binary.LittleEndian.AppendUint32(buf, e.Games)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(e.ScoreSum))
	}
	buf = binary.LittleEndian.AppendUint32(buf, crc32.ChecksumIEEE(buf))
	_, err := w.Write(buf)
	return err
}

// Read loads a book written by Write, checking magic, size and checksum.
func Read(data []byte) (*Book, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, ErrNotABook
	}
	if len(data) < len(magic)+12 {
		return nil, ErrCorrupt
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	maxPly := binary.LittleEndian.Uint32(body[len(magic):])
	n := binary.LittleEndian.Uint32(body[len(magic)+4:])
	if uint64(len(body)) != uint64(len(magic))+8+uint64(n)*entrySize {
		return nil, fmt.Errorf("%w: %d entries announced, %d bytes present", ErrCorrupt, n, len(data))
	}
	if crc32.ChecksumIEEE(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	b := &Book{entries: make(map[key]Entry, n), MaxPly: int(maxPly)}
	r := body[len(magic)+8:]
	for i := uint32(0); i < n; i++ {
		x := r[i*entrySize:]
		k := key{binary.LittleEndian.Uint64(x), binary.LittleEndian.Uint64(x[8:])}
		b.entries[k] = Entry{Games: binary.LittleEndian.Uint32(x[16:]), ScoreSum: int32(binary.LittleEndian.Uint32(x[20:]))}
	}
	return b, nil
}

// Load reads a book file; errors name the file.
func Load(path string) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Save writes the book to a file.
func (b *Book) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := b.Write(w); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

//go:embed default.book
var defaultBook []byte

// Default returns the book embedded in the binary (built from WTHOR; see
// book/README.md). Each call returns a fresh copy that may be learnt into.
func Default() (*Book, error) {
	return Read(bytes.Clone(defaultBook))
}
