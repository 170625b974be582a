package puzzle

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// Solver solves positions exactly. The puzzle package declares what it needs;
// cmd/outflank adapts the search engine to it.
type Solver interface {
	// Solve returns the final score of pos for the side to move with perfect
	// play by both sides (empties to the winner, as FinalScore). With wld
	// set only the sign of the result need be right.
	Solve(ctx context.Context, pos bitboard.Position, wld bool) (int, error)
}

// Outcome is the check of one goal: what the file expects beside what the
// engine found.
type Outcome struct {
	Goal     string `json:"goal"`
	Line     int    `json:"line"`
	Expected string `json:"expected"`
	Got      string `json:"got"`
	OK       bool   `json:"ok"`
}

// Report is the check of one puzzle.
type Report struct {
	ID       string    `json:"id"`
	Line     int       `json:"line"`
	Board    string    `json:"board"`
	OK       bool      `json:"ok"`
	Outcomes []Outcome `json:"facts"`
}

// Corners is the bitboard of the four corners.
const Corners = uint64(1)<<0 | 1<<7 | 1<<56 | 1<<63

// centre is d4 e4 d5 e5, which are filled from the first move of every game.
const centre = uint64(1)<<27 | 1<<28 | 1<<35 | 1<<36

// Check checks every goal of p. Goals that need an exact solver fail with
// "no solver" when s is nil; none is skipped.
func (p *Puzzle) Check(ctx context.Context, s Solver) Report {
	r := Report{ID: p.Name(), Line: p.Line, Board: p.Position.String(), OK: true}
	add := func(o Outcome) {
		r.Outcomes = append(r.Outcomes, o)
		r.OK = r.OK && o.OK
	}
	if !p.Setup {
		got := Implausible(p.Position)
		add(Outcome{Goal: "position", Line: p.Line, Expected: "reachable-looking (centre filled, discs connected)",
			Got: orText(got, "reachable-looking"), OK: got == ""})
	}
	if len(p.Goals) == 0 {
		add(Outcome{Goal: "(none)", Line: p.Line, Expected: "at least one fact", Got: "no facts stated"})
	}
	c := &checker{ctx: ctx, solver: s, cache: map[bitboard.Position]int{}}
	for i := range p.Goals {
		add(c.check(p.Position, &p.Goals[i]))
	}
	return r
}

func orText(s, empty string) string {
	if s == "" {
		return empty
	}
	return s
}

// Implausible returns why pos cannot arise in a game from the standard
// start, for the two cheap necessary conditions: the four centre squares are
// filled, and every disc is connected to the centre (each move is placed
// next to a disc). It returns "" when both hold; that does not prove the
// position reachable.
func Implausible(pos bitboard.Position) string {
	occ := pos.Player | pos.Opponent
	if e := centre &^ occ; e != 0 {
		return "impossible position: centre " + bitboard.SquaresString(e) + " empty"
	}
	reach := centre
	for {
		next := (reach | neighbours(reach)) & occ
		if next == reach {
			break
		}
		reach = next
	}
	if rest := occ &^ reach; rest != 0 {
		return "impossible position: discs " + bitboard.SquaresString(rest) + " not connected to the centre"
	}
	return ""
}

// neighbours returns the squares next to (8 directions) the squares of b.
func neighbours(b uint64) uint64 {
	const notA, notH = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
	h := b | (b<<1)&notA | (b>>1)&notH
	return h | h<<8 | h>>8
}

type checker struct {
	ctx    context.Context
	solver Solver
	cache  map[bitboard.Position]int // exact scores already solved
}

