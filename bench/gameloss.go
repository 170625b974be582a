//go:build ignore

// Gameloss analyses the games of an `outflank match --games-out` file in
// which Outflank played as "self": where were the games it did not win
// decided, and which moves does the engine choose at given empties? Run
// from the repository root with `go run bench/gameloss.go MODE ...`:
//
// N is a number of games, the first N, or a range of game numbers A-B.
//
//	losses FILE.ggf N     for the first N games Outflank did not win: the
//	                      exact value at 24 empties (Outflank's view), and
//	                      each later move of Outflank's that lowered it
//	pick FILE.ggf N E,E.. for the first N games: at each of the empties
//	                      listed, Outflank's position, and the move a 0.5 s
//	                      search (a fresh table, one thread) chooses there
//	score PICK PICK...    the exact value of each pick file's move in the
//	                      same positions, and the sums against the first
//	                      file (discs, and win/draw/loss classes)
//	cost FILE.ggf N E     for the first N games, the position at E empties:
//	                      the exact solve's time and nodes, the search to
//	                      the end at 73/87/95% (time, nodes, score), and
//	                      what a 0.5 s search returns (as in a game)
//
// The engine's tuning knobs come from the environment in a build with
// -tags exptune (go run -tags exptune bench/gameloss.go ...).
// Its figures are in the journal, bench/journal/2026-11-22-midgame-mpc-node-speed.md.
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gameloss:", err)
		os.Exit(1)
	}
}

var (
	eng = search.New(search.Options{HashMB: 64, Threads: 1, Eval: eval.Default()})
	ctx = context.Background()
)

// solve returns the exact score of p for its side to move.
func solve(p bitboard.Position) int {
	return eng.Search(ctx, p, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil).Score
}

func run(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("usage: losses|pick|score|cost ARGS (see the doc comment)")
	}
	from, n := 1, 1<<30
	if len(args) > 2 {
		if a, b, ok := strings.Cut(args[2], "-"); ok {
			from, _ = strconv.Atoi(a)
			to, _ := strconv.Atoi(b)
			n = to - from + 1
		} else {
			n, _ = strconv.Atoi(args[2])
		}
	}
	switch args[0] {
	case "losses":
		return eachGame(args[1], from, n, true, losses)
	case "pick":
		if len(args) < 4 {
			return fmt.Errorf("pick FILE N E,E,...")
		}
		return eachGame(args[1], from, n, false, func(gi int, g game) { pick(gi, g, args[3]) })
	case "cost":
		if len(args) < 4 {
			return fmt.Errorf("cost FILE N E")
		}
		e, err := strconv.Atoi(args[3])
		if err != nil {
			return err
		}
		return eachGame(args[1], from, n, false, func(gi int, g game) { cost(gi, g, e) })
	case "score":
		return score(args[1:])
	}
	return fmt.Errorf("unknown mode %q", args[0])
}

// game is a game record with Outflank's colour and final result.
type game struct {
	ps    []bitboard.Position // every position, ps[0] the start
	moves []bitboard.GameMove
	me    bitboard.Color
	res   int // final disc difference for Outflank
}

// view turns a score for p's side to move into Outflank's view.
func (g game) view(p bitboard.Position, s int) int {
	if p.ToMove == g.me {
		return s
	}
	return -s
}

