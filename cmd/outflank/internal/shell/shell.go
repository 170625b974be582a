// Package shell is Outflank's command line for people: play a game against
// the engine or watch it play, ask for hints and exact solves, set up
// positions, take moves back, load and save games. It reads one command a
// line, so it also runs scripts ("outflank shell < script").
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
	"github.com/outflank-othello/outflank/search"
)

// Config holds the shell's start-up settings.
type Config struct {
	Name, Version string
	Interactive   bool // a person at a terminal: greeting, prompt, search progress
	Level         int  // depth and endgame (default 12)
	Time          time.Duration
	Options       search.Options // the engine's: the shell changes HashMB and Threads
	Book          play.Book      // if not nil, the engine plays book moves (see "book on|off")
	// Interrupt, if not nil, stops the running search (Ctrl-C); when idle
	// it ends the shell.
	Interrupt <-chan struct{}
	// Editor, if not nil, reads the lines instead of in, with line editing
	// and history, and takes the output (a terminal in raw mode); its Ctrl-C
	// is the interrupt.
	Editor *Editor
	// Width is the width of the output in columns for help text (default 80).
	Width int
	// Ponder: at a terminal, when it is the person's turn against the
	// engine, think on the person's time ("ponder on|off").
	Ponder bool
	// ReadFile and WriteFile access files for load and save (default: the
	// os package); tests replace them.
	ReadFile  func(name string) ([]byte, error)
	WriteFile func(name string, data []byte) error
}

// ErrScript is returned (wrapped) by Run when a command of a script failed,
// so that "outflank shell < script" exits with a failure status. Each error
// has already been reported on its own line.
var ErrScript = errors.New("the script had errors")

// Run runs the shell until "quit" or the end of input. Reading a script
// (not Interactive), it returns an error wrapping ErrScript if any command
// failed.
func Run(in io.Reader, out, errOut io.Writer, newEngine play.Factory, cfg Config) error {
	if cfg.Name == "" {
		cfg.Name = "Outflank"
	}
	if cfg.Level <= 0 {
		cfg.Level = play.DefaultDepth
	}
	if cfg.ReadFile == nil {
		cfg.ReadFile = readGameFile
	}
	if cfg.WriteFile == nil {
		cfg.WriteFile = atomicfile.WriteFile
	}
	if cfg.Editor != nil {
		in, out, errOut = cfg.Editor, cfg.Editor, cfg.Editor
		if cfg.Interrupt == nil {
			cfg.Interrupt = cfg.Editor.Interrupt()
		}
		if cfg.Width == 0 {
			cfg.Width = cfg.Editor.Width()
		}
	}
	if cfg.Width <= 0 {
		cfg.Width = 80
	}
	s := &shell{
		cfg:       cfg,
		newEngine: newEngine,
		opts:      cfg.Options,
		out:       textio.NewOut(out, errOut),
		hist:      play.NewHistory(bitboard.Start()),
		player: &play.Player{Book: cfg.Book, Settings: play.Settings{
			Depth: cfg.Level, Endgame: play.EndgameEmpties(cfg.Level), Time: cfg.Time, NoBook: cfg.Book == nil}},
	}
	s.player.Engine = newEngine(s.opts)
	stop := make(chan struct{})
	defer close(stop)
	s.in = play.NewInput(in, stop, cfg.Interrupt)
	if cfg.Interactive {
		s.answer = true
		s.out.Printf("%s %s, an Othello engine (%s). Type \"help\" for the commands; moves like f5 play.", cfg.Name, cfg.Version, threadsText(s.opts.Threads))
		s.out.Printf("Play a move and %s answers with the other colour (\"engine none\": you play both sides; \"engine black|white|both\": choose).", cfg.Name)
		s.showBoard()
	}
	for {
		switch {
		case cfg.Editor != nil:
			cfg.Editor.Prompt(s.prompt()) // the editor shows it when it reads the line
		case cfg.Interactive:
			s.out.Prompt(s.prompt())
		}
		if pos, ok := s.ponderTarget(); ok {
			s.in.PonderWhileIdle(s.player, pos)
		}
		l, ok := s.in.Next()
		if !ok {
			if cfg.Interactive {
				s.out.Println("")
			}
			return s.scriptErr()
		}
		if l.TooLong {
			s.errorf("line too long (over %d bytes)", textio.MaxLine)
			continue
		}
		if l.Dropped > 0 {
			s.errorf("%s", play.DropMessage(l))
			continue
		}
		if s.handle(l.Text) {
			return s.scriptErr()
		}
	}
}

// scriptErr is Run's result: ErrScript if a command of a script failed.
func (s *shell) scriptErr() error {
	if s.failed == 0 || s.cfg.Interactive {
		return nil
	}
	plural := "s"
	if s.failed == 1 {
		plural = ""
	}
	return fmt.Errorf("%w (%d failed command%s)", ErrScript, s.failed, plural)
}

