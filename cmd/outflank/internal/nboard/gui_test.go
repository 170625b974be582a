package nboard

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
)

// These tests replay what the NBoard GUI does with the engine's lines
// (read from its source, weltyc/nboard): one name in the title, the status
// bar, the hint table (one entry per square), the analysis graph.

// TestOneName: NBoard titles the engine with its "set myname"; one process
// that is both opponent (depth 12) and analyst (depth 20) gets depth
// changes from both, and must keep one name.
func TestOneName(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 12")
	first, _ := h.expect("set myname ")
	h.send("set depth 20")
	second, _ := h.expect("set myname ")
	h.send("set depth 1")
	third, _ := h.expect("set myname ")
	if first != second || second != third || strings.ContainsAny(strings.TrimPrefix(first, "set myname "), " \t") {
		t.Errorf("names %q, %q, %q: want one one-word name", first, second, third)
	}
}

// TestErrorsInStatus: NBoard shows no stderr (it merges it into the
// engine's output and drops what it does not parse) but shows "status"
// text; an error the user must know arrives there, and a learn failure
// comes after "learned", which clears the status.
func TestErrorsInStatus(t *testing.T) {
	h := startSessionConfig(t, &playtest.Greedy{}, Config{Name: "Outflank"}) // no book: learn fails
	h.send("nboard 2", "move A1", "ping 1")
	_, before := h.expect("pong 1")
	if !hasPrefix(before, "status move: A1 not played") {
		t.Errorf("illegal move: no status line in %q", before)
	}
	h.send("learn", "ping 2")
	_, before = h.expect("pong 2")
	i, j := index(before, "learned"), index(before, "status learn: ")
	if i < 0 || j < i {
		t.Errorf("learn failure: want \"learned\" then a status line, got %q", before)
	}
}

func index(lines []string, prefix string) int {
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	return -1
}

// nboardHints is NBoard's hint table (Hints.java): one hint per square; a
// search line of a new depth drops the search hints older than the
// previous depth and greys those of the previous one; book hints stay.
type nboardHints struct {
	t         *testing.T
	hints     map[string]guiHint
	lastDepth string
}

type guiHint struct {
	book         bool
	value, depth string
	games        int
}

func newHints(t *testing.T) *nboardHints {
	return &nboardHints{t: t, hints: map[string]guiHint{}}
}

// read takes the engine's lines as NBoard does.
func (h *nboardHints) read(lines []string) {
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) < 5 || (f[0] != "search" && f[0] != "book") {
			continue
		}
		games, err := strconv.Atoi(f[3])
		if err != nil {
			h.t.Errorf("bad games field in %q", l)
		}
		hint := guiHint{book: f[0] == "book", value: f[2], depth: f[4], games: games}
		if !hint.book && hint.depth != h.lastDepth {
			for sq, old := range h.hints {
				if !old.book && old.depth != h.lastDepth {
					delete(h.hints, sq)
				}
			}
			h.lastDepth = hint.depth
		}
		h.hints[strings.ToUpper(f[1][:2])] = hint
	}
}

// stale lists the search hints left on screen with the value of an older
// depth than the last.
func (h *nboardHints) stale() []string {
	var out []string
	for sq, x := range h.hints {
		if !x.book && x.depth != h.lastDepth {
			out = append(out, sq+"@"+x.depth)
		}
	}
	return out
}

// hintSession sends a hint for n moves and returns the lines up to the
// hint's closing "status".
func hintSession(t *testing.T, h *harness, game string, n int) []string {
	t.Helper()
	h.send("nboard 2", "set depth 4", "set game "+game, "ping 1", "hint "+strconv.Itoa(n))
	h.expect("pong 1")
	h.expect("status thinking")
	_, lines := h.expect("status")
	return lines
}

