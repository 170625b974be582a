// Package nboard speaks NBoard protocol version 2, the line protocol with
// which the NBoard GUI (and tools that mimic it, such as match harnesses)
// drives an Othello engine over stdin and stdout.
//
// The package only translates: the play layer (package play) chooses the
// moves, keeps the clock and reads the input. A command that arrives while
// the engine is thinking stops the search first, so that "ping N" is
// answered at once and nothing of an old search is written after the
// "pong N". The GUI merges stderr into stdout, so error messages start with
// "outflank:",
// never with a protocol keyword; the errors of known commands are also sent
// as a "status" line, which NBoard shows. Unknown commands are reported on
// stderr and ignored.
package nboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
	"github.com/outflank-othello/outflank/search"
)

// Config holds the engine's name and defaults.
type Config struct {
	Name string // one word; "set myname" sends it as it is
	// Threads is the number of search threads, said in a status line when
	// the GUI opens the protocol (0: not said).
	Threads int
	Depth   int // midgame depth until the GUI sends "set depth" (default 12)
	// Time, if set, caps the time of a move or hint whatever the clock says.
	Time time.Duration
	// Book, if not nil, answers go in the opening and adds "book" lines to
	// hints.
	Book play.Book
	// Ponder: after answering go, think on the opponent's time (the
	// position after the answer) until the next line arrives.
	Ponder bool
}

// Run speaks NBoard on in and out until "quit" or the end of input, writing
// error lines to errOut (which may be out). At the end of input a running
// search is allowed to finish and report, so that piped scripts get their
// answers (a GUI that has gone away has closed our output as well, and the
// next line written ends the process). It returns nil on a normal end.
func Run(in io.Reader, out, errOut io.Writer, eng play.Searcher, cfg Config) error {
	if cfg.Name == "" {
		cfg.Name = "Outflank"
	}
	if cfg.Depth <= 0 {
		cfg.Depth = play.DefaultDepth
	}
	s := &session{
		cfg:    cfg,
		player: &play.Player{Engine: eng, Book: cfg.Book, Settings: play.Settings{Depth: cfg.Depth, Time: cfg.Time}},
		out:    textio.NewOut(out, errOut),
		game:   &bitboard.Game{Start: bitboard.Start()},
	}
	stop := make(chan struct{})
	defer close(stop)
	s.in = play.NewInput(in, stop, nil)
	for {
		if pos, ok := s.ponderTarget(); ok {
			s.in.PonderWhileIdle(s.player, pos)
		}
		l, ok := s.in.Next()
		if !ok {
			return nil
		}
		if s.handle(l) {
			return nil
		}
	}
}

type session struct {
	cfg Config
	// ponder is the engine's last answer while the game stays at it, the
	// position before or after it (Config.Ponder): what to think about
	// before the next command.
	ponder  *answered
	player  *play.Player
	in      *play.Input
	out     *textio.Out
	game    *bitboard.Game
	version int
}

// commands maps each command to its handler, which gets the rest of the
// line (a GGF record has spaces); "quit" is handled apart. Other lines are
// reported and ignored without disturbing a search.
var commands map[string]func(s *session, arg string) error

func init() {
	commands = map[string]func(s *session, arg string) error{
		"nboard":  (*session).nboard,
		"set":     (*session).set,
		"move":    (*session).move,
		"ping":    (*session).ping,
		"learn":   (*session).learn,
		"hint":    (*session).hint,
		"go":      (*session).goMove,
		"analyze": (*session).analyze,
		"quit":    nil,
	}
}

// known reports whether l is a command to run; other lines are reported
// here and ignored.
func (s *session) known(l textio.Line) bool {
	if l.TooLong {
		s.out.Errorf("outflank: input line longer than %d bytes ignored (starts %q)", textio.MaxLine, l.Text)
		return false
	}
	if l.Dropped > 0 {
		s.out.Errorf("outflank: %s", play.DropMessage(l))
		return false
	}
	cmd, _ := splitWord(l.Text)
	if _, ok := commands[cmd]; cmd != "" && !ok {
		s.out.Errorf("outflank: unknown command %q ignored", clip(l.Text))
		return false
	}
	return cmd != ""
}