type shell struct {
	cfg       Config
	newEngine play.Factory
	player    *play.Player // its settings are the shell's depth, endgame, time and book
	opts      search.Options
	out       *textio.Out
	hist      *play.History
	engineFor [2]bool // colours the engine plays by itself
	in        *play.Input
	failed    int // commands that ended in an error
	// answer: at a terminal, until an "engine" command says otherwise, the
	// engine takes the colour the user's first move did not play.
	answer bool
}

func (s *shell) prompt() string {
	pos := s.hist.Position()
	if pos.GameOver() {
		return "game over> "
	}
	return fmt.Sprintf("%s %d> ", pos.ToMove, s.hist.Moves()+1)
}

func (s *shell) errorf(format string, args ...any) {
	s.failed++
	s.out.Errorf("error: "+format, args...)
}

type cmdInfo struct {
	args, help string
	run        func(s *shell, args []string) error
}

var cmds map[string]cmdInfo

var aliases = map[string]string{
	"exit": "quit", "q": "quit", "?": "help", "h": "help", "b": "board", "show": "board",
	"setboard": "board", "u": "undo", "r": "redo", "n": "new", "g": "go", "p": "play",
}

func init() {
	cmds = map[string]cmdInfo{
		"help":    {"[COMMAND]", "list the commands, or explain one", (*shell).help},
		"quit":    {"", "leave the shell", nil},
		"new":     {"[handicap N [black|white]]", "start a new game; a handicap puts the weaker side's discs (black's by default) on N corners (1-4)", (*shell).newGame},
		"play":    {"MOVES", "play moves: one (f5) or a transcript (f5d6c3, f5 d6 c3); a bare move or transcript works without \"play\"", (*shell).play},
		"pass":    {"", "pass (only when you have no move)", (*shell).pass},
		"undo":    {"[N]", "take back N moves (default 1)", (*shell).undo},
		"redo":    {"[N]", "replay N moves taken back (default 1)", (*shell).redo},
		"go":      {"", "the engine plays a move for the side to move", (*shell).goMove},
		"hint":    {"[N]", "evaluate the N best moves (default 3), one value a move and where it comes from: \"book 29@73%\" (the opening book's search, kept where it looked deeper than this one), \"depth 12@73%\" (this search), \"exact\" (solved). " + selectiveHelp, (*shell).hint},
		"solve":   {"[wld]", "solve the position exactly (or only win/loss/draw) within the \"time\" setting (beyond 30 empties: a search for that time, after an estimate of the solve), its progress on one updating line at a terminal", (*shell).solve},
		"board":   {"[BOARD]", "show the board, or set it: 64 squares X/O/- from a1 to h8, then the side to move", (*shell).board},
		"engine":  {"black|white|both|none", "choose which sides the engine plays by itself", (*shell).engineSides},
		"level":   {"N", "strength: midgame depth N, exact endgame at 2N empties (up to 24)", (*shell).level},
		"depth":   {"N", "midgame depth (1-60)", (*shell).setDepth},
		"endgame": {"N", "solve exactly from N empties (0-60)", (*shell).setEndgame},
		"time":    {"SECONDS", "time limit per move and per solve: 5 or 5s, 500ms, 1m (0: none)", (*shell).setTime},
		"threads": {"N", "search threads", (*shell).setThreads},
		"hash":    {"MB", "transposition table size", (*shell).setHash},
		"load":    {"FILE", "load a game: GGF, a transcript, or a board", (*shell).load},
		"save":    {"FILE", "save the game: GGF if FILE ends in .ggf, else the transcript", (*shell).save},
		"game":    {"", "show the game's moves and its GGF record", (*shell).showGame},
		"analyze": {"", "search every position of the game (the \"level\" setting: exact in the endgame, selective before) and list each move's loss against the best move, then the worst mistakes", (*shell).analyze},
		"status":  {"", "show the settings", (*shell).status},
		"book":    {"on|off", "whether the engine plays opening-book moves (hint lists them either way)", (*shell).setBook},
		"ponder":  {"on|off", "whether the engine thinks on your time while you play against it (off by default: it keeps the cores busy while you think)", (*shell).setPonder},
	}
}

// selectiveHelp says what a selective depth means, as Edax and NBoard
// write it.
const selectiveHelp = "A depth written 12@73% is selective: the search looked 12 moves ahead but cut the moves a shallow search judged hopeless, each cut right with 73% confidence (Multi-ProbCut); a depth with no @ cut nothing. Values at odd and even depths differ by a disc or two (the side that moves last gains), so compare values of the same depth."