// TestHintKeepsBook: book lines stay in NBoard's table with their number
// of games (a search line for the same square used to replace them), and
// the search values the other moves.
func TestHintKeepsBook(t *testing.T) {
	start := bitboard.Start()
	d3, _ := bitboard.ParseSquare("d3")
	c4, _ := bitboard.ParseSquare("c4")
	book := playtest.Book{start: {{Move: d3, Score: 0.91, Games: 137514}, {Move: c4, Score: 0.5, Games: 2000}}}
	h := startSessionConfig(t, &playtest.Greedy{}, Config{Name: "Outflank", Book: book})
	empty := "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)"
	lines := hintSession(t, h, empty, 3)
	gui := newHints(t)
	gui.read(lines)
	for _, sq := range []string{"D3", "C4"} {
		if x := gui.hints[sq]; !x.book || x.games == 0 {
			t.Errorf("%s lost its book hint (%+v): %q", sq, x, lines)
		}
	}
	searched := 0
	for sq, x := range gui.hints {
		if !x.book {
			searched++
			if sq == "D3" || sq == "C4" {
				t.Errorf("search line for book move %s", sq)
			}
		}
	}
	if searched != 1 {
		t.Errorf("hint 3 with 2 book moves: want 1 searched move, got %d: %q", searched, lines)
	}
	// With as many book moves as asked for, the book is the hint.
	h2 := startSessionConfig(t, &playtest.Greedy{}, Config{Name: "Outflank", Book: book})
	if lines := hintSession(t, h2, empty, 2); hasPrefix(lines, "search") {
		t.Errorf("hint 2 with 2 book moves searched: %q", lines)
	}
}

// reorder is a searcher whose best moves change with depth, as real
// searches' do: at depth d the moves are ranked by a score that swaps the
// order at every depth, and the last depth is an exact solve.
type reorder struct{}

func (reorder) Clear() {}

func (reorder) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	var sqs []bitboard.Square
	for b := pos.Moves(); b != 0; b &= b - 1 {
		sqs = append(sqs, bitboard.FirstSquare(b))
	}
	var info search.Info
	for d := 1; d <= 4; d++ {
		info = search.Info{Depth: d, Selectivity: 100, Exact: d == 4, Nodes: uint64(d)}
		for i, sq := range sqs {
			score := 2 * i
			if d%2 == 0 {
				score = -2 * i
			}
			if d == 4 && i == 1 {
				score = 0 // a drawn move at the solve
			}
			info.Moves = append(info.Moves, search.MoveScore{Move: sq, Score: score})
		}
		sort.SliceStable(info.Moves, func(i, j int) bool { return info.Moves[i].Score > info.Moves[j].Score })
		info.Moves = info.Moves[:min(len(info.Moves), max(lim.MultiPV, 1))]
		info.Best, info.Score, info.PV = info.Moves[0].Move, info.Moves[0].Score, []bitboard.Square{info.Moves[0].Move}
		if report != nil {
			report(info)
		}
	}
	return info
}

// TestHintNoStaleValues: when the best moves change between depths, no
// move is left in NBoard's table with an older depth's value.
func TestHintNoStaleValues(t *testing.T) {
	// hint 1 searches for the single best move and values the moves it
	// dropped at the end; hint 2 scores every move at every depth.
	for _, n := range []int{1, 2} {
		h := startSession(t, reorder{})
		lines := hintSession(t, h, exampleGame, n)
		gui := newHints(t)
		gui.read(lines)
		if st := gui.stale(); len(st) > 0 {
			t.Errorf("hint %d: stale hints %v after %q", n, st, lines)
		}
		if gui.lastDepth != "100%" || len(gui.hints) < 2 {
			t.Errorf("hint %d: table %+v after %q", n, gui.hints, lines)
		}
	}
}

