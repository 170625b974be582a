package puzzle

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// The rulebook's Strategy section poses five corner puzzles whose diagrams
// did not survive in the text. This file searches, from a seed, for
// positions consistent with everything the booklet says about each one.
// The answers are reconstructions, not the booklet's diagrams.

// Spec is what the booklet states about one corner puzzle: Black is to move,
// Move is the solution, after it White's legal moves are exactly the keys of
// Replies, and after each reply Black can take the corner it maps to
// (NoSquare: some corner). Recolour says that each reply flips the disc
// Black placed on Move (puzzle #5's explanation).
type Spec struct {
	Name     string
	Move     bitboard.Square
	Replies  map[bitboard.Square]bitboard.Square
	Recolour bool
}

func sq(s string) bitboard.Square {
	q, err := bitboard.ParseSquare(s)
	if err != nil {
		panic(err)
	}
	return q
}

// Specs returns the booklet's statements about puzzles #2 to #5 (puzzle #1
// has its own search, Puzzle1).
func Specs() []Spec {
	return []Spec{
		{Name: "strategy-2", Move: sq("b6"), Replies: map[bitboard.Square]bitboard.Square{sq("b7"): sq("a8"), sq("g1"): sq("h1")}},
		{Name: "strategy-3", Move: sq("f8"), Replies: map[bitboard.Square]bitboard.Square{sq("b7"): sq("a8"), sq("b8"): sq("a8")}},
		{Name: "strategy-4", Move: sq("g1"), Replies: map[bitboard.Square]bitboard.Square{
			sq("b8"): bitboard.NoSquare, sq("f1"): bitboard.NoSquare, sq("g2"): bitboard.NoSquare, sq("g8"): bitboard.NoSquare}},
		{Name: "strategy-5", Move: sq("g7"), Replies: map[bitboard.Square]bitboard.Square{sq("g8"): sq("h8"), sq("h7"): sq("h8")}, Recolour: true},
	}
}

// Criteria are the soft statements of the booklet that every puzzle
// position should also meet: "there are plenty of empty squares on the
// board", "each time it is Black's turn, Black has many possible moves",
// "getting the first corner in each game" (no corner is taken yet), and
// Black has no corner move yet (the puzzle is to force one).
type Criteria struct {
	MinEmpties, MaxEmpties int
	MinBlackMoves          int
}

// DefaultCriteria returns the values the committed reconstructions used.
func DefaultCriteria() Criteria { return Criteria{MinEmpties: 20, MaxEmpties: 36, MinBlackMoves: 6} }

// Satisfies reports whether pos (black to move) meets spec and c, or why not.
func (s *Spec) Satisfies(pos bitboard.Position, c Criteria) (bool, string) {
	if pos.ToMove != bitboard.Black {
		return false, "white to move"
	}
	if e := pos.Empties(); e < c.MinEmpties || e > c.MaxEmpties {
		return false, fmt.Sprintf("%d empties", e)
	}
	moves := pos.Moves()
	if moves&s.Move.Bit() == 0 {
		return false, s.Move.String() + " illegal"
	}
	if (pos.Player|pos.Opponent)&Corners != 0 {
		return false, "a corner is taken"
	}
	if moves&Corners != 0 {
		return false, "black can already take a corner"
	}
	if bits.OnesCount64(moves) < c.MinBlackMoves {
		return false, "black has few moves"
	}
	q := pos.Play(s.Move)
	var want uint64
	for r := range s.Replies {
		want |= r.Bit()
	}
	if q.Moves() != want {
		return false, "white's replies are " + MovesString(q)
	}
	for r, corner := range s.Replies {
		after := q.Play(r)
		cm := after.Moves() & Corners
		if corner != bitboard.NoSquare {
			cm &= corner.Bit()
		}
		if cm == 0 {
			return false, "reply " + r.String() + " opens no stated corner"
		}
		if s.Recolour && after.Opponent&s.Move.Bit() == 0 {
			return false, "reply " + r.String() + " does not flip " + s.Move.String()
		}
	}
	if f := CornerForcing(pos); f != s.Move.Bit() {
		return false, "corner-forcing moves are " + bitboard.SquaresString(f)
	}
	return true, ""
}