func (c *checker) check(start bitboard.Position, g *Goal) Outcome {
	o := Outcome{Goal: g.Text, Line: g.Line}
	if why := impossible(start, g); why != "" {
		o.Expected, o.Got = expected(g), why
		return o
	}
	pos, err := Play(start, g.After)
	if err != nil {
		o.Expected, o.Got = expected(g), err.Error()
		return o
	}
	o.Expected = expected(g)
	if g.Kind.NeedsSolver() && c.solver == nil {
		o.Got = "no solver"
		return o
	}
	switch g.Kind {
	case Line:
		o.Got = "legal"
		if slices.ContainsFunc(g.After, func(s Step) bool { return s.Only }) {
			o.Got += ", ! moves forced"
		}
	case Moves:
		o.Got = MovesString(pos)
	case Legal:
		o.Got = "all legal"
		if bad := legality(pos, g.Squares, false); bad != "" {
			o.Got = "illegal: " + bad
		}
	case Board:
		o.Got = pos.String()
	case Stable:
		want := squaresMask(g.Squares)
		st := StableDiscs(pos)
		o.Got = "stable"
		if want&^(pos.Player|pos.Opponent) != 0 {
			o.Got = "empty: " + bitboard.SquaresString(want&^(pos.Player|pos.Opponent))
		} else if want&^st != 0 {
			o.Got = "not proven stable: " + bitboard.SquaresString(want&^st)
		}
	case Illegal:
		o.Got = "none legal"
		if bad := legality(pos, g.Squares, true); bad != "" {
			o.Got = "legal: " + bad
		}
	case Flips:
		o.Got = "illegal"
		if pos.IsLegal(g.Move) {
			o.Got = orText(bitboard.SquaresString(bitboard.Flips(pos.Player, pos.Opponent, g.Move)), "none")
		}
	case Corner:
		var why []string
		for _, sq := range g.Squares {
			if ok, w := ForcesCorner(pos, sq); !ok {
				why = append(why, sq.String()+": "+w)
			}
		}
		o.Got = "forces a corner"
		if len(why) > 0 {
			o.Got = strings.Join(why, "; ")
		}
	case CornerExactly:
		o.Got = orText(bitboard.SquaresString(CornerForcing(pos)), "none")
	case Discs:
		o.Got = fmt.Sprintf("%d-%d", bitboard.Count(pos.Black()), bitboard.Count(pos.White()))
	case Result:
		if !pos.GameOver() {
			o.Got = fmt.Sprintf("not over: %s to move, moves %s", pos.ToMove, MovesString(pos))
		} else {
			o.Got = "game over " + countsText(bitboard.Count(pos.Black()), bitboard.Count(pos.White()))
		}
	case Score:
		v, err := c.solve(pos)
		o.Got = scoreText(v, err)
	case WLD:
		v, err := c.solveWLD(pos)
		o.Got = scoreText(v, err)
		if err == nil {
			o.Got = wldText(v)
		}
	case MoveScore:
		if !pos.IsLegal(g.Move) {
			o.Got = "illegal"
			break
		}
		v, err := c.solve(playAny(pos, g.Move))
		o.Got = scoreText(-v, err)
	case Best:
		best, v, err := c.best(pos)
		if err != nil {
			o.Got = err.Error()
			break
		}
		o.Got = fmt.Sprintf("%s (%+d)", orText(bitboard.SquaresString(best), "none"), v)
		o.OK = best == squaresMask(g.Squares)
		return o
	}
	o.OK = o.Got == o.Expected
	return o
}

// impossible reports stated facts that contradict the disc count of the
// position, so that such a puzzle is reported as impossible rather than as
// an ordinary miss.
func impossible(start bitboard.Position, g *Goal) string {
	placed := 0
	for _, s := range g.After {
		if s.Move != bitboard.PassMove {
			placed++
		}
	}
	empties := start.Empties()
	if placed > empties {
		return fmt.Sprintf("impossible: %d moves but only %d empty squares", placed, empties)
	}
	if g.Kind == Discs || g.Kind == Result {
		if have := 64 - empties + placed; g.B+g.W != have {
			return fmt.Sprintf("impossible: %d-%d is %d discs but the board has %d", g.B, g.W, g.B+g.W, have)
		}
	}
	return ""
}