// TestHintDrawValues: a move proven to draw is sent as NBoard's pair of
// values (draws to the mover, draws against), so that its DtB and DtW
// columns differ from D=0.
func TestHintDrawValues(t *testing.T) {
	h := startSession(t, reorder{})
	lines := hintSession(t, h, exampleGame, 8)
	found := false
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] == "search" && f[4] == "100%" && f[2] == "+100.00,-100.00" {
			found = true
		}
		if f[0] == "search" && f[4] == "100%" && (f[2] == "+0.00" || f[2] == "-0.00") {
			t.Errorf("proven draw as a single value: %q", l)
		}
	}
	if !found {
		t.Errorf("no draw pair in %q", lines)
	}
}

// TestStatusValueFirst: while thinking on a move, the status line starts
// with the value and the depth; NBoard's status bar cuts the rest.
func TestStatusValueFirst(t *testing.T) {
	h := startSession(t, reorder{})
	h.send("nboard 2", "set depth 4", "set game "+exampleGame, "ping 1", "go")
	h.expect("pong 1")
	_, lines := h.expect("===")
	n := 0
	for _, l := range lines {
		if !strings.HasPrefix(l, "status ") || l == "status thinking" {
			continue
		}
		n++
		f := strings.Fields(l)
		if _, err := strconv.ParseFloat(f[1], 64); err != nil || f[2] != "depth" || !strings.HasSuffix(f[3], ":") {
			t.Errorf("status %q does not start with the value and the depth", l)
		}
	}
	if n == 0 {
		t.Errorf("no progress status in %q", lines)
	}
}

// TestAnalysisFromBlack: Analyze Game's values are from Black's side, as
// NBoard plots them; from the side to move the curve would zigzag.
func TestAnalysisFromBlack(t *testing.T) {
	h := startSession(t, &playtest.Greedy{})
	h.send("nboard 2", "set depth 2", "set game "+exampleGame, "ping 1", "analyze")
	h.expect("pong 1")
	h.expect("status analysing")
	_, lines := h.expect("status")
	g, _ := bitboard.ParseGGF(exampleGame)
	positions := g.Positions()
	whiteNonZero := false
	for _, l := range lines {
		f := strings.Fields(l)
		i, _ := strconv.Atoi(f[1])
		got, _ := strconv.ParseFloat(f[2], 64)
		pos := positions[i]
		info := play.Think(context.Background(), &playtest.Greedy{}, pos, search.Limits{Depth: 2}, nil)
		want := float64(info.Score)
		if pos.ToMove == bitboard.White {
			want = -want
			whiteNonZero = whiteNonZero || want != 0
		}
		if got != want {
			t.Errorf("position %d (%s to move): analysis %v, want %v from Black's side", i, pos.ToMove, got, want)
		}
	}
	if !whiteNonZero {
		t.Fatal("no white-to-move position with a non-zero value: the test cannot tell the sides apart")
	}
}

// endgameWith finds, by seeded random play, a position 10 empties from the
// end whose exact move scores (real search, every move scored) pass pick,
// which returns the two moves of interest.
func endgameWith(t *testing.T, eng play.Searcher, pick func(search.Info) (a, b bitboard.Square, ok bool)) (bitboard.Position, search.Info) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 11))
	for try := 0; try < 500; try++ {
		p := bitboard.Start()
		for p.Empties() > 10 && !p.GameOver() {
			if p.MustPass() {
				p = p.Pass()
				continue
			}
			ms := p.Moves()
			for k := r.IntN(bitboard.Count(ms)); k > 0; k-- {
				ms &= ms - 1
			}
			p = p.Play(bitboard.FirstSquare(ms))
		}
		if p.GameOver() || p.MustPass() || bitboard.Count(p.Moves()) < 2 {
			continue
		}
		info := play.Think(context.Background(), eng, p, search.Limits{EndgameEmpties: search.AlwaysSolve, MultiPV: 64}, nil)
		if !info.Exact {
			continue
		}
		if _, _, ok := pick(info); ok {
			return p, info
		}
	}
	t.Fatal("no such position found")
	return bitboard.Position{}, search.Info{}
}

