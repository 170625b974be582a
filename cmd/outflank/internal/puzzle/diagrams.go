package puzzle

import (
	"context"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// The Strategy section also explains corners with Diagrams 1 to 5, lost
// like the puzzles. They are reconstructed the same way: a cost on
// black-to-move positions that is 0 when everything the text says holds.

// dangerSquares are the squares next to the corners.
const dangerSquares = uint64(1)<<1 | 1<<8 | 1<<9 | 1<<6 | 1<<14 | 1<<15 |
	1<<48 | 1<<49 | 1<<57 | 1<<54 | 1<<55 | 1<<62

// Diagram is what the booklet says about one diagram. Position is the
// black-to-move position that the search scores; for Diagram 2 the diagram
// itself is the position after Black's move.
type Diagram struct {
	Name string
	Text string // the booklet's statement, paraphrased
	Cost func(pos bitboard.Position) int
	// Facts writes the puzzle-file facts for a found position.
	Facts func(pos bitboard.Position) string
}

// Diagrams returns Diagrams 1, 2, 3 and 4-5 of the Strategy section.
func Diagrams() []Diagram {
	a1, a3, b2, e8, g7, h8 := sq("a1"), sq("a3"), sq("b2"), sq("e8"), sq("g7"), sq("h8")
	corners := func(pos bitboard.Position) int {
		return 3 * bits.OnesCount64((pos.Player|pos.Opponent)&Corners)
	}
	return []Diagram{
		{
			Name: "diagram-1",
			Text: `The black disc on corner H8 protects the whole black group: whatever
% happens in the rest of the game, White can never capture any black disc
% now on the board.`,
			Cost: func(pos bitboard.Position) int {
				black := pos.Player
				c := 2 * bits.OnesCount64(black&^StableDiscs(pos))
				if black&h8.Bit() == 0 {
					c += 20
				}
				c += 3 * bits.OnesCount64((pos.Player|pos.Opponent)&Corners&^h8.Bit())
				if n := bits.OnesCount64(black); n < 8 {
					c += 8 - n
				}
				// One group grown from h8.
				group := black & h8.Bit()
				for {
					next := (group | neighbours(group)) & black
					if next == group {
						break
					}
					group = next
				}
				return c + bits.OnesCount64(black&^group)
			},
			Facts: func(pos bitboard.Position) string {
				return fmt.Sprintf(" ; stable %s %% every black disc\n", bitboard.SquaresString(pos.Black()))
			},
		},
		{
			Name: "diagram-2",
			Text: `Placing a disc next to an empty corner can give it away: after Black's
% disc on G7, White can take corner H8 "because of the black disk at G7".
% The diagram is the position after Black's G7; before it White could not
% take H8.`,
			Cost: func(pos bitboard.Position) int {
				c := corners(pos)
				if bitboard.Moves(pos.Opponent, pos.Player)&h8.Bit() != 0 {
					c += 5 // White could already take h8
				}
				if !pos.IsLegal(g7) {
					return c + 30
				}
				q := pos.Play(g7)
				if !q.IsLegal(h8) {
					return c + 10
				}
				if bitboard.Flips(q.Player, q.Opponent, h8)&g7.Bit() == 0 {
					c += 5
				}
				return c
			},
			Facts: func(pos bitboard.Position) string {
				q := pos.Play(g7)
				return fmt.Sprintf(" ; legal h8\n ; flips h8: %s %% g7 among them\n",
					bitboard.SquaresString(bitboard.Flips(q.Player, q.Opponent, h8)))
			},
		},
		{
			Name: "diagram-3",
			Text: `White has a disc next to corner A1 and Black cannot take the corner now,
% but after Black's A3 White cannot stop Black from taking A1 next.`,
			Cost: func(pos bitboard.Position) int {
				c := corners(pos)
				if pos.Opponent&(sq("a2").Bit()|sq("b1").Bit()|b2.Bit()) == 0 {
					c += 3
				}
				if pos.IsLegal(a1) {
					c += 5
				}
				if !pos.IsLegal(a3) {
					return c + 30
				}
				q := pos.Play(a3)
				replies := q.Moves()
				if replies == 0 {
					if q.GameOver() || !q.Pass().IsLegal(a1) {
						c += 4
					}
					return c
				}
				for r := replies; r != 0; r &= r - 1 {
					if !q.Play(bitboard.FirstSquare(r)).IsLegal(a1) {
						c += 2
					}
				}
				return c
			},
			Facts: func(pos bitboard.Position) string {
				var b strings.Builder
				b.WriteString(" ; illegal a1\n ; corner a3\n")
				q := pos.Play(a3)
				if q.MustPass() {
					b.WriteString(" ; after a3: moves pass\n ; after a3 pass: legal a1\n")
					return b.String()
				}
				fmt.Fprintf(&b, " ; after a3: moves %s\n", MovesString(q))
				for r := q.Moves(); r != 0; r &= r - 1 {
					fmt.Fprintf(&b, " ; after a3 %s: legal a1\n", bitboard.FirstSquare(r))
				}
				return b.String()
			},
		},
		{
			Name: "diagram-4",
			Text: `White has no disc on a square next to a corner. If Black plays E8, White's
% only move is B2 (Diagram 5), after which Black can take A1.`,
			Cost: func(pos bitboard.Position) int {
				c := corners(pos) + bits.OnesCount64(pos.Opponent&dangerSquares)
				if !pos.IsLegal(e8) {
					return c + 30
				}
				q := pos.Play(e8)
				c += 4 * bits.OnesCount64(q.Moves()^b2.Bit())
				if q.IsLegal(b2) && !q.Play(b2).IsLegal(a1) {
					c += 2
				}
				return c
			},
			Facts: func(bitboard.Position) string {
				return " ; after e8: moves b2\n ; after e8 b2: legal a1\n"
			},
		},
	}
}

// diagramCriteria: the text says nothing of the number of empties or of
// Black's moves beyond the move it discusses.
func diagramCriteria() Criteria { return Criteria{MinEmpties: 20, MaxEmpties: 36} }

// writeDiagrams appends the reconstructed diagrams to b.
func writeDiagrams(ctx context.Context, b *strings.Builder, seed uint64, maxGames int) error {
	for _, d := range Diagrams() {
		// Diagram N searches random stream 98+N.
		n, _ := strconv.Atoi(strings.TrimPrefix(d.Name, "diagram-"))
		f, err := searchGames(ctx, d.Name, uint64(98+n), d.Cost, diagramCriteria(), 0, seed, maxGames, nil)
		if err != nil {
			return err
		}
		pos, game := f.Position, f.Game
		if d.Name == "diagram-2" {
			pos, game = pos.Play(sq("g7")), append(game, sq("g7"))
		}
		title := "Diagram " + strings.TrimPrefix(d.Name, "diagram-")
		if d.Name == "diagram-4" {
			title = "Diagrams 4 and 5"
		}
		fmt.Fprintf(b, "\n%% %s. Booklet: %s\n", title, d.Text)
		fmt.Fprintf(b, "%% Reconstruction (%d games searched): %s.\n", f.Tries, Description(pos))
		fmt.Fprintf(b, "%s; id %s\n%s", pos, d.Name, d.Facts(f.Position))
		fmt.Fprintf(b, "%s; id %s-game %% the standard start\n", bitboard.Start(), d.Name)
		fmt.Fprintf(b, " ; after %s: board %s\n", movesText(game), pos)
	}
	return nil
}