// watch is what a line does to a running search: a command stops it and
// runs after it; other lines are reported and leave it alone.
func (s *session) watch(l textio.Line) (stop, keep bool) {
	if s.known(l) {
		return true, true
	}
	return false, false
}

// think runs f as the search of a command, watching the input meanwhile.
// Its output goes through one reporter, so that the lines of the search
// come out whole and before the answer to the command that stopped it.
func (s *session) think(f func(ctx context.Context, r *textio.Reporter)) {
	r := s.out.Reporter()
	defer r.Close()
	s.in.While(func(ctx context.Context) { f(ctx, r) }, s.watch)
}

// handle runs one command line; it returns true on quit.
func (s *session) handle(l textio.Line) (quit bool) {
	if !s.known(l) {
		return false
	}
	cmd, arg := splitWord(l.Text)
	if cmd == "quit" {
		return true
	}
	if err := commands[cmd](s, arg); err != nil {
		s.out.Errorf("outflank: %s: %v", cmd, err)
		// NBoard shows stderr nowhere a user looks (it merges it into the
		// engine's output and ignores lines it does not know), but it
		// shows the status line: what went wrong goes there too.
		s.out.Printf("status %s: %v", cmd, err)
	}
	return false
}

func (s *session) ping(arg string) error {
	s.out.Println(strings.TrimSpace("pong " + arg))
	return nil
}

// learn adds the game to the book. The GUI waits for "learned" whatever
// happens, and clears its status when it comes: a failure is reported after
// it (by handle).
func (s *session) learn(string) error {
	var err error
	if l, ok := s.cfg.Book.(play.Learner); ok {
		err = l.Learn(s.game)
	} else {
		err = errors.New("no opening book to learn into (--no-book)")
	}
	s.out.Println("learned")
	return err
}