// eachGame calls f for n games of the file from game number from on (only
// those Outflank did not win if notWon), numbered from 1 in the file.
func eachGame(file string, from, n int, notWon bool, f func(int, game)) error {
	fh, err := bitboard.OpenRegular(file)
	if err != nil {
		return &os.PathError{Op: "open", Path: file, Err: err}
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	gi := 0
	for sc.Scan() && n > 0 {
		if !strings.HasPrefix(sc.Text(), "(;") {
			continue
		}
		gi++
		if gi < from {
			continue
		}
		r, err := bitboard.ParseGGF(sc.Text())
		if err != nil {
			return fmt.Errorf("game %d: %w", gi, err)
		}
		pb, _ := r.Prop("PB")
		re, _ := r.Prop("RE")
		res, err := strconv.ParseFloat(re, 64)
		if err != nil {
			return fmt.Errorf("game %d: RE %q: %w", gi, re, err)
		}
		g := game{ps: r.Positions(), moves: r.Moves, me: bitboard.White, res: -int(res)}
		if strings.HasPrefix(pb, "self") {
			g.me, g.res = bitboard.Black, int(res)
		}
		if notWon && g.res > 0 {
			continue
		}
		n--
		f(gi, g)
	}
	return sc.Err()
}

// losses prints the exact value at 24 empties and Outflank's moves that
// lowered the exact value after it.
func losses(gi int, g game) {
	k := 0
	for k < len(g.ps)-1 && g.ps[k].Empties() > 24 {
		k++
	}
	out := fmt.Sprintf("game %3d %s result %+3d exact at %d empties %+3d", gi, g.me, g.res, g.ps[k].Empties(), g.view(g.ps[k], solve(g.ps[k])))
	for i := k; i < len(g.moves); i++ {
		p := g.ps[i]
		if p.ToMove != g.me || g.moves[i].Square == bitboard.PassMove {
			continue
		}
		before, after := g.view(p, solve(p)), g.view(g.ps[i+1], solve(g.ps[i+1]))
		if after < before {
			out += fmt.Sprintf("; at %d empties %s %+d -> %+d (%.2f s)", p.Empties(), g.moves[i].Square, before, after, g.moves[i].Time)
		}
	}
	fmt.Println(out)
}

// pick prints, for each of the empties listed, Outflank's first position
// with that many empties and at least two moves, and the move a 0.5 s
// search chooses there: "game empties board side move score depth@sel".
func pick(gi int, g game, list string) {
	for _, es := range strings.Split(list, ",") {
		e, _ := strconv.Atoi(es)
		for _, p := range g.ps {
			if p.Empties() == e && p.ToMove == g.me && bitboard.Count(p.Moves()) > 1 {
				eng.Clear()
				in := eng.Search(ctx, p, search.Limits{Depth: 60, EndgameEmpties: 24, Time: 500 * time.Millisecond}, nil)
				fmt.Printf("%d %d %s %s %+d %d@%d\n", gi, e, p, in.Best, in.Score, in.Depth, in.Selectivity)
				break
			}
		}
	}
}

// score reads pick files (same games and empties, line by line) and prints
// each move's exact value, then the sums against the first file.
func score(files []string) error {
	var rows [][]string
	for _, f := range files {
		b, err := bitboard.ReadRegular(f)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if len(rows) <= i {
				rows = append(rows, nil)
			}
			rows[i] = append(rows[i], line)
		}
	}
	discs, classes := make([]int, len(files)), make([]int, len(files))
	for _, r := range rows {
		f := strings.Fields(r[0])
		if len(f) < 5 || len(r) != len(files) {
			return fmt.Errorf("pick files differ in length or format at %q", r[0])
		}
		pos, err := bitboard.ParseBoard(f[2] + " " + f[3])
		if err != nil {
			return err
		}
		out := f[0] + " " + f[1]
		vals := map[string]int{}
		for j, line := range r {
			mv := strings.Fields(line)[4]
			v, ok := vals[mv]
			if !ok {
				sq, err := bitboard.ParseSquare(mv)
				if err != nil || !pos.IsLegal(sq) {
					return fmt.Errorf("%q: move %s", line, mv)
				}
				v = -solve(pos.Play(sq))
				vals[mv] = v
			}
			first := vals[strings.Fields(r[0])[4]]
			discs[j] += v - first
			classes[j] += sign(v) - sign(first)
			out += fmt.Sprintf(" %s:%+d", mv, v)
		}
		fmt.Println(out)
	}
	fmt.Println("discs against the first file:", discs, "win/draw/loss classes (a class is half a point):", classes)
	return nil
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// cost prints, for the game's first position with e empties, the exact
// solve's time and nodes, those of the search to the end at 73, 87 and
// 95% (cumulative), and the result of a 0.5 s search (each from a fresh
// table).
func cost(gi int, g game, e int) {
	for _, p := range g.ps {
		if p.Empties() != e || p.MustPass() {
			continue
		}
		eng.Clear()
		in := eng.Search(ctx, p, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil)
		out := fmt.Sprintf("game %d, %d empties: exact %+d in %.3f s, %d k nodes;", gi, e, in.Score, in.Time.Seconds(), in.Nodes/1000)
		eng.Clear()
		c, stop := context.WithCancel(ctx)
		eng.Search(c, p, search.Limits{Depth: 60, Selectivity: 73, EndgameEmpties: 1}, func(i search.Info) {
			if i.Depth == e {
				out += fmt.Sprintf(" %d%% %+d in %.3f s, %d k nodes;", i.Selectivity, i.Score, i.Time.Seconds(), i.Nodes/1000)
				if i.Selectivity >= 95 {
					stop()
				}
			}
		})
		stop()
		eng.Clear()
		in = eng.Search(ctx, p, search.Limits{Depth: 60, EndgameEmpties: 24, Time: 500 * time.Millisecond}, nil)
		out += fmt.Sprintf(" a 0.5 s search: %s %+d, %d@%d%%, exact %v", in.Best, in.Score, in.Depth, in.Selectivity, in.Exact)
		fmt.Println(out)
		return
	}
}