// cost grades how far pos is from meeting spec and c: 0 when Satisfies
// holds, more the more statements fail, so that a local search can follow
// it downhill.
func (s *Spec) cost(pos bitboard.Position, c Criteria) int {
	cost := 0
	if e := pos.Empties(); e < c.MinEmpties {
		cost += 2 * (c.MinEmpties - e)
	} else if e > c.MaxEmpties {
		cost += 2 * (e - c.MaxEmpties)
	}
	moves := pos.Moves()
	cost += 2 * bits.OnesCount64(moves&Corners)
	cost += 3 * bits.OnesCount64((pos.Player|pos.Opponent)&Corners)
	if n := bits.OnesCount64(moves); n < c.MinBlackMoves {
		cost += c.MinBlackMoves - n
	}
	if moves&s.Move.Bit() == 0 {
		return cost + 30
	}
	q := pos.Play(s.Move)
	var want uint64
	for r := range s.Replies {
		want |= r.Bit()
	}
	got := q.Moves()
	cost += 4 * bits.OnesCount64(got^want)
	for r, corner := range s.Replies {
		if got&r.Bit() == 0 {
			continue
		}
		after := q.Play(r)
		cm := after.Moves() & Corners
		if corner != bitboard.NoSquare {
			cm &= corner.Bit()
		}
		if cm == 0 {
			cost += 2
		}
		if s.Recolour && after.Opponent&s.Move.Bit() == 0 {
			cost += 2
		}
	}
	if cost == 0 {
		cost += bits.OnesCount64(CornerForcing(pos) &^ s.Move.Bit())
	}
	return cost
}

// Tuning of Search: the annealing temperature and how many games without
// progress before a restart.
const searchTemp, searchStuck = 0.7, 3000

// Found is a reconstructed position and the game that reaches it.
type Found struct {
	Spec     string
	Position bitboard.Position
	Game     []bitboard.Square // from the standard start, passes included
	Tries    int               // random games played
}

// startSymmetries are the symmetries that map the standard start onto
// itself, so a position reached from the start stays reachable under them.
func startSymmetries() []bitboard.Symmetry {
	var out []bitboard.Symmetry
	for s := bitboard.Symmetry(0); s < 8; s++ {
		if bitboard.Start().Transform(s) == bitboard.Start() {
			out = append(out, s)
		}
	}
	return out
}

// Accept is an extra test a candidate must pass (e.g. "Black wins", given a
// solver); nil accepts all.
type Accept func(bitboard.Position) bool

// Search looks for a position that meets spec and c among games from the
// standard start, so that what it finds is reachable by construction
// (Found.Game reaches it). It is a seeded local search over games: keep
// the game whose best black-to-move position (under the symmetries that fix
// the start) has the lowest cost, replay it to a point shortly before that
// position and continue at random; accept the new game when it is no worse.
// It restarts from a fresh random game when stuck.
func Search(ctx context.Context, spec Spec, c Criteria, seed uint64, maxGames int, accept Accept) (Found, error) {
	cost := func(pos bitboard.Position) int { return spec.cost(pos, c) }
	return searchGames(ctx, spec.Name, uint64(spec.Move), cost, c, 0, seed, maxGames, accept)
}

