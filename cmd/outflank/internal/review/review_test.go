package review

import (
	"bytes"
	"context"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// reviewTestGame plays FFO #1 (14 empties, black +18) to the end: black
// plays the best move throughout and white the worst, each found by
// solving every child with an engine of its own, so that the test knows
// what each white move gave away without review's code. It returns the
// game and white's total cost.
func reviewTestGame(t *testing.T) (*bitboard.Game, int) {
	t.Helper()
	ents, err := bitboard.ReadOBF(strings.NewReader("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"))
	if err != nil {
		t.Fatal(err)
	}
	g := &bitboard.Game{Start: ents[0].Position}
	eng := search.New(search.Options{HashMB: 16, Threads: 1})
	value := func(p bitboard.Position) int { // for p's side to move
		if p.GameOver() {
			return p.FinalScore()
		}
		if p.MustPass() {
			return -eng.Search(context.Background(), p.Pass(), search.Limits{EndgameEmpties: search.AlwaysSolve}, nil).Score
		}
		return eng.Search(context.Background(), p, search.Limits{EndgameEmpties: search.AlwaysSolve}, nil).Score
	}
	whiteLost := 0
	for p := g.Current(); !p.GameOver(); p = g.Current() {
		if p.MustPass() {
			if err := g.Append(bitboard.GameMove{Square: bitboard.PassMove}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		best, worst := -99, 99
		var bestSq, worstSq bitboard.Square
		for m := p.Moves(); m != 0; m &= m - 1 {
			sq := bitboard.Square(bits.TrailingZeros64(m))
			v := -value(p.Play(sq))
			if v > best {
				best, bestSq = v, sq
			}
			if v < worst {
				worst, worstSq = v, sq
			}
		}
		sq := bestSq
		if p.ToMove == bitboard.White {
			sq = worstSq
			whiteLost += best - worst
		}
		if err := g.Append(bitboard.GameMove{Square: sq}); err != nil {
			t.Fatal(err)
		}
	}
	return g, whiteLost
}

func TestReviewGame(t *testing.T) {
	g, whiteLost := reviewTestGame(t)
	if whiteLost == 0 {
		t.Fatal("white's worst moves cost nothing: the test position does not test review")
	}
	eng := search.New(search.Options{HashMB: 16, Threads: 1})
	r := reviewGame(eng, g, 24)
	if r.empties != 14 || r.exact != 18 {
		t.Errorf("first position: %d empties, exact %+d; want 14, +18 (FFO #1)", r.empties, r.exact)
	}
	if r.lost[0] != 0 || r.errors[0] != 0 {
		t.Errorf("black played perfectly but lost %d discs in %d moves", r.lost[0], r.errors[0])
	}
	if r.lost[1] != whiteLost {
		t.Errorf("white lost %d discs, want %d", r.lost[1], whiteLost)
	}
	if got := r.exact + r.lost[1] - r.lost[0]; got != r.final {
		t.Errorf("exact %+d, black lost %d, white %d: the final score should be %+d, is %+d", r.exact, r.lost[0], r.lost[1], got, r.final)
	}
	// From fewer empties the review starts later: a position of the
	// same game, with no more than 8 empties.
	r8 := reviewGame(eng, g, 8)
	if r8.empties > 8 || r8.final != r.final || r8.lost[0] != 0 || r8.lost[1] > r.lost[1] {
		t.Errorf("--empties 8: %+v, against %+v from 14", r8, r)
	}
}

// A game that ends before --empties (a wipeout after 9 moves, 51 empties)
// has only its end to review: no crash, and nothing given away.
func TestReviewWipeout(t *testing.T) {
	g, err := bitboard.ParseGGF("(;GM[Othello]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)")
	if err != nil {
		t.Fatal(err)
	}
	r := reviewGame(search.New(search.Options{HashMB: 1, Threads: 1}), g, 24)
	if r.empties != 51 || r.exact != 64 || r.final != 64 || r.lost != [2]int{} || r.errors != [2]int{} {
		t.Errorf("wipeout: %+v", r)
	}
}

// runCmd runs "outflank review" with args as the command does.
func runCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	fs := pflag.NewFlagSet("review", pflag.ContinueOnError)
	fl := AddFlags(fs)
	if _, err := cli.Parse(fs, args[1:]); err != nil {
		return "", "", err
	}
	var out, errb bytes.Buffer
	err := Run(&cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, fl, fs.Args())
	return out.String(), errb.String(), err
}

func TestReviewCommand(t *testing.T) {
	g, _ := reviewTestGame(t)
	g.SetProp("PB", "perfect")
	g.SetProp("PW", "worst")
	dir := t.TempDir()
	path := filepath.Join(dir, "games.ggf")
	unfinished := "(;GM[Othello]PB[a]PW[b]B[f5]W[d6];)"
	if err := os.WriteFile(path, []byte(g.GGF()+"\n"+unfinished+"\n(;GM[Othello]B[zz];)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "review", path, "--empties", "20")
	if err != nil {
		t.Fatalf("review: %v\n%s", err, errOut)
	}
	for _, want := range []string{"record 2: the game stops before its end", "record 3:"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, want := range []string{"record 1", "perfect\n  1 games, 0.00 discs given away", "worst\n  1 games,", "score 100.0% with perfect play from there, 100.0% played"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"review"}, "want at least one GGF file"},
		{[]string{"review", filepath.Join(dir, "none.ggf")}, "none.ggf"},
		{[]string{"review", path, "--empties", "40"}, "--empties"},
	} {
		bad := filepath.Join(dir, "bad.ggf")
		os.WriteFile(bad, []byte("not a game"), 0o644)
		if _, _, err := runCmd(t, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one naming %q", c.args, err, c.want)
		}
		if _, _, err := runCmd(t, "review", bad); err == nil || !strings.Contains(err.Error(), "no GGF game record") {
			t.Errorf("a file of no games: error %v", err)
		}
	}
	only := filepath.Join(dir, "unfinished.ggf")
	os.WriteFile(only, []byte(unfinished), 0o644)
	if _, _, err := runCmd(t, "review", only); err == nil || !strings.Contains(err.Error(), "no finished game") {
		t.Errorf("no finished game: error %v", err)
	}
}