// expected renders what a goal asks for in the form the engine's answer
// takes, so that the two can be compared as text.
func expected(g *Goal) string {
	switch g.Kind {
	case Line:
		s := "legal"
		if slices.ContainsFunc(g.After, func(s Step) bool { return s.Only }) {
			s += ", ! moves forced"
		}
		return s
	case Moves:
		switch {
		case g.Pass:
			return "pass"
		case g.Over:
			return "none"
		}
		return bitboard.SquaresString(squaresMask(g.Squares))
	case Legal:
		return "all legal"
	case Board:
		return g.Board.String()
	case Stable:
		return "stable"
	case Illegal:
		return "none legal"
	case Flips:
		return bitboard.SquaresString(squaresMask(g.Squares))
	case Corner:
		return "forces a corner"
	case CornerExactly:
		if g.None {
			return "none"
		}
		return bitboard.SquaresString(squaresMask(g.Squares))
	case Discs:
		return fmt.Sprintf("%d-%d", g.B, g.W)
	case Result:
		return "game over " + countsText(g.B, g.W)
	case Score, MoveScore:
		return fmt.Sprintf("%+d", g.Value)
	case WLD:
		return wldText(g.Value)
	case Best:
		return bitboard.SquaresString(squaresMask(g.Squares))
	}
	return "?"
}

func countsText(b, w int) string {
	s := fmt.Sprintf("%d-%d", b, w)
	switch {
	case b > w:
		return s + " (black wins)"
	case w > b:
		return s + " (white wins)"
	}
	return s + " (draw)"
}

func wldText(v int) string {
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return "draw"
}

func scoreText(v int, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%+d", v)
}

func squaresMask(sqs []bitboard.Square) uint64 {
	var m uint64
	for _, s := range sqs {
		m |= s.Bit()
	}
	return m
}

// legality lists the moves of sqs (a pass included) that are legal in pos
// when legal is set, else those that are not.
func legality(pos bitboard.Position, sqs []bitboard.Square, legal bool) string {
	var out []string
	for _, sq := range sqs {
		if pos.IsLegal(sq) == legal {
			out = append(out, sq.String())
		}
	}
	return strings.Join(out, " ")
}

// MovesString lists the legal moves in board order, "pass" when the side to
// move must pass, "none" when the game is over.
func MovesString(pos bitboard.Position) string {
	switch {
	case pos.GameOver():
		return "none"
	case pos.MustPass():
		return "pass"
	}
	return bitboard.SquaresString(pos.Moves())
}

// Play plays the steps from pos: passes may be written or left implied, and
// a step marked Only must be the only legal move. Errors name the move.
func Play(pos bitboard.Position, steps []Step) (bitboard.Position, error) {
	for i, st := range steps {
		if st.Move != bitboard.PassMove && pos.MustPass() {
			pos = pos.Pass()
		}
		q, err := pos.PlayMove(st.Move)
		if err != nil {
			return pos, fmt.Errorf("move %d (%s) illegal for %s: %v", i+1, st.Move, pos.ToMove, err)
		}
		if st.Only && st.Move != bitboard.PassMove && pos.Moves() != st.Move.Bit() {
			return pos, fmt.Errorf("move %d (%s) not forced: %s could play %s", i+1, st.Move, pos.ToMove, bitboard.SquaresString(pos.Moves()))
		}
		pos = q
	}
	return pos, nil
}

// playAny plays a legal move or a pass.
func playAny(pos bitboard.Position, sq bitboard.Square) bitboard.Position {
	if sq == bitboard.PassMove {
		return pos.Pass()
	}
	return pos.Play(sq)
}