// handle runs one line; it returns true on quit.
func (s *shell) handle(line string) bool {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i] // comments in scripts
	}
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false
	}
	name := strings.ToLower(fields[0])
	if a, ok := aliases[name]; ok {
		name = a
	}
	if name == "quit" {
		return true
	}
	c, ok := cmds[name]
	if !ok {
		// A move or a transcript needs no command word.
		if _, err := bitboard.ParseMoves(strings.Join(fields, " ")); err == nil && !strings.EqualFold(fields[0], "pass") {
			name, c = "play", cmds["play"]
		} else {
			s.errorf("unknown command %q (type \"help\" for the list)", fields[0])
			return false
		}
		fields = append([]string{"play"}, fields...)
	}
	if err := c.run(s, fields[1:]); err != nil {
		// Errors from below may already name the command ("board: ...").
		s.errorf("%s: %s", name, strings.TrimPrefix(err.Error(), name+": "))
	}
	return false
}

func (s *shell) help(args []string) error {
	if len(args) > 0 {
		name := strings.ToLower(args[0])
		if a, ok := aliases[name]; ok {
			name = a
		}
		c, ok := cmds[name]
		if !ok {
			return fmt.Errorf("unknown command %q", args[0])
		}
		s.out.Println(strings.TrimSpace(name + " " + c.args))
		for _, l := range textio.Wrap(c.help, s.cfg.Width-helpIndent) {
			s.out.Println(strings.Repeat(" ", helpIndent) + l)
		}
		return nil
	}
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		for _, l := range helpEntry(strings.TrimSpace(n+" "+cmds[n].args), cmds[n].help, s.cfg.Width) {
			s.out.Println(l)
		}
	}
	for _, l := range textio.Wrap("Moves are squares a1-h8 (a1 top left); a transcript such as f5d6c3 plays several. \"help COMMAND\" explains one command.", s.cfg.Width) {
		s.out.Println(l)
	}
	return nil
}

// helpIndent is the column where command descriptions start in "help".
const helpIndent = 18

// helpEntry lays out one command of the help list within width columns: the
// synopsis, then the description from column helpIndent, wrapped; a synopsis
// too long for its column gets a line of its own, so the descriptions stay
// aligned.
func helpEntry(synopsis, help string, width int) []string {
	text := textio.Wrap(help, max(width-helpIndent, 20))
	pad := strings.Repeat(" ", helpIndent)
	var out []string
	first := "  " + synopsis
	if len(first) < helpIndent {
		out = append(out, first+pad[len(first):]+text[0])
		text = text[1:]
	} else {
		out = append(out, first)
	}
	for _, l := range text {
		out = append(out, pad+l)
	}
	return out
}

func noArgs(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected %q", strings.Join(args, " "))
	}
	return nil
}

// showBoard prints the board, whose move it is, and the result at the end.
func (s *shell) showBoard() {
	pos := s.hist.Position()
	s.out.Println(strings.TrimRight(pos.Picture(pos.Moves()), "\n"))
	switch {
	case pos.GameOver():
		s.out.Printf("Game over: %s.", finalScore(pos))
	default:
		last := ""
		if g := s.hist.Game(); len(g.Moves) > 0 {
			m := g.Moves[len(g.Moves)-1].Square
			if m == bitboard.PassMove && len(g.Moves) > 1 {
				last = fmt.Sprintf(" (%s passed)", pos.ToMove.Other())
			} else if m != bitboard.PassMove {
				last = fmt.Sprintf(" (last move %s)", m)
			}
		}
		s.out.Printf("%s to move%s; legal moves (*): %s", capital(pos.ToMove.String()), last, bitboard.SquaresString(pos.Moves()))
	}
}

