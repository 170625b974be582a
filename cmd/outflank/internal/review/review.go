// Package review is the work of "outflank review": it solves finished
// games exactly from a number of empties on and tells what every move
// cost its player, game by game and by player.
package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/train"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// reviewMaxEmpties bounds --empties: beyond it a game's first solve takes
// minutes to hours (solve's reach is 30, for one position).
const reviewMaxEmpties = 28

// gameReview is what review finds in one game, from black's side.
type gameReview struct {
	source       string
	black, white string
	empties      int    // empties of the first position solved
	exact        int    // black's exact value there
	final        int    // black's final score (empties to the winner)
	lost         [2]int // discs given away by black (0) and white (1)
	errors       [2]int // moves that gave away any
}

// Flags are the flags of "outflank review".
type Flags struct {
	empties *int
	hash    *int
	threads *int
}

// AddFlags declares the flags of "outflank review" on fs.
func AddFlags(fs *pflag.FlagSet) *Flags {
	fl := &Flags{
		empties: fs.Int("empties", 24, "solve every position from the first with this many empties or fewer"),
		hash:    fs.Int("hash", search.DefaultHashMB, "transposition table size in MiB"),
		threads: fs.Int("threads", 1, "search threads"),
	}
	cli.Bound(fs, "empties", 0, reviewMaxEmpties)
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(fs, "threads", 1, cli.MaxThreads)
	return fl
}

// Run runs "outflank review" with the parsed flags fl and the arguments left.
func Run(e *cli.Env, fl *Flags, args []string) error {
	if len(args) == 0 {
		return errors.New("review: want at least one GGF file of games")
	}
	var games []*bitboard.Game
	var sources []string
	for _, path := range args {
		gs, srcs, err := train.ReadFinishedGGF(path, func(err error) { fmt.Fprintf(e.Stderr, "review: skipped %v\n", err) }, nil)
		if err != nil {
			return fmt.Errorf("review: %w", err)
		}
		games = append(games, gs...)
		sources = append(sources, srcs...)
	}
	if len(games) == 0 {
		return errors.New("review: no finished game to review")
	}
	eng := search.New(search.Options{HashMB: *fl.hash, Threads: *fl.threads})
	var reviews []gameReview
	fmt.Fprintf(e.Stdout, "%4s %6s %5s %5s %12s %12s  %s\n", "#", "empt", "exact", "final", "black lost", "white lost", "record (black's values: discs, empties to the winner)")
	for i, g := range games {
		r := reviewGame(eng, g, *fl.empties)
		r.source = sources[i]
		reviews = append(reviews, r)
		fmt.Fprintf(e.Stdout, "%4d %6d %+5d %+5d %6d in %-3d %6d in %-3d  %s\n", i+1, r.empties, r.exact, r.final,
			r.lost[0], r.errors[0], r.lost[1], r.errors[1], r.source)
	}
	printReviewSummary(e.Stdout, reviews, *fl.empties)
	return nil
}

// reviewGame solves the positions of g from the first with at most
// maxEmpties empties (or the start, if it has fewer) to the end, keeping
// the hash table between them: each solve finds most of its tree there.
func reviewGame(eng *search.Engine, g *bitboard.Game, maxEmpties int) gameReview {
	r := gameReview{}
	r.black, _ = g.Prop("PB")
	r.white, _ = g.Prop("PW")
	ps := g.Positions()
	first := slices.IndexFunc(ps, func(p bitboard.Position) bool { return p.Empties() <= maxEmpties })
	if first < 0 { // the game ended with more empties (a wipeout): only its end
		first = len(ps) - 1
	}
	// values[k] is black's exact value of ps[first+k], filled from the end:
	// a pass's value is its successor's (the same board).
	values := make([]int, len(ps)-first)
	eng.Clear()
	for k := len(ps) - 1; k >= first; k-- {
		p := ps[k]
		switch {
		case p.GameOver():
			values[k-first] = blackView(p, p.FinalScore())
		case p.MustPass():
			values[k-first] = values[k+1-first]
		default:
			info := play.Think(context.Background(), eng, p, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
			values[k-first] = blackView(p, info.Score)
		}
	}
	r.empties = ps[first].Empties()
	r.exact = values[0]
	r.final = values[len(values)-1]
	for k := first; k < len(ps)-1; k++ {
		if g.Moves[k].Square == bitboard.PassMove {
			continue
		}
		side := 0
		cost := values[k-first] - values[k+1-first]
		if ps[k].ToMove == bitboard.White {
			side, cost = 1, -cost
		}
		r.lost[side] += cost
		if cost > 0 {
			r.errors[side]++
		}
	}
	return r
}

// blackView turns a score for p's side to move into black's.
func blackView(p bitboard.Position, v int) int {
	if p.ToMove == bitboard.White {
		return -v
	}
	return v
}

// printReviewSummary writes, for each player name, the games, the discs
// given away and the results under perfect play from the first solved
// position against those played.
func printReviewSummary(w io.Writer, rs []gameReview, maxEmpties int) {
	var names []string
	for _, r := range rs {
		for _, n := range []string{r.black, r.white} {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	fmt.Fprintf(w, "\nFrom %d empties on (or the first position with fewer), by player:\n", maxEmpties)
	for _, name := range names {
		var games, lost, errs int
		var perfect, played float64
		var table [3][3]int // [perfect-play result][played result]: loss, draw, win
		for _, r := range rs {
			for side, n := range []string{r.black, r.white} {
				if n != name {
					continue
				}
				sign := 1 - 2*side // black's values to this player's
				ex, fin := sign*r.exact, sign*r.final
				games++
				lost += r.lost[side]
				errs += r.errors[side]
				perfect += points(ex)
				played += points(fin)
				table[outcome(ex)][outcome(fin)]++
			}
		}
		fmt.Fprintf(w, "%s\n", name)
		fmt.Fprintf(w, "  %d games, %.2f discs given away a game in %.2f moves; score %.1f%% with perfect play from there, %.1f%% played\n",
			games, float64(lost)/float64(games), float64(errs)/float64(games), 100*perfect/float64(games), 100*played/float64(games))
		fmt.Fprintf(w, "  %-20s %6s %6s %6s\n", "perfect play / played", "loss", "draw", "win")
		for i, label := range []string{"loss", "draw", "win"} {
			fmt.Fprintf(w, "  %-20s %6d %6d %6d\n", label, table[i][0], table[i][1], table[i][2])
		}
	}
}

// outcome is 0, 1 or 2 for a loss, a draw or a win; points is the game's
// points.
func outcome(v int) int {
	switch {
	case v < 0:
		return 0
	case v == 0:
		return 1
	}
	return 2
}

func points(v int) float64 { return float64(outcome(v)) / 2 }