// winAndDraw picks a winning best move and a drawing one.
func winAndDraw(info search.Info) (win, draw bitboard.Square, ok bool) {
	if info.Score <= 0 {
		return 0, 0, false
	}
	for _, m := range info.Moves {
		if m.Score == 0 {
			return info.Best, m.Move, true
		}
	}
	return 0, 0, false
}

// drawAndLoss picks a drawing best move and the best losing one.
func drawAndLoss(info search.Info) (draw, loss bitboard.Square, ok bool) {
	if info.Score != 0 {
		return 0, 0, false
	}
	for _, m := range info.Moves {
		if m.Score < 0 {
			return info.Best, m.Move, true // Moves are best first
		}
	}
	return 0, 0, false
}

// TestContempt: NBoard's "Draws to Black"/"Draws to White" (set contempt
// +100/-100) change what a draw is worth in the engine's choice: the side
// that draws are given to prefers a proven draw to a small win.
func TestContempt(t *testing.T) {
	eng := search.New(search.Options{HashMB: 4})
	// check plays go and wants a move whose exact score is want, and the
	// eval given with it.
	check := func(pos bitboard.Position, info search.Info, contempt string, want int, eval string) {
		t.Helper()
		h := startSession(t, search.New(search.Options{HashMB: 4}))
		// depth 6: solve from 12 empties, so the position is solved.
		h.send("nboard 2", "set depth 6", "set contempt "+contempt, "set game "+(&bitboard.Game{Start: pos}).GGF(), "ping 1", "go")
		h.expect("pong 1")
		l, _ := h.expect("===")
		got := answer(t, l)
		for _, m := range info.Moves {
			if m.Move == got && (m.Score != want || !strings.HasPrefix(strings.TrimPrefix(l, "=== "+got.Upper()), eval)) {
				t.Errorf("contempt %s: %q scores %+d; want a move scoring %+d, eval %s", contempt, l, m.Score, want, eval)
			}
		}
	}
	// Contempt from Black's side that gives draws to the side to move.
	toMover := func(pos bitboard.Position, c string) string {
		if pos.ToMove == bitboard.White {
			return map[string]string{"100": "-100", "-100": "100"}[c]
		}
		return c
	}
	pos, info := endgameWith(t, eng, winAndDraw)
	check(pos, info, "0", info.Score, fmt.Sprintf("/%.2f/", float64(info.Score)))
	check(pos, info, toMover(pos, "100"), 0, "/100.00/") // a draw worth more than a small win
	pos, info = endgameWith(t, eng, drawAndLoss)
	_, loss, _ := drawAndLoss(info)
	lossScore := 0
	for _, m := range info.Moves {
		if m.Move == loss {
			lossScore = m.Score
		}
	}
	check(pos, info, "0", 0, "/0.00/")
	check(pos, info, toMover(pos, "-100"), lossScore, fmt.Sprintf("/%.2f/", float64(lossScore))) // a small loss better than a draw worth -100
}

// TestHintSearchedBook: a book valued by search sends the depth and
// selectivity of its search in the book line's depth column (no games),
// as NBoard shows it.
func TestHintSearchedBook(t *testing.T) {
	start := bitboard.Start()
	d3, _ := bitboard.ParseSquare("d3")
	f5, _ := bitboard.ParseSquare("f5")
	book := playtest.Book{start: {{Move: d3, Score: -1, Depth: 15, Selectivity: 95}, {Move: f5, Score: -2, Depth: 22}}}
	h := startSessionConfig(t, &playtest.Greedy{}, Config{Name: "Outflank", Book: book})
	empty := "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)"
	lines := hintSession(t, h, empty, 2)
	gui := newHints(t)
	gui.read(lines)
	if x := gui.hints["D3"]; !x.book || x.depth != "15@95%" {
		t.Errorf("D3: %+v, want a book hint at depth 15@95%%: %q", x, lines)
	}
	if x := gui.hints["F5"]; !x.book || x.depth != "22" {
		t.Errorf("F5: %+v, want a book hint at depth 22: %q", x, lines)
	}
}