// searchGames is Search for any cost function of black-to-move positions;
// stream picks the random stream for the seed. With avoid set, the random
// games play on those squares only when nothing else is legal, and only the
// identity symmetry is tried (avoid is meant for a fixed set of empties).
func searchGames(ctx context.Context, name string, stream uint64, costFn func(bitboard.Position) int, c Criteria, avoid uint64, seed uint64, maxGames int, accept Accept) (Found, error) {
	rng := rand.New(rand.NewPCG(seed, stream))
	syms := startSymmetries()
	if avoid != 0 {
		syms = syms[:1]
	}
	type scored struct {
		game []bitboard.Square
		cost int
		at   int // plies before the best position
		sym  bitboard.Symmetry
	}
	// playout keeps game[:k], continues at random and scores the result.
	playout := func(prefix []bitboard.Square) scored {
		pos := bitboard.Start()
		g := append([]bitboard.Square(nil), prefix...)
		for _, m := range g {
			if m == bitboard.PassMove {
				pos = pos.Pass()
			} else {
				pos = pos.Play(m)
			}
		}
		best := scored{cost: 1 << 30}
		for ply := len(g); ; ply++ {
			if pos.ToMove == bitboard.Black && pos.Empties() <= c.MaxEmpties+4 {
				for _, s := range syms {
					t := pos.Transform(s)
					k := costFn(t)
					if k == 0 && accept != nil && !accept(t) {
						k = 1
					}
					if k < best.cost {
						best.cost, best.at, best.sym = k, ply, s
					}
				}
			}
			if pos.GameOver() || pos.Empties() < c.MinEmpties || best.cost == 0 {
				break
			}
			m := pos.Moves()
			if avoid != 0 && m&^avoid != 0 {
				m &^= avoid
			}
			if m == 0 {
				pos = pos.Pass()
				g = append(g, bitboard.PassMove)
				continue
			}
			for k := rng.IntN(bits.OnesCount64(m)); k > 0; k-- {
				m &= m - 1
			}
			mv := bitboard.FirstSquare(m)
			pos = pos.Play(mv)
			g = append(g, mv)
		}
		best.game = g
		return best
	}
	cur := playout(nil)
	stuck := 0
	for n := 1; n <= maxGames; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return Found{}, ctx.Err()
		}
		if cur.cost == 0 {
			pos := bitboard.Start()
			moves := make([]bitboard.Square, cur.at)
			for i, m := range cur.game[:cur.at] {
				moves[i] = cur.sym.Square(m)
				if m == bitboard.PassMove {
					pos = pos.Pass()
				} else {
					pos = pos.Play(moves[i])
				}
			}
			return Found{Spec: name, Position: pos, Game: moves, Tries: n}, nil
		}
		back := rng.IntN(min(cur.at, 12) + 1)
		next := playout(cur.game[:cur.at-back])
		switch {
		case next.cost < cur.cost:
			cur, stuck = next, 0
		case next.cost == cur.cost:
			cur = next
			stuck++
		case rng.Float64() < math.Exp(-float64(next.cost-cur.cost)/searchTemp):
			cur = next
			stuck++
		default:
			stuck++
		}
		if stuck > searchStuck {
			cur, stuck = playout(nil), 0
		}
	}
	return Found{}, fmt.Errorf("%s: nothing found in %d games (seed %d)", name, maxGames, seed)
}

// Puzzle1Line is the booklet's continuation of puzzle #1, Black first.
const Puzzle1Line = "h2 h7 h8 g2 a5 a6 h1 g1 c1 c2 g7 f7 g8 f8 e8 d8 b7 b8 a8 a7 a2 b2 b1 a1"

// Puzzle1Spec returns what puzzle #1's solution says: h2, then White's only
// move is h7, after which Black can take h8.
func Puzzle1Spec() Spec {
	return Spec{Name: "strategy-1", Move: sq("h2"), Replies: map[bitboard.Square]bitboard.Square{sq("h7"): sq("h8")}}
}

// puzzle1Cost scores how far a position with puzzle #1's 24 empties is from
// the booklet: 0 means the line is legal, White has exactly one move at each of
// its turns, Black ends 54-10, h2 is the only corner-forcing move, Black has
// no corner move now and at least c.MinBlackMoves moves.
func puzzle1Cost(pos bitboard.Position, line []bitboard.Square, c Criteria) int {
	cost := 0
	moves := pos.Moves()
	if moves&Corners != 0 {
		cost += 2 * bits.OnesCount64(moves&Corners)
	}
	if n := bits.OnesCount64(moves); n < c.MinBlackMoves {
		cost += c.MinBlackMoves - n
	}
	if moves&line[0].Bit() != 0 {
		f := CornerForcing(pos)
		cost += bits.OnesCount64(f &^ line[0].Bit())
	}
	p := pos
	for i, m := range line {
		lm := p.Moves()
		if lm&m.Bit() == 0 {
			// Each move still to play weighs more than any later fault.
			return cost + 40*(len(line)-i)
		}
		if p.ToMove == bitboard.White {
			cost += 3 * (bits.OnesCount64(lm) - 1)
		}
		p = p.Play(m)
	}
	b := bits.OnesCount64(p.Black())
	if b > 54 {
		return cost + b - 54
	}
	return cost + 54 - b
}