// finalScore describes the end of a game: the discs on the board, as the
// rule booklet counts them, and, when squares are left empty, the score
// with the empties given to the winner (half each in a draw), as
// tournaments, solve, match and NBoard count it.
func finalScore(pos bitboard.Position) string {
	r := pos.Result()
	e := pos.Empties()
	if e == 0 {
		return r.String()
	}
	b := pos.BlackScoreEmptiesToWinner()
	hi, lo := b, 64-b
	if hi < lo {
		hi, lo = lo, hi
	}
	given := "to the winner"
	if r.Draw {
		given = "half to each"
	}
	return fmt.Sprintf("%s on the board; %d-%d with the %d empty squares %s, as tournaments count", r, hi, lo, e, given)
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// afterMoves makes forced passes, shows the board, then lets the engine
// play the sides it plays.
func (s *shell) afterMoves() {
	s.forcePass()
	s.showBoard()
	s.autoPlay()
}

func (s *shell) forcePass() {
	if s.hist.ForcePass() {
		s.out.Printf("%s has no legal move and passes.", capital(s.hist.Position().ToMove.Other().String()))
	}
}

// autoPlay lets the engine move while the side to move is one it plays.
func (s *shell) autoPlay() {
	for {
		pos := s.hist.Position()
		if pos.GameOver() || !s.engineFor[pos.ToMove] {
			return
		}
		if !s.engineMove() {
			return
		}
	}
}

// engineMove searches and plays a move. An interrupted search plays the
// best move found so far and returns false, so that an engine playing
// both sides stops (and no longer plays by itself).
func (s *shell) engineMove() bool {
	pos := s.hist.Position()
	var m play.Move
	var info search.Info
	stopped := s.search(func(ctx context.Context, progress func(search.Info)) {
		m, info = s.player.Go(ctx, pos, nil, progress)
	})
	if m.How == play.FromBook {
		b := m.Book
		s.hist.Play(bitboard.GameMove{Square: b.Move, Eval: b.Score, HasEval: true}) // legal: Go checks
		s.out.Printf("%s plays %s for %s: book move, %+.2f (%s)", s.cfg.Name, b.Move, pos.ToMove, b.Score, b.Basis())
		s.forcePass()
		s.showBoard()
		return true
	}
	if stopped {
		s.out.Println("Stopped: playing the best move found so far.")
		if s.engineFor == [2]bool{true, true} {
			s.engineFor = [2]bool{}
			s.out.Println("The engine no longer plays by itself (\"engine both\" resumes).")
		}
	}
	if err := s.hist.Play(bitboard.GameMove{Square: info.Best, Eval: float64(info.Score), HasEval: true, Time: info.Time.Seconds(), HasTime: true}); err != nil {
		s.errorf("engine move %s: %v", info.Best, err) // cannot happen: Go returns legal moves
		return false
	}
	s.out.Printf("%s plays %s for %s: %s", s.cfg.Name, info.Best, pos.ToMove, describe(info))
	s.forcePass()
	s.showBoard()
	return !stopped
}

// describe is the one-line summary of a search result.
func describe(in search.Info) string {
	depth := "depth " + play.DepthText(in.Depth, in.Selectivity)
	switch {
	case in.Exact && in.WLD:
		depth = "win/loss/draw solved"
	case in.Exact:
		depth = "exact"
	}
	return fmt.Sprintf("eval %s, %s, %s s, %d nodes, line %s", score(in), depth,
		strconv.FormatFloat(in.Time.Seconds(), 'f', 2, 64), in.Nodes, line(in.PV))
}

func score(in search.Info) string {
	if in.Exact && in.WLD {
		switch {
		case in.Score > 0:
			return "win"
		case in.Score < 0:
			return "loss"
		}
		return "draw"
	}
	if st := in.Steady(); st != float64(in.Score) {
		// A midgame score swings with the parity of the depth: the mean
		// with the iteration before is the steadier figure to read.
		return fmt.Sprintf("%+d (steady %+.1f with depth %d)", in.Score, st, in.BeforeDepth)
	}
	return fmt.Sprintf("%+d", in.Score)
}

// line writes a line of play for people the way every Outflank command
// does: squares in lower case, as typed, and "pass" for a pass.
func line(pv []bitboard.Square) string {
	parts := make([]string, len(pv))
	for i, m := range pv {
		parts[i] = m.String()
		if m == bitboard.PassMove {
			parts[i] = "pass"
		}
	}
	return strings.Join(parts, " ")
}

// search runs f, a search of the player, on its own goroutine; Ctrl-C
// stops it. Lines typed meanwhile wait their turn. progress shows the
// search's reports to a person at a terminal. stopped reports an
// interrupt.
func (s *shell) search(f func(ctx context.Context, progress func(search.Info))) (stopped bool) {
	progress := func(search.Info) {}
	if s.cfg.Interactive {
		r := s.out.Reporter()
		defer r.Close()
		progress = s.progress(r)
	}
	return s.in.While(func(ctx context.Context) { f(ctx, progress) }, s.watch())
}

// watch is what a line that arrives during a search does: in a script
// every line waits its turn (a quit after "engine both" ends the shell
// after the game); at a terminal quit stops the search, so that the shell
// leaves at once (at a high level a search may run for hours).
func (s *shell) watch() play.Watch {
	if s.cfg.Interactive || s.cfg.Editor != nil {
		return watchQuit
	}
	return play.Keep
}

// watchQuit keeps every line and stops the search on quit.
func watchQuit(l textio.Line) (stop, keep bool) {
	text, _, _ := strings.Cut(l.Text, "#")
	f := strings.Fields(text)
	return len(f) > 0 && (f[0] == "quit" || aliases[f[0]] == "quit"), true
}

// progress shows a search's reports: at a terminal on one line that each
// report replaces, cut to the screen's width (a long solve would otherwise
// fill the screen with wrapped lines), elsewhere a line each.
func (s *shell) progress(r *textio.Reporter) func(search.Info) {
	return func(in search.Info) {
		if in.Best == bitboard.NoSquare {
			return
		}
		text := "  " + describe(in)
		if s.cfg.Editor == nil {
			r.Println(text)
			return
		}
		if w := s.cfg.Width - 1; len(text) > w {
			text = text[:max(w-3, 0)] + "..."
		}
		r.Status(text)
	}
}

func (s *shell) newGame(args []string) error {
	start := bitboard.Start()
	if len(args) > 0 {
		if !strings.EqualFold(args[0], "handicap") || len(args) < 2 || len(args) > 3 {
			return errors.New("want \"new\" or \"new handicap N [black|white]\"")
		}
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 || n > 4 {
			return fmt.Errorf("handicap %q is not a number of corners from 1 to 4", args[1])
		}
		weaker := bitboard.Black
		if len(args) == 3 {
			switch strings.ToLower(args[2]) {
			case "black", "b":
			case "white", "w":
				weaker = bitboard.White
			default:
				return fmt.Errorf("%q is not black or white", args[2])
			}
		}
		start = bitboard.Handicap(n, weaker)
	}
	s.hist = play.NewHistory(start)
	s.player.NewGame()
	s.afterMoves()
	return nil
}

func (s *shell) play(args []string) error {
	if len(args) == 0 {
		return errors.New("missing the moves (e.g. play f5 or play f5d6c3)")
	}
	moves, err := bitboard.ParseMoves(strings.Join(args, " "))
	if err != nil {
		return err
	}
	before := s.hist.Moves()
	mover := bitboard.Color(-1)
	for _, m := range moves {
		if gm := s.hist.Game().Moves; m == bitboard.PassMove && len(gm) > 0 &&
			gm[len(gm)-1].Square == bitboard.PassMove && !s.hist.Position().MustPass() {
			continue // a transcript's explicit pass, already made by forcePass
		}
		pos := s.hist.Position()
		if err := s.hist.Play(bitboard.GameMove{Square: m}); err != nil {
			if n := s.hist.Moves(); n > before {
				s.showBoard() // the moves before it stand
			}
			// Numbered as a move of the game (passes count), as the prompt
			// and the GGF record number it.
			return fmt.Errorf("move %d (%s) not played: %s", s.hist.Moves()+1, line([]bitboard.Square{m}), reason(pos, m))
		}
		if m != bitboard.PassMove {
			mover = pos.ToMove
		}
		s.forcePass()
	}
	if s.answer && mover >= 0 {
		s.answer = false
		s.engineFor[mover.Other()] = true
		s.out.Printf("You play %s, %s plays %s (\"engine none\" to play both sides).", mover, s.cfg.Name, mover.Other())
	}
	s.afterMoves()
	return nil
}

// reason says why m is illegal in pos.
func reason(pos bitboard.Position, m bitboard.Square) string {
	_, err := pos.PlayMove(m)
	if err == nil {
		return "illegal"
	}
	switch {
	case errors.Is(err, bitboard.ErrGameOver):
		return "the game is over"
	case errors.Is(err, bitboard.ErrOccupied):
		return "the square is taken"
	case errors.Is(err, bitboard.ErrNoFlip):
		return fmt.Sprintf("it flips nothing; %s can play %s", pos.ToMove, bitboard.SquaresString(pos.Moves()))
	case errors.Is(err, bitboard.ErrCannotPass):
		return fmt.Sprintf("%s has a move (%s)", pos.ToMove, bitboard.SquaresString(pos.Moves()))
	}
	return err.Error()
}

func (s *shell) pass(args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	pos := s.hist.Position()
	if err := s.hist.Play(bitboard.GameMove{Square: bitboard.PassMove}); err != nil {
		return errors.New(reason(pos, bitboard.PassMove))
	}
	s.afterMoves()
	return nil
}

func count(args []string) (int, error) {
	if len(args) == 0 {
		return 1, nil
	}
	if len(args) > 1 {
		return 0, fmt.Errorf("unexpected %q", strings.Join(args[1:], " "))
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a number from 1 up", args[0])
	}
	return n, nil
}

func (s *shell) undo(args []string) error {
	n, err := count(args)
	if err != nil {
		return err
	}
	done := 0
	for ; done < n; done++ {
		if !s.hist.Undo() {
			break
		}
		// Against the engine, take back its reply too, so that it is the
		// person's turn again.
		for s.engineFor[s.hist.Position().ToMove] && !s.engineFor[s.hist.Position().ToMove.Other()] && s.hist.Undo() {
		}
	}
	if done == 0 {
		return errors.New("nothing to take back")
	}
	s.showBoard()
	return nil
}

func (s *shell) redo(args []string) error {
	n, err := count(args)
	if err != nil {
		return err
	}
	done := 0
	for ; done < n && s.hist.Redo(); done++ {
		// As undo took back the engine's reply with the person's move,
		// redo replays it too: the person is to move again, not the
		// engine, which would not move by itself after a redo.
		for s.engineFor[s.hist.Position().ToMove] && !s.engineFor[s.hist.Position().ToMove.Other()] && s.hist.Redo() {
		}
	}
	if done == 0 {
		return errors.New("nothing to redo")
	}
	s.showBoard()
	return nil
}

func (s *shell) goMove(args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	if s.hist.Position().GameOver() {
		return errors.New("the game is over (\"new\" starts another, \"undo\" takes moves back)")
	}
	if s.engineMove() {
		s.autoPlay()
	}
	return nil
}

func (s *shell) hint(args []string) error {
	n := 3
	if len(args) > 0 {
		var err error
		if n, err = count(args); err != nil {
			return err
		}
	}
	pos := s.hist.Position()
	if pos.GameOver() {
		return errors.New("the game is over")
	}
	var info search.Info
	stopped := s.search(func(ctx context.Context, progress func(search.Info)) {
		info = s.player.Hint(ctx, pos, n, progress)
	})
	if stopped {
		s.out.Println("Stopped; best so far:")
	}
	// One value a move: the book's where its search went deeper than this
	// one, the search's otherwise, each saying where it comes from. Every
	// book move is merged before the list is cut to n, so that a move the
	// book values deeper and lower never keeps the search's shallow value.
	for i, v := range play.HintValues(s.player.BookMoves(pos, 64), info) {
		if i == n {
			break
		}
		pv := ""
		if v.Move == info.Best && !v.FromBook {
			pv = "  " + line(info.PV)
		}
		s.out.Printf("%2d. %-3s %6s  (%s)%s", i+1, v.Move, valueText(v), v.Source(), pv)
	}
	return nil
}

// valueText writes a move's value: a search's whole discs ("+2"), a
// book's value to two decimals ("-2.50"), as the book holds it.
func valueText(v play.Value) string {
	if v.FromBook {
		return fmt.Sprintf("%+.2f", v.Score)
	}
	return fmt.Sprintf("%+d", int(v.Score))
}

func (s *shell) solve(args []string) error {
	wld := false
	if len(args) > 0 {
		if len(args) > 1 || !strings.EqualFold(args[0], "wld") {
			return fmt.Errorf("unexpected %q (want \"solve\" or \"solve wld\")", strings.Join(args, " "))
		}
		wld = true
	}
	pos := s.hist.Position()
	// Say at once what will happen, show the progress, and stop at the
	// shell's time setting, as "outflank solve" does: beyond
	// solveReachEmpties a solve cannot finish, so the search deepens until
	// the time is spent (with no time set it solves anyway; Ctrl-C stops).
	t := s.player.Settings.Time
	lim := search.Limits{EndgameEmpties: search.AlwaysSolve, WLD: wld, Time: t}
	what := "exactly"
	if wld {
		what = "for win, loss or draw"
	}
	how := ""
	if s.cfg.Interactive {
		how = "; Ctrl-C stops"
	}
	switch {
	case pos.Empties() > solveReachEmpties && t > 0:
		lim.EndgameEmpties, lim.Soft = 0, t
		s.out.Printf("%d empties: an exact solve would take about %s on one thread; searching for %s instead (the \"time\" setting; \"time 0\" solves anyway)%s.",
			pos.Empties(), play.SolveEstimate(pos.Empties()), t, how)
	case pos.Empties() > solveReachEmpties:
		s.out.Printf("%d empties: an exact solve would take about %s on one thread; solving anyway (\"time 0\")%s.",
			pos.Empties(), play.SolveEstimate(pos.Empties()), how)
	case t > 0:
		s.out.Printf("Solving %d empties %s, at most %s (the \"time\" setting)%s.", pos.Empties(), what, t, how)
	default:
		s.out.Printf("Solving %d empties %s, no time limit%s.", pos.Empties(), what, how)
	}
	var info search.Info
	stopped := s.in.While(func(ctx context.Context) {
		r := s.out.Reporter()
		defer r.Close()
		info = play.Think(ctx, s.player.Engine, pos, lim, s.progress(r))
	}, s.watch())
	switch {
	case stopped:
		s.out.Printf("Not solved (stopped): best so far %s", describe(info))
		return nil
	case !info.Exact:
		s.out.Printf("Not solved within %s (\"time 0\" removes the limit): best so far %s", t, describe(info))
		return nil
	}
	verdict := "a draw"
	switch {
	case info.Score > 0:
		verdict = fmt.Sprintf("%s wins", pos.ToMove)
	case info.Score < 0:
		verdict = fmt.Sprintf("%s wins", pos.ToMove.Other())
	}
	if !wld && info.Score != 0 {
		verdict += fmt.Sprintf(" by %d", abs(info.Score))
	}
	s.out.Printf("Solved: %s with perfect play (%s); %s", verdict, score(info), describe(info))
	return nil
}

// solveReachEmpties is where an exact solve stops being a matter of
// minutes (the solve command's limit too).
const solveReachEmpties = 30

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (s *shell) board(args []string) error {
	if len(args) == 0 {
		s.showBoard()
		return nil
	}
	pos, err := bitboard.ParseBoard(strings.Join(args, " "))
	if err != nil {
		return err
	}
	s.hist = play.NewHistory(pos)
	s.player.NewGame()
	s.afterMoves()
	return nil
}

func (s *shell) engineSides(args []string) error {
	if len(args) != 1 {
		return errors.New("want black, white, both or none")
	}
	switch strings.ToLower(args[0]) {
	case "black", "b":
		s.engineFor = [2]bool{true, false}
	case "white", "w":
		s.engineFor = [2]bool{false, true}
	case "both":
		s.engineFor = [2]bool{true, true}
	case "none", "neither", "off":
		s.engineFor = [2]bool{}
	default:
		return fmt.Errorf("%q: want black, white, both or none", args[0])
	}
	s.answer = false
	s.autoPlay()
	return nil
}

func oneInt(args []string, what string, lo, hi int) (int, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("want one number (%s)", what)
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s %q is not a number from %d to %d", what, args[0], lo, hi)
	}
	return n, nil
}

