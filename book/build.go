package book

import (
	"fmt"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
)

// BuildStats says what FromWTHOR read.
type BuildStats struct {
	Files, Games, Skipped int
	Short                 int     // games that stop before the theory depth: no theoretical score
	Problems              []error // bad records, each naming its file and record
}

// FromWTHOR builds a book from every .wtb file of dir: each game contributes
// its positions up to maxPly with its theoretical score (perfect play from
// the position at the file's theory depth, which the strong opening play
// before it reached). Records that do not replay are reported and skipped.
func FromWTHOR(dir string, maxPly int) (*Book, BuildStats, error) {
	var st BuildStats
	files, err := wthor.Files(dir)
	if err != nil {
		return nil, st, err
	}
	b := New(maxPly)
	for _, f := range files {
		h, games, bad, err := wthor.ReadFile(f)
		if err != nil {
			st.Problems = append(st.Problems, err)
		}
		st.Problems = append(st.Problems, bad...)
		st.Skipped += len(bad)
		st.Files++
		for i := range games {
			g := &games[i]
			if len(g.Moves) < 60-h.TheoryEmpties {
				st.Short++
				continue
			}
			blackDiff := 2*g.TheoreticalScore - 64
			if err := b.AddGame(bitboard.Start(), g.Moves, blackDiff); err != nil {
				st.Problems = append(st.Problems, fmt.Errorf("%s record %d: %w", f, g.Record, err))
				st.Skipped++
				continue
			}
			st.Games++
		}
	}
	return b, st, nil
}
