package book

import (
	"fmt"
	"sort"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
)

// Seed is a position that real games reach, to be added to the book
// before any deviation.
type Seed struct {
	Pos   bitboard.Position
	Ply   int // discs placed since the start position
	Games int // lines (games, openings) that reach it, in any symmetric form
}

// SeedCounter counts the positions of lines (games or openings) so that the
// most played are valued first.
type SeedCounter struct {
	MaxPly int
	counts map[key]*Seed
}

// NewSeedCounter counts positions up to maxPly discs placed.
func NewSeedCounter(maxPly int) *SeedCounter {
	return &SeedCounter{MaxPly: maxPly, counts: map[key]*Seed{}}
}

// AddLine counts every position of a line from the standard start, up to
// MaxPly, once; the side to move of a counted position has a move (after
// a forced pass, the position after it is counted). An illegal move is an
// error and nothing is counted.
func (c *SeedCounter) AddLine(moves []bitboard.Square) error {
	_, positions, err := bitboard.Replay(bitboard.Start(), moves)
	if err != nil {
		return err
	}
	seen := map[key]bool{}
	for _, p := range positions {
		ply := 60 - p.Empties()
		if ply > c.MaxPly {
			break
		}
		if p.Moves() == 0 {
			continue
		}
		k, _ := keyOf(p)
		if seen[k] {
			continue
		}
		seen[k] = true
		s := c.counts[k]
		if s == nil {
			s = &Seed{Pos: p, Ply: ply}
			c.counts[k] = s
		}
		s.Games++
	}
	return nil
}

// Seeds returns the positions reached by at least minGames lines, most
// played first, then shallowest. A position is never reached by more lines
// than its predecessors on those lines, so every seed's parent in a line
// comes before it.
func (c *SeedCounter) Seeds(minGames int) []Seed {
	var out []Seed
	for _, s := range c.counts {
		if s.Games >= minGames {
			out = append(out, *s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Games != b.Games {
			return a.Games > b.Games
		}
		if a.Ply != b.Ply {
			return a.Ply < b.Ply
		}
		ka, _ := keyOf(a.Pos)
		kb, _ := keyOf(b.Pos)
		return ka.p < kb.p || ka.p == kb.p && ka.o < kb.o
	})
	return out
}

// Len returns the number of distinct positions counted.
func (c *SeedCounter) Len() int { return len(c.counts) }

// WTHORStats says what AddWTHOR read.
type WTHORStats struct {
	Files, Games, Skipped int
	Problems              []error // bad records, each naming its file and record
}

// AddWTHOR counts the games of every .wtb file of dir. Records that do not
// replay are reported and skipped.
func (c *SeedCounter) AddWTHOR(dir string) (WTHORStats, error) {
	var st WTHORStats
	files, err := wthor.Files(dir)
	if err != nil {
		return st, err
	}
	for _, f := range files {
		_, games, bad, err := wthor.ReadFile(f)
		if err != nil {
			st.Problems = append(st.Problems, err)
		}
		st.Problems = append(st.Problems, bad...)
		st.Skipped += len(bad)
		st.Files++
		for i := range games {
			g := &games[i]
			if err := c.AddLine(g.Moves); err != nil {
				st.Problems = append(st.Problems, fmt.Errorf("%s record %d: %w", f, g.Record, err))
				st.Skipped++
				continue
			}
			st.Games++
		}
	}
	return st, nil
}

// Coverage is how many of the counted positions reached by at least Games
// lines the book holds.
type Coverage struct{ Games, Positions, InBook int }

// Coverage measures, for each threshold, how many of the positions that at
// least that many lines reach are book positions: whether the book covers
// the openings that are actually played.
func (c *SeedCounter) Coverage(b *Book, thresholds []int) []Coverage {
	out := make([]Coverage, len(thresholds))
	for i, t := range thresholds {
		out[i].Games = t
	}
	for k, s := range c.counts {
		in := b.has(k)
		for i, t := range thresholds {
			if s.Games >= t {
				out[i].Positions++
				if in {
					out[i].InBook++
				}
			}
		}
	}
	return out
}