func (s *shell) level(args []string) error {
	n, err := oneInt(args, "level", 1, 60)
	if err != nil {
		return err
	}
	s.player.Settings.Depth, s.player.Settings.Endgame = n, play.EndgameEmpties(n)
	return s.status(nil)
}

func (s *shell) setDepth(args []string) error {
	n, err := oneInt(args, "depth", 1, 60)
	if err != nil {
		return err
	}
	s.player.Settings.Depth = n
	return s.status(nil)
}

func (s *shell) setEndgame(args []string) error {
	n, err := oneInt(args, "empties", 0, 60)
	if err != nil {
		return err
	}
	s.player.Settings.Endgame = n
	return s.status(nil)
}

func (s *shell) setTime(args []string) error {
	if len(args) != 1 {
		return errors.New("want a time per move, in seconds (5) or with a unit (5s, 500ms, 1m)")
	}
	d, err := play.ParseTime(args[0])
	if err != nil {
		return fmt.Errorf("%q: %w", args[0], err)
	}
	s.player.Settings.Time = d
	return s.status(nil)
}

func (s *shell) setThreads(args []string) error {
	n, err := oneInt(args, "threads", 1, 1024)
	if err != nil {
		return err
	}
	s.opts.Threads = n
	s.player.Engine = s.newEngine(s.opts)
	return s.status(nil)
}