// StableDiscs returns the discs of either colour that no sequence of moves can
// flip, by the usual sufficient test grown to a fixed point: a disc is
// stable when along each of the four lines through it the line is full, or
// a neighbour on that line is the board's edge or a stable disc of its
// colour. (A flip along a line needs a move on that line and the disc's
// whole run of its colour on it to be flanked, which a full line, the edge
// or an unflippable neighbour rules out.) It may miss stable discs, never
// claims an unstable one.
func StableDiscs(pos bitboard.Position) uint64 {
	occ := pos.Player | pos.Opponent
	dirs := [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	at := func(c, r int) (bitboard.Square, bool) {
		if c < 0 || c > 7 || r < 0 || r > 7 {
			return 0, false
		}
		return bitboard.SquareAt(c, r), true
	}
	full := func(s bitboard.Square, d [2]int) bool {
		for _, sign := range []int{1, -1} {
			for k := 1; ; k++ {
				n, ok := at(s.Col()+sign*k*d[0], s.Row()+sign*k*d[1])
				if !ok {
					break
				}
				if occ&n.Bit() == 0 {
					return false
				}
			}
		}
		return true
	}
	var st uint64
	for changed := true; changed; {
		changed = false
		for b := occ &^ st; b != 0; b &= b - 1 {
			s := bitboard.FirstSquare(b)
			own := pos.Player
			if pos.Opponent&s.Bit() != 0 {
				own = pos.Opponent
			}
			ok := true
			for _, d := range dirs {
				if full(s, d) {
					continue
				}
				anchored := false
				for _, sign := range []int{1, -1} {
					n, on := at(s.Col()+sign*d[0], s.Row()+sign*d[1])
					if !on || st&own&n.Bit() != 0 {
						anchored = true
					}
				}
				if !anchored {
					ok = false
					break
				}
			}
			if ok {
				st |= s.Bit()
				changed = true
			}
		}
	}
	return st
}

// ForcesCorner reports whether playing sq forces a corner: sq is legal and
// after every reply of the opponent, a pass included, the side to move has a
// legal corner move. When it does not, why says which reply fails.
func ForcesCorner(pos bitboard.Position, sq bitboard.Square) (ok bool, why string) {
	if sq == bitboard.PassMove || !pos.IsLegal(sq) {
		return false, "illegal"
	}
	q := pos.Play(sq)
	replies := q.Moves()
	if replies == 0 {
		if q.GameOver() {
			return false, "the game ends"
		}
		if q.Pass().Moves()&Corners == 0 {
			return false, "after the forced pass no corner"
		}
		return true, ""
	}
	for r := replies; r != 0; r &= r - 1 {
		m := bitboard.FirstSquare(r)
		if q.Play(m).Moves()&Corners == 0 {
			return false, "reply " + m.String() + " leaves no corner"
		}
	}
	return true, ""
}

// CornerForcing returns the moves of pos that force a corner.
func CornerForcing(pos bitboard.Position) uint64 {
	var out uint64
	for m := pos.Moves(); m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		if ok, _ := ForcesCorner(pos, sq); ok {
			out |= sq.Bit()
		}
	}
	return out
}

func (c *checker) solve(pos bitboard.Position) (int, error) {
	if pos.GameOver() {
		return pos.FinalScore(), nil
	}
	if v, ok := c.cache[pos]; ok {
		return v, nil
	}
	v, err := c.solver.Solve(c.ctx, pos, false)
	if err != nil {
		return 0, err
	}
	c.cache[pos] = v
	return v, nil
}

func (c *checker) solveWLD(pos bitboard.Position) (int, error) {
	if v, ok := c.cache[pos]; ok {
		return v, nil
	}
	if pos.GameOver() {
		return pos.FinalScore(), nil
	}
	return c.solver.Solve(c.ctx, pos, true)
}

// best solves every move of pos and returns those that reach the best score.
func (c *checker) best(pos bitboard.Position) (uint64, int, error) {
	moves := pos.Moves()
	if moves == 0 {
		if pos.GameOver() {
			return 0, pos.FinalScore(), nil
		}
		v, err := c.solve(pos.Pass())
		return 0, -v, err
	}
	bestV, best := -65, uint64(0)
	for m := moves; m != 0; m &= m - 1 {
		sq := bitboard.FirstSquare(m)
		v, err := c.solve(pos.Play(sq))
		if err != nil {
			return 0, 0, err
		}
		switch v = -v; {
		case v > bestV:
			bestV, best = v, sq.Bit()
		case v == bestV:
			best |= sq.Bit()
		}
	}
	return best, bestV, nil
}