func (s *session) nboard(arg string) error {
	v, err := strconv.Atoi(arg)
	if err != nil || v < 1 {
		return fmt.Errorf("protocol version %q is not a number from 1 up", clip(arg))
	}
	s.version = v
	if s.cfg.Threads > 0 {
		s.out.Printf("status %s ready, %d thread%s", s.cfg.Name, s.cfg.Threads, plural(s.cfg.Threads))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (s *session) set(arg string) error {
	what, val := splitWord(arg)
	switch what {
	case "depth":
		d, err := strconv.Atoi(val)
		if err != nil || d < 1 || d > 60 {
			return fmt.Errorf("depth %q is not a number from 1 to 60", clip(val))
		}
		s.player.Settings.Depth = d
		// One name whatever the depth: when one process is both NBoard's
		// opponent and its analyst, each sends its own depth, and a name
		// with the depth in it would flip between the two.
		s.out.Printf("set myname %s", s.cfg.Name)
	case "game":
		g, err := bitboard.ParseGGF(val)
		if err != nil {
			return fmt.Errorf("game not changed: %w", err)
		}
		if _, _, err := play.GameClock(g); err != nil {
			return fmt.Errorf("game not changed: %w", err)
		}
		if len(g.Moves) == 0 || !samePrefix(s.game, g) {
			s.player.NewGame() // what the TT knows may mislead
		}
		s.game = g
	case "contempt":
		// NBoard sends +100 or -100 ("draws to Black/White"); NaN, an
		// infinity or a 300-digit value would be printed as a move's value.
		c, err := strconv.ParseFloat(val, 64)
		if err != nil || !(c >= -100 && c <= 100) {
			return fmt.Errorf("contempt %q is not a number from -100 to 100", clip(val))
		}
		s.player.Settings.Contempt = c
	case "":
		return errors.New("missing what to set (depth, game or contempt)")
	default:
		return fmt.Errorf("unknown setting %q ignored", clip(what))
	}
	return nil
}

// samePrefix reports whether b continues the game a (same start, a's moves
// first), as when the GUI resends a game after a move or two.
func samePrefix(a, b *bitboard.Game) bool {
	if a.Start != b.Start || len(b.Moves) < len(a.Moves) {
		return false
	}
	for i, m := range a.Moves {
		if b.Moves[i].Square != m.Square {
			return false
		}
	}
	return true
}

func (s *session) move(arg string) error {
	if arg == "" {
		return errors.New("missing the move (e.g. move F5)")
	}
	m, err := bitboard.ParseGameMove(arg)
	if err != nil {
		return err
	}
	if err := s.game.Append(m); err != nil {
		return fmt.Errorf("%s not played: %w", m.Square.Upper(), err)
	}
	return nil
}

func (s *session) hint(arg string) error {
	n := 1
	if arg != "" {
		v, err := strconv.Atoi(arg)
		if err != nil || v < 1 {
			return fmt.Errorf("number of moves %q is not a number from 1 up", clip(arg))
		}
		n = min(v, 64)
	}
	pos := s.game.Current()
	if pos.GameOver() {
		return errors.New("the game is over")
	}
	s.think(func(ctx context.Context, r *textio.Reporter) {
		r.Println("status thinking")
		defer r.Println("status")
		h := newHintLines(r.Printf, n, s.player.BookMoves(pos, n))
		if !h.needSearch() {
			return // the book's lines are the hint
		}
		t0 := time.Now()
		var last search.Info
		reported := false
		// A move shown at one depth must get its value at the next (see
		// hintLines). Several best moves are scored with a full window
		// each, so scoring every move costs nothing more; a single best
		// move is found about three times cheaper by a null-window search,
		// and the moves it dropped are valued once at the end instead
		// (unless the best could be a book move, already shown).
		multi := bitboard.Count(pos.Moves())
		if h.want == 1 && len(h.book) == 0 {
			multi = 1
		}
		info := s.player.Hint(ctx, pos, multi, func(in search.Info) {
			h.search(in)
			r.Printf("nodestats %d %s", in.Nodes, seconds(time.Since(t0)))
			last, reported = in, true
		})
		// The final result may be more than the last report (a last
		// iteration, or a solve): send it too.
		if !reported || !sameResult(last, info) {
			h.search(info)
			r.Printf("nodestats %d %s", info.Nodes, seconds(time.Since(t0)))
		}
		for _, m := range h.missing() {
			v, ok := s.moveValue(ctx, pos, m, info)
			if !ok {
				break
			}
			h.revalue(info, m, v)
		}
	})
	return nil
}

// moveValue searches move m of pos as deep as the final result in went
// (a solve if in is one), for the value of a move that left the hint's
// best moves; ok is false if the search was stopped or fell short.
func (s *session) moveValue(ctx context.Context, pos bitboard.Position, m bitboard.Square, in search.Info) (score int, ok bool) {
	lim := s.player.Settings.Limits()
	if in.Exact {
		lim.EndgameEmpties, lim.WLD = search.AlwaysSolve, in.WLD
	} else {
		lim.Depth = max(in.Depth-1, 1)
	}
	child := play.Think(ctx, s.player.Engine, pos.Play(m), lim, nil)
	if ctx.Err() != nil || (in.Exact && !child.Exact) || (!child.Exact && child.Depth < lim.Depth) {
		return 0, false
	}
	return -child.Score, true
}

// sameResult reports whether two results would give the same search lines.
func sameResult(a, b search.Info) bool {
	if a.Depth != b.Depth || a.Exact != b.Exact || a.WLD != b.WLD || a.Score != b.Score ||
		len(a.PV) != len(b.PV) || len(a.Moves) != len(b.Moves) {
		return false
	}
	for i := range a.PV {
		if a.PV[i] != b.PV[i] {
			return false
		}
	}
	for i := range a.Moves {
		if a.Moves[i] != b.Moves[i] {
			return false
		}
	}
	return true
}

// depthText is the depth column: the depth, with @percent for a selective
// search, or 100% for an exact solve and 100%W for a win/loss/draw one.
func depthText(in search.Info) string {
	switch {
	case in.Exact && in.WLD:
		return "100%W"
	case in.Exact:
		return "100%"
	case in.Selectivity > 0 && in.Selectivity < 100:
		// A selective (Multi-ProbCut) result, as Edax shows it: 18@95%.
		return strconv.Itoa(in.Depth) + "@" + strconv.Itoa(in.Selectivity) + "%"
	}
	return strconv.Itoa(in.Depth)
}

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}

func (s *session) goMove(arg string) error {
	pos := s.game.Current()
	if pos.GameOver() {
		return errors.New("the game is over: no move to make")
	}
	clock, ok, err := play.GameClock(s.game)
	if err != nil {
		return err
	}
	var c *play.Clock
	if ok {
		c = &clock
	}
	s.think(func(ctx context.Context, r *textio.Reporter) {
		r.Println("status thinking")
		t0 := time.Now()
		m, info := s.player.Go(ctx, pos, c, func(in search.Info) {
			if in.Best != bitboard.NoSquare {
				// Value and depth first: NBoard's status bar cuts a long
				// line of play, and the value is what the user looks for.
				r.Printf("status %+.2f depth %s: %s", float64(in.Score), depthText(in), play.FormatPV(in.PV))
			}
		})
		if s.cfg.Ponder {
			if next, err := pos.PlayMove(m.Square); err == nil {
				s.ponder = &answered{from: pos, to: next}
			}
		}
		if pr := m.Ponder.String(); pr != "" {
			r.Println("status " + pr) // how often pondering pays, for a match's --log
		}
		if m.How == play.FromBook {
			r.Printf("=== %s/%.2f/0.00", m.Square.Upper(), m.Eval)
			return
		}
		el := time.Since(t0)
		r.Printf("nodestats %d %s", info.Nodes, seconds(el))
		r.Printf("=== %s/%.2f/%s", m.Square.Upper(), m.Eval, strconv.FormatFloat(el.Seconds(), 'f', 2, 64))
	})
	return nil
}

// analyze evaluates every position of the game, last first (so that the
// endgame's exact results help the earlier positions through the hash
// table), sending "analysis <movesMade> <eval>" for each. The eval is from
// Black's side, as NBoard plots it (its own engine reports so): from the
// side to move, the curve would flip sign at every move.
func (s *session) analyze(string) error {
	positions := s.game.Positions()
	s.think(func(ctx context.Context, r *textio.Reporter) {
		r.Println("status analysing")
		s.player.Analyze(ctx, positions, func(i int, info search.Info) {
			v := float64(info.Score)
			if positions[i].ToMove == bitboard.White {
				v = -v
			}
			r.Printf("analysis %d %.2f", i, v)
		})
		r.Println("status")
	})
	return nil
}

func splitWord(s string) (word, rest string) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimSpace(s[i+1:])
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// answered is a position the engine answered and the one its move leads to.
type answered struct{ from, to bitboard.Position }

// ponderTarget says what to ponder before the next command: the position
// after the engine's last answer, as long as the game is still at that
// answer (the GUI has not yet sent the move, or has sent it and the
// opponent has not replied). GUIs send the engine's own move back, a ping
// and other commands between moves: each stops a ponder, and this takes
// it up again until the opponent's move (or a new game) arrives.
func (s *session) ponderTarget() (bitboard.Position, bool) {
	if s.ponder == nil {
		return bitboard.Position{}, false
	}
	if cur := s.game.Current(); cur != s.ponder.from && cur != s.ponder.to {
		s.ponder = nil
		return bitboard.Position{}, false
	}
	return s.ponder.to, true
}