func (s *shell) setHash(args []string) error {
	n, err := oneInt(args, "hash MB", 1, 1<<16)
	if err != nil {
		return err
	}
	s.opts.HashMB = n
	s.player.Engine = s.newEngine(s.opts)
	return s.status(nil)
}

func (s *shell) setBook(args []string) error {
	if len(args) != 1 {
		return errors.New("want on or off")
	}
	switch strings.ToLower(args[0]) {
	case "on":
		if s.cfg.Book == nil {
			return errors.New("no book loaded (started with --no-book?)")
		}
		s.player.Settings.NoBook = false
	case "off":
		s.player.Settings.NoBook = true
	default:
		return fmt.Errorf("%q: want on or off", args[0])
	}
	return s.status(nil)
}

func (s *shell) setPonder(args []string) error {
	if len(args) != 1 {
		return errors.New("want on or off")
	}
	switch strings.ToLower(args[0]) {
	case "on":
		s.cfg.Ponder = true
	case "off":
		s.cfg.Ponder = false
	default:
		return fmt.Errorf("%q: want on or off", args[0])
	}
	return s.status(nil)
}

// ponderTarget says what to think about while the shell waits for a line:
// with pondering on, at a terminal, the position the person is to move in
// while the engine plays the other side (all the person's replies at
// once, so that the engine's answer starts warm).
func (s *shell) ponderTarget() (bitboard.Position, bool) {
	pos := s.hist.Position()
	if !s.cfg.Ponder || !(s.cfg.Interactive || s.cfg.Editor != nil) || pos.GameOver() ||
		s.engineFor[pos.ToMove] || !s.engineFor[pos.ToMove.Other()] {
		return pos, false
	}
	return pos, true
}

