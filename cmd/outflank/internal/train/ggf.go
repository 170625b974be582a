package train

import (
	"fmt"
	"os"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// ReadGGF reads the game records of a GGF file, such as the engine's own
// self-play games written by "outflank match --games-out". Records that
// cannot be used are reported through bad (with file and record number) and
// skipped: unreadable records, games from another start position, and games
// that do not reach the end (their result is not a disc count). Such games
// have no theoretical score: Extract labels them by the solver near the end
// and by their final score before.
func ReadGGF(path string, bad func(error)) ([]Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var games []Game
	rest := string(data)
	for n := 1; ; n++ {
		i := strings.Index(rest, "(;")
		if i < 0 {
			if n == 1 {
				// Not a GGF file at all (a wrong path, random bytes): an
				// error, not a file of no games that training ignores.
				return nil, fmt.Errorf("%s: no GGF game record (\"(;GM[Othello]...;)\") in %d bytes", path, len(data))
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
		if g.Start != bitboard.Start() {
			bad(fmt.Errorf("%s: record %d: not from the standard start position", path, n))
			continue
		}
		end := g.Current()
		if !end.GameOver() {
			bad(fmt.Errorf("%s: record %d: the game stops before its end (%d empties)", path, n, end.Empties()))
			continue
		}
		moves := make([]bitboard.Square, len(g.Moves))
		for k, m := range g.Moves {
			moves[k] = m.Square
		}
		games = append(games, Game{
			Source:     fmt.Sprintf("%s: record %d", path, n),
			Moves:      moves,
			BlackScore: end.BlackScoreEmptiesToWinner(),
		})
	}
	return games, nil
}