// Puzzle1 searches for puzzle #1 among games from the standard start, as
// Search does, so that what it finds is reachable: the games avoid the 24
// squares that the printed continuation fills (playing there only when
// nothing else is legal), and a black-to-move position with exactly those
// 24 empties is scored by puzzle1Cost, 0 meaning every statement holds.
func Puzzle1(ctx context.Context, c Criteria, seed uint64, maxGames int, accept Accept) (Found, error) {
	line, err := bitboard.ParseMoves(Puzzle1Line)
	if err != nil {
		return Found{}, err
	}
	var empty uint64
	for _, m := range line {
		empty |= m.Bit()
	}
	c.MinEmpties, c.MaxEmpties = len(line), len(line)
	cost := func(pos bitboard.Position) int {
		if pos.Empty() != empty {
			return 200 + 10*bits.OnesCount64(pos.Empty()^empty)
		}
		return puzzle1Cost(pos, line, c)
	}
	return searchGames(ctx, Puzzle1Spec().Name, 7, cost, c, empty, seed, maxGames, accept)
}

// Description is a plausibility note for a reconstructed position.
func Description(pos bitboard.Position) string {
	parts := []string{fmt.Sprintf("%d discs (%d-%d), %d empties", 64-pos.Empties(),
		bits.OnesCount64(pos.Black()), bits.OnesCount64(pos.White()), pos.Empties())}
	if why := Implausible(pos); why != "" {
		parts = append(parts, why)
	} else {
		parts = append(parts, "centre filled, discs connected")
	}
	parts = append(parts, fmt.Sprintf("%s moves %s", pos.ToMove, MovesString(pos)))
	return strings.Join(parts, "; ")
}

// booklet paraphrases what the Strategy section says about each puzzle.
var booklet = map[string]string{
	"strategy-1": `Black plays H2; White's only move is H7; Black takes H8. Black can then win
% without White ever having a choice: H2 H7 H8 G2 A5 A6 H1 G1 C1 C2 G7 F7 G8 F8
% E8 D8 B7 B8 A8 A7 A2 B2 B1 A1, Black's moves first, Black winning 54 to 10.`,
	"strategy-2": `Black plays B6; White's only moves are B7 and G1; after B7 Black can take
% A8, after G1 Black can take H1.`,
	"strategy-3": `Black plays F8; White's only moves are B7 and B8, both letting Black take A8.`,
	"strategy-4": `Black plays G1; White's only moves are B8, F1, G2 and G8, each opening a corner.`,
	"strategy-5": `Black plays G7; White's only moves are G8 and H7; either flips the black disc
% on G7, so Black can take H8.`,
}

