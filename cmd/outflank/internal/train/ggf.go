package train

import (
	"errors"
	"fmt"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// ReadGGF reads the game records of a GGF file, such as the engine's own
// self-play games written by "outflank match --games-out". Records that
// cannot be used are reported through bad (with file and record number) and
// skipped: unreadable records, games that do not reach the end (their
// result is not a disc count), and games from another start position. Such
// games have no theoretical score: Extract labels them by the solver near
// the end and by their final score before.
func ReadGGF(path string, bad func(error)) ([]Game, error) {
	standard := func(g *bitboard.Game) error {
		if g.Start != bitboard.Start() {
			return errors.New("not from the standard start position")
		}
		return nil
	}
	recs, sources, err := ReadFinishedGGF(path, bad, standard)
	if err != nil {
		return nil, err
	}
	var games []Game
	for i, g := range recs {
		moves := make([]bitboard.Square, len(g.Moves))
		for k, m := range g.Moves {
			moves[k] = m.Square
		}
		games = append(games, Game{
			Source:     sources[i],
			Moves:      moves,
			BlackScore: g.Current().BlackScoreEmptiesToWinner(),
		})
	}
	return games, nil
}

// ReadFinishedGGF reads the game records of a GGF file that play to the
// end of the game and pass check (nil: every game), each with its source
// ("FILE: record N"). Unreadable records, those check refuses and games
// that stop early are reported through bad, in that order of precedence,
// and skipped; a file with no record at all is an error.
func ReadFinishedGGF(path string, bad func(error), check func(*bitboard.Game) error) ([]*bitboard.Game, []string, error) {
	data, err := bitboard.ReadRegular(path)
	if err != nil {
		return nil, nil, err
	}
	var games []*bitboard.Game
	var sources []string
	rest := string(data)
	for n := 1; ; n++ {
		i := strings.Index(rest, "(;")
		if i < 0 {
			if n == 1 {
				// Not a GGF file at all (a wrong path, random bytes): an
				// error, not a file of no games that a caller ignores.
				return nil, nil, fmt.Errorf("%s: no GGF game record (\"(;GM[Othello]...;)\") in %d bytes", path, len(data))
			}
			break
		}
		rest = rest[i:]
		j := strings.Index(rest, ";)")
		if j < 0 {
			bad(fmt.Errorf("%s: record %d: not closed with \";)\"", path, n))
			break
		}
		rec := rest[:j+2]
		rest = rest[j+2:]
		g, err := bitboard.ParseGGF(rec)
		if err != nil {
			bad(fmt.Errorf("%s: record %d: %w", path, n, err))
			continue
		}
		if check != nil {
			if err := check(g); err != nil {
				bad(fmt.Errorf("%s: record %d: %w", path, n, err))
				continue
			}
		}
		if end := g.Current(); !end.GameOver() {
			bad(fmt.Errorf("%s: record %d: the game stops before its end (%d empties)", path, n, end.Empties()))
			continue
		}
		games = append(games, g)
		sources = append(sources, fmt.Sprintf("%s: record %d", path, n))
	}
	return games, sources, nil
}