func (s *shell) status(args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	set := s.player.Settings
	t := "none"
	if set.Time > 0 {
		t = strconv.FormatFloat(set.Time.Seconds(), 'f', -1, 64) + " s"
	}
	var sides []string
	for c, on := range s.engineFor {
		if on {
			sides = append(sides, bitboard.Color(c).String())
		}
	}
	if len(sides) == 0 {
		sides = []string{"none"}
	}
	book := "off"
	if !set.NoBook {
		book = "on"
	}
	ponder := "off"
	if s.cfg.Ponder {
		ponder = "on"
	}
	s.out.Printf("depth %d, exact from %d empties, time per move %s, threads %d, hash %d MB, book %s, engine plays %s, pondering %s",
		set.Depth, set.Endgame, t, s.opts.Threads, s.opts.HashMB, book, strings.Join(sides, " and "), ponder)
	return nil
}

// maxGameFile bounds what load reads: a GGF record of a whole game is
// about 2 KiB, a transcript less.
const maxGameFile = 1 << 20

// readGameFile reads a file for load, refusing what cannot be a game
// record before reading it: not a regular file (/dev/zero, a pipe) or over
// maxGameFile.
func readGameFile(name string) ([]byte, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	switch {
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file", name)
	case fi.Size() > maxGameFile:
		return nil, fmt.Errorf("%s: %d bytes, more than a game record's %d", name, fi.Size(), maxGameFile)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxGameFile+1))
	if err == nil && len(data) > maxGameFile {
		err = fmt.Errorf("%s: more than a game record's %d bytes", name, maxGameFile)
	}
	return data, err
}