// WriteStrategy runs the reconstruction of the five Strategy puzzles from
// seed and writes them as a puzzle file stating every fact the booklet
// gives (and the reconstruction's own move lists), so that checking the file
// checks the reconstruction. With a solver, candidates must also be won by
// Black ("with careful play Black can go on to win all five of the games")
// and the file says so with "wld win". A line for each puzzle found goes
// to progress (nil: none), since the whole takes a while.
func WriteStrategy(ctx context.Context, w, progress io.Writer, seed uint64, maxGames int, solver Solver) error {
	start := time.Now()
	found := func(what string, tries int) {
		if progress != nil {
			fmt.Fprintf(progress, "reconstruct: %s found after %d games, %s\n", what, tries, time.Since(start).Round(100*time.Millisecond))
		}
	}
	c := DefaultCriteria()
	var accept Accept
	if solver != nil {
		accept = func(pos bitboard.Position) bool {
			v, err := solver.Solve(ctx, pos, true)
			return err == nil && v > 0
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `%% The five corner puzzles of the rulebook's Strategy section (Mattel booklet,
%% rulebook 004), then its Diagrams 1 to 5. The booklet's diagrams
%% did not survive, so these positions are RECONSTRUCTIONS: positions
%% consistent with every statement the booklet makes, found by a seeded
%% search and written by
%%   outflank puzzle --reconstruct --seed %d
%% Criteria beyond the stated facts, for the puzzles: Black to move, %d to %d
%% empties (puzzle #1: exactly the 24 its continuation fills), no corner
%% taken, Black has at least %d moves and none of them a corner, the
%% booklet's move is the only corner-forcing move.
`, seed, c.MinEmpties, c.MaxEmpties, c.MinBlackMoves)
	if solver != nil {
		b.WriteString("% Every puzzle position is also a win for Black with perfect play (solved).\n")
	}

	f1, err := Puzzle1(ctx, c, seed, maxGames, accept)
	if err != nil {
		return err
	}
	found("puzzle 1 of 5", f1.Tries)
	p1 := f1.Position
	line, _ := bitboard.ParseMoves(Puzzle1Line)
	var marked []string
	for i, m := range line {
		s := m.String()
		if i%2 == 1 {
			s += "!" // White's moves: the only legal move each time
		}
		marked = append(marked, s)
	}
	fmt.Fprintf(&b, "\n%% Puzzle #1. Booklet: %s\n", booklet["strategy-1"])
	fmt.Fprintf(&b, "%% Reconstruction (%d games searched): %s.\n", f1.Tries, Description(p1))
	b.WriteString("% Reached from the start by the game in strategy-1-game.\n")
	fmt.Fprintf(&b, "%s; id strategy-1\n", p1)
	fmt.Fprintf(&b, " ; moves %s %% the reconstruction's move list\n", MovesString(p1))
	b.WriteString(" ; illegal a1 h1 a8 h8 % no corner to take yet\n")
	b.WriteString(" ; corner-exactly h2 % the solution, and the only corner-forcing move\n")
	b.WriteString(" ; after h2: moves h7\n ; after h2 h7: legal h8\n")
	fmt.Fprintf(&b, " ; line %s %% ! = White's only move\n", strings.Join(marked, " "))
	fmt.Fprintf(&b, " ; after %s: result 54-10\n", Puzzle1Line)
	if solver != nil {
		b.WriteString(" ; wld win\n")
	}
	fmt.Fprintf(&b, "%s; id strategy-1-game %% the standard start\n", bitboard.Start())
	fmt.Fprintf(&b, " ; after %s: board %s\n", movesText(f1.Game), p1)

	for i, spec := range Specs() {
		f, err := Search(ctx, spec, c, seed, maxGames, accept)
		if err != nil {
			return err
		}
		found(fmt.Sprintf("puzzle %d of 5", i+2), f.Tries)
		pos := f.Position
		fmt.Fprintf(&b, "\n%% Puzzle #%d. Booklet: %s\n", i+2, booklet[spec.Name])
		fmt.Fprintf(&b, "%% Reconstruction (%d games searched): %s.\n", f.Tries, Description(pos))
		fmt.Fprintf(&b, "%% Reached from the start by the game in %s-game.\n", spec.Name)
		fmt.Fprintf(&b, "%s; id %s\n", pos, spec.Name)
		fmt.Fprintf(&b, " ; moves %s %% the reconstruction's move list\n", MovesString(pos))
		b.WriteString(" ; illegal a1 h1 a8 h8 % no corner to take yet\n")
		fmt.Fprintf(&b, " ; corner-exactly %s %% the solution, and the only corner-forcing move\n", spec.Move)
		var replies []bitboard.Square
		for r := range spec.Replies {
			replies = append(replies, r)
		}
		slices.Sort(replies)
		q := pos.Play(spec.Move)
		fmt.Fprintf(&b, " ; after %s: moves %s\n", spec.Move, squaresText(replies))
		for _, r := range replies {
			if corner := spec.Replies[r]; corner != bitboard.NoSquare {
				fmt.Fprintf(&b, " ; after %s %s: legal %s\n", spec.Move, r, corner)
			}
			if spec.Recolour {
				fmt.Fprintf(&b, " ; after %s: flips %s: %s %% %s among them\n", spec.Move, r,
					bitboard.SquaresString(bitboard.Flips(q.Player, q.Opponent, r)), spec.Move)
			}
		}
		if solver != nil {
			b.WriteString(" ; wld win\n")
		}
		fmt.Fprintf(&b, "%s; id %s-game %% the standard start\n", bitboard.Start(), spec.Name)
		fmt.Fprintf(&b, " ; after %s: board %s\n", movesText(f.Game), pos)
	}
	if progress != nil {
		fmt.Fprintln(progress, "reconstruct: diagrams 1 to 5...")
	}
	if err := writeDiagrams(ctx, &b, seed, maxGames); err != nil {
		return err
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func squaresText(sqs []bitboard.Square) string {
	var parts []string
	for _, s := range sqs {
		parts = append(parts, s.String())
	}
	return strings.Join(parts, " ")
}

// movesText writes a game with explicit passes ("pass"), so the line reads
// the same however a reader treats implied passes.
func movesText(moves []bitboard.Square) string {
	var parts []string
	for _, m := range moves {
		if m == bitboard.PassMove {
			parts = append(parts, "pass")
		} else {
			parts = append(parts, m.String())
		}
	}
	return strings.Join(parts, " ")
}