func (s *shell) load(args []string) error {
	if len(args) != 1 {
		return errors.New("want one file name")
	}
	data, err := s.cfg.ReadFile(args[0])
	if err != nil {
		return err
	}
	g, err := parseGame(string(data))
	if err != nil {
		return fmt.Errorf("%s: %w", args[0], err)
	}
	s.hist = play.NewHistory(g.Start)
	s.hist.Reset(g)
	s.player.NewGame()
	s.out.Printf("Loaded %d moves from %s.", len(g.Moves), args[0])
	s.afterMoves()
	return nil
}

// parseGame reads a GGF record, a transcript from the standard start, or
// a board (OBF).
func parseGame(text string) (*bitboard.Game, error) {
	if strings.Contains(text, "(;") {
		return bitboard.ParseGGF(text)
	}
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, errors.New("empty file")
	}
	moves, merr := bitboard.ParseMoves(t)
	if merr == nil {
		played, _, err := bitboard.Replay(bitboard.Start(), moves)
		if err != nil {
			return nil, fmt.Errorf("transcript: %w", err)
		}
		g := &bitboard.Game{Start: bitboard.Start()}
		for _, m := range played {
			g.Moves = append(g.Moves, bitboard.GameMove{Square: m})
		}
		return g, nil
	}
	first, _, _ := strings.Cut(t, "\n")
	e, ok, err := bitboard.ParseOBFLine(first)
	if err == nil && ok {
		return &bitboard.Game{Start: e.Position}, nil
	}
	return nil, fmt.Errorf("not a GGF game, a transcript or a board (as a transcript: %v)", merr)
}

func (s *shell) save(args []string) error {
	if len(args) != 1 {
		return errors.New("want one file name")
	}
	g := s.hist.Game()
	var text string
	if strings.EqualFold(filepath.Ext(args[0]), ".ggf") {
		text = s.record(time.Now()).GGF() + "\n"
	} else {
		if g.Start != bitboard.Start() {
			return errors.New("the game does not start from the standard position: save it as .ggf")
		}
		moves := g.Squares()
		text = bitboard.Transcript(moves) + "\n"
	}
	if err := s.cfg.WriteFile(args[0], []byte(text)); err != nil {
		return err
	}
	s.out.Printf("Saved %d moves to %s.", len(g.Moves), args[0])
	return nil
}

// record is the game as a full GGF record, as NBoard and GGS write them:
// the place, date, players, result, clock and type around the moves.
// Properties of a loaded game (its players, say) are kept.
func (s *shell) record(now time.Time) *bitboard.Game {
	g := *s.hist.Game()
	g.Props = append([]bitboard.Prop(nil), g.Props...)
	set := func(key, value string) {
		if _, ok := g.Prop(key); !ok {
			g.SetProp(key, value)
		}
	}
	set("PC", s.cfg.Name+" shell")
	set("DT", now.UTC().Format("2006-01-02 15:04:05 GMT"))
	for c, key := range []string{"PB", "PW"} {
		player := "human"
		if s.engineFor[c] {
			player = s.cfg.Name
		}
		set(key, player)
	}
	// RE is Black's score with the empties to the winner, the GGS way;
	// an unfinished game has none yet.
	re := "?"
	if end := s.hist.Position(); end.GameOver() {
		re = fmt.Sprintf("%+.3f", float64(2*end.BlackScoreEmptiesToWinner()-64))
	}
	g.SetProp("RE", re)
	// The shell has no game clock, only a limit per move: written as a
	// clock with nothing but an increment per move. Without a limit there
	// is no clock to write (TI[0:00] would read as no time at all).
	if s.player.Settings.Time > 0 {
		set("TI", "0:00/"+clock(s.player.Settings.Time))
	}
	set("TY", "8")
	return &g
}

// clock writes d as GGF clocks do, [[h:]m:]ss.
func clock(d time.Duration) string {
	sec := int(d.Round(time.Second) / time.Second)
	if sec >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", sec/3600, sec/60%60, sec%60)
	}
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}

func (s *shell) showGame(args []string) error {
	if err := noArgs(args); err != nil {
		return err
	}
	g := s.hist.Game()
	moves := g.Squares()
	s.out.Printf("moves: %s", bitboard.Transcript(moves))
	s.out.Printf("ggf: %s", s.record(time.Now()).GGF())
	return nil
}

// threadsText says how many threads the search uses.
func threadsText(n int) string {
	if n == 1 {
		return "1 thread"
	}
	return fmt.Sprintf("%d threads", n)
}
