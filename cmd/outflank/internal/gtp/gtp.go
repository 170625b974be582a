// Package gtp speaks the Go Text Protocol, version 2, for Othello, as
// generic board-game GUIs (Quarry, GoGui-style tools, twogtp-like match
// runners) use it with Othello engines: moves in Othello notation (a1 top
// left, as Edax does), "pass", boardsize 8 only, komi ignored.
//
// Replies are "=[id] result" or "?[id] message" followed by a blank line.
// The package only translates: the play layer (package play) chooses the
// moves, turns the clock into time limits and reads the input, so that
// GoGui's "# interrupt" comment can stop a genmove early (it then plays the
// best move found so far).
package gtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
)

// Config holds the engine's identity and strength.
type Config struct {
	Name    string
	Version string
	Threads int           // search threads, said by "version" (0: not said)
	Depth   int           // midgame depth of genmove (default 12)
	Time    time.Duration // cap on the time of one move (0: clock or depth only)
	Book    play.Book     // if not nil, genmove plays book moves in the opening
	// Ponder: when the controller keeps a clock (time_settings), think on
	// the opponent's time after each genmove until the next command.
	Ponder bool
	// ReadFile reads loadsgf's files (default: os.ReadFile); tests replace it.
	ReadFile func(name string) ([]byte, error)
}

// Run speaks GTP on in and out until "quit" or the end of input. GTP
// errors are replies, so there is no error output.
func Run(in io.Reader, out io.Writer, eng play.Searcher, cfg Config) error {
	if cfg.Name == "" {
		cfg.Name = "Outflank"
	}
	if cfg.Depth <= 0 {
		cfg.Depth = play.DefaultDepth
	}
	s := &session{
		cfg:    cfg,
		player: &play.Player{Engine: eng, Book: cfg.Book, Settings: play.Settings{Depth: cfg.Depth, Time: cfg.Time}},
		out:    textio.NewOut(out, out),
		hist:   play.NewHistory(bitboard.Start()),
	}
	stop := make(chan struct{})
	defer close(stop)
	s.in = play.NewInput(in, stop, nil)
	for {
		if s.ponder != nil {
			// Until the opponent's move (or a new game), each command
			// stops the ponder and it resumes.
			if *s.ponder == s.hist.Position() {
				s.in.PonderWhileIdle(s.player, *s.ponder)
			} else {
				s.ponder = nil
			}
		}
		l, ok := s.in.Next()
		if !ok {
			return nil
		}
		if l.TooLong {
			s.reply("", false, "command line too long")
			continue
		}
		if l.Dropped > 0 {
			// One answer, with the first dropped command's id, for the
			// run of commands dropped together.
			id := ""
			if f := strings.Fields(preprocess(l.Text)); len(f) > 0 && isID(f[0]) {
				id = f[0]
			}
			s.reply(id, false, play.DropMessage(l))
			continue
		}
		if s.handle(l.Text) {
			return nil
		}
	}
}

type session struct {
	cfg    Config
	ponder *bitboard.Position // to think about before the next command (Config.Ponder)
	player *play.Player
	out    *textio.Out
	hist   *play.History
	clock  clock
	in     *play.Input
}

// clock follows GTP's time_settings and time_left.
type clock struct {
	limited   bool
	main, byo time.Duration
	stones    int              // stones per byo-yomi period (0: absolute time)
	left      [2]time.Duration // per colour
	leftStone [2]int           // stones left in the current period (0: main time)
}

func (c *clock) reset() { *c = clock{} }

// of is colour col's clock as the time manager reads it (nil: no clock):
// the time left for the moves left in the period, or for the game in main
// time, with the byo-yomi to follow.
func (c *clock) of(col bitboard.Color) *play.Clock {
	if !c.limited {
		return nil
	}
	pc := &play.Clock{Left: c.left[col], Moves: c.leftStone[col]}
	if pc.Moves == 0 && c.byo > 0 && c.stones > 0 {
		pc.ByoYomi = c.byo / time.Duration(c.stones)
	}
	return pc
}

// commands maps each command to its handler, which gets the arguments and
// returns the response text; an error is a failure response. The list
// answers list_commands and known_command; protocol order is kept for
// list_commands.
var commands []command

type command struct {
	name string
	run  func(s *session, args []string) (string, error)
}

func init() {
	commands = []command{
		{"protocol_version", func(*session, []string) (string, error) { return "2", nil }},
		{"name", func(s *session, _ []string) (string, error) { return s.cfg.Name, nil }},
		{"version", (*session).version},
		{"known_command", (*session).knownCommand},
		{"list_commands", listCommands},
		{"quit", func(*session, []string) (string, error) { return "", errQuit }},
		{"boardsize", (*session).boardsize},
		{"clear_board", (*session).clearBoard},
		{"komi", (*session).komi},
		{"play", func(s *session, args []string) (string, error) { return "", s.play(args) }},
		{"genmove", func(s *session, args []string) (string, error) { return s.genmove(args, true) }},
		{"reg_genmove", func(s *session, args []string) (string, error) { return s.genmove(args, false) }},
		{"undo", (*session).undo},
		{"showboard", func(s *session, _ []string) (string, error) { return s.showboard(), nil }},
		{"final_score", (*session).finalScore},
		{"time_settings", func(s *session, args []string) (string, error) { return "", s.timeSettings(args) }},
		{"time_left", func(s *session, args []string) (string, error) { return "", s.timeLeft(args) }},
		{"set_game", (*session).setGame},
		{"loadsgf", (*session).loadSGF},
		{"list_games", func(*session, []string) (string, error) { return "Othello", nil }},
		{"gogui-interrupt", func(*session, []string) (string, error) { return "", nil }}, // the interrupt itself is a comment line (see interrupt)
	}
}

func lookup(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func known(name string) bool {
	_, ok := lookup(name)
	return ok
}

// preprocess applies GTP's input rules: control characters other than tab
// and newline are dropped, tabs become spaces, '#' starts a comment.
func preprocess(line string) string {
	var sb strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '#':
			return strings.TrimSpace(sb.String())
		case c == '\t':
			sb.WriteByte(' ')
		case c < 32 || c == 127:
		default:
			sb.WriteByte(c)
		}
	}
	return strings.TrimSpace(sb.String())
}

// reply writes one response and the blank line that ends it.
func (s *session) reply(id string, ok bool, text string) {
	head := "="
	if !ok {
		head = "?"
	}
	head += id
	if text != "" {
		head += " " + text
	}
	s.out.Println(head + "\n")
}

// handle runs one input line; it returns true on quit.
func (s *session) handle(line string) bool {
	line = preprocess(line)
	if line == "" {
		return false
	}
	fields := strings.Fields(line)
	id := ""
	if _, err := strconv.ParseUint(fields[0], 10, 63); err == nil {
		id, fields = fields[0], fields[1:]
		if len(fields) == 0 {
			s.reply(id, false, "missing command after id")
			return false
		}
	}
	cmd, args := fields[0], fields[1:]
	res, err := s.run(cmd, args)
	if errors.Is(err, errQuit) {
		s.reply(id, true, "")
		return true
	}
	if err != nil {
		s.reply(id, false, err.Error())
	} else {
		s.reply(id, true, res)
	}
	return false
}

var errQuit = errors.New("quit")

func (s *session) run(cmd string, args []string) (string, error) {
	c, ok := lookup(cmd)
	if !ok {
		return "", errors.New("unknown command")
	}
	return c.run(s, args)
}

func (s *session) knownCommand(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: known_command takes one command name")
	}
	return strconv.FormatBool(known(args[0])), nil
}

func listCommands(*session, []string) (string, error) {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, "\n"), nil
}

func (s *session) boardsize(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: boardsize takes one number")
	}
	if n, err := strconv.Atoi(args[0]); err != nil {
		return "", errors.New("syntax error: boardsize is not an integer")
	} else if n != 8 {
		return "", errors.New("unacceptable size")
	}
	return "", nil
}

func (s *session) clearBoard([]string) (string, error) {
	s.hist = play.NewHistory(bitboard.Start())
	s.player.NewGame()
	return "", nil
}

func (s *session) komi(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: komi takes one number")
	}
	if _, err := strconv.ParseFloat(args[0], 64); err != nil {
		return "", errors.New("syntax error: komi is not a number")
	}
	return "", nil // Othello has no komi
}

func (s *session) undo([]string) (string, error) {
	if !s.hist.Undo() {
		return "", errors.New("cannot undo")
	}
	return "", nil
}

func (s *session) finalScore([]string) (string, error) {
	pos := s.hist.Position()
	if !pos.GameOver() {
		return "", fmt.Errorf("the game is not over (%d empties, %s to move)", pos.Empties(), pos.ToMove)
	}
	r := pos.Result()
	switch {
	case r.Draw:
		return "0", nil
	case r.Winner == bitboard.Black:
		return fmt.Sprintf("B+%d", r.Margin), nil
	default:
		return fmt.Sprintf("W+%d", r.Margin), nil
	}
}

func (s *session) setGame(args []string) (string, error) {
	if len(args) != 1 || !strings.EqualFold(args[0], "Othello") {
		return "", errors.New("unsupported game")
	}
	return "", nil
}

func parseColor(s string) (bitboard.Color, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return bitboard.Black, nil
	case "w", "white":
		return bitboard.White, nil
	}
	return 0, fmt.Errorf("syntax error: %q is not a colour (black, b, white, w)", s)
}

// sideFor returns the position in which col is to move: the current one,
// or the one after the pass that the side to move is forced to make.
func (s *session) sideFor(col bitboard.Color) (bitboard.Position, error) {
	pos := s.hist.Position()
	if pos.GameOver() {
		return pos, errors.New("illegal move: the game is over")
	}
	if col == pos.ToMove {
		return pos, nil
	}
	if pos.MustPass() {
		return pos.Pass(), nil
	}
	return pos, fmt.Errorf("illegal move: %s is to move", pos.ToMove)
}

func (s *session) play(args []string) error {
	if len(args) != 2 {
		return errors.New("syntax error: play takes a colour and a move")
	}
	col, err := parseColor(args[0])
	if err != nil {
		return err
	}
	sq, err := bitboard.ParseSquare(args[1])
	if err != nil {
		return fmt.Errorf("syntax error: %v", err)
	}
	pos, err := s.sideFor(col)
	if err != nil {
		return err
	}
	if pos != s.hist.Position() && sq == bitboard.PassMove {
		return fmt.Errorf("illegal move: %s is to move", s.hist.Position().ToMove)
	}
	if !pos.IsLegal(sq) {
		return fmt.Errorf("illegal move: %s for %s", vertex(sq), col)
	}
	return s.hist.Play(bitboard.GameMove{Square: sq})
}

// genmove thinks for col and, if commit, plays the move.
func (s *session) genmove(args []string, commit bool) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: genmove takes a colour")
	}
	col, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	if s.hist.Position().GameOver() {
		return "pass", nil
	}
	pos, err := s.sideFor(col)
	if err != nil {
		// GUIs ask for the side to move; a genmove for the other side is a
		// mistake to report, not a move to make for it.
		return "", fmt.Errorf("%s is not to move (%s is): genmove plays only for the side to move", col, s.hist.Position().ToMove)
	}
	t0 := time.Now()
	var m play.Move
	s.in.While(func(ctx context.Context) {
		m, _ = s.player.Go(ctx, pos, s.clock.of(col), nil)
	}, interrupt)
	if s.clock.limited && s.clock.leftStone[col] == 0 {
		s.clock.left[col] -= time.Since(t0)
	}
	if commit {
		if err := s.hist.Play(bitboard.GameMove{Square: m.Square}); err != nil {
			return "", err // cannot happen: Go returns legal moves
		}
		if p := s.hist.Position(); s.cfg.Ponder && s.clock.limited && !p.GameOver() {
			s.ponder = &p
		}
	}
	return vertex(m.Square), nil
}

// interrupt watches the input during a genmove: GoGui's "# interrupt"
// stops the search, and so does "quit", which must be honoured at once
// whatever runs; other lines wait their turn.
func interrupt(l textio.Line) (stop, keep bool) {
	text := strings.TrimSpace(l.Text)
	if strings.HasPrefix(text, "# interrupt") {
		return true, false
	}
	f := strings.Fields(text)
	if len(f) > 1 && isID(f[0]) {
		f = f[1:]
	}
	return len(f) > 0 && f[0] == "quit", true
}

// isID reports whether w is a GTP command id (digits).
func isID(w string) bool {
	for _, c := range w {
		if c < '0' || c > '9' {
			return false
		}
	}
	return w != ""
}

// vertex writes a move as GTP does: "f5" or "pass".
func vertex(sq bitboard.Square) string {
	if sq == bitboard.PassMove {
		return "pass"
	}
	return sq.String()
}

func (s *session) showboard() string {
	pos := s.hist.Position()
	var sb strings.Builder
	sb.WriteByte('\n')
	sb.WriteString(strings.TrimRight(pos.Picture(pos.Moves()), "\n"))
	switch {
	case pos.GameOver():
		fmt.Fprintf(&sb, "\ngame over: %s", pos.Result())
	default:
		fmt.Fprintf(&sb, "\n%s to move", pos.ToMove)
	}
	return sb.String()
}

func (s *session) timeSettings(args []string) error {
	if len(args) != 3 {
		return errors.New("syntax error: time_settings takes main_time byo_yomi_time byo_yomi_stones")
	}
	var v [3]int
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil || n < 0 {
			return fmt.Errorf("syntax error: %q is not a non-negative integer", a)
		}
		v[i] = n
	}
	s.clock.reset()
	// GTP: byo-yomi time with zero stones means no time limit.
	if v[1] > 0 && v[2] == 0 {
		return nil
	}
	s.clock.limited = v[0] > 0 || v[1] > 0
	s.clock.main = time.Duration(v[0]) * time.Second
	s.clock.byo = time.Duration(v[1]) * time.Second
	s.clock.stones = v[2]
	s.clock.left = [2]time.Duration{s.clock.main, s.clock.main}
	if v[0] == 0 && v[2] > 0 {
		s.clock.left = [2]time.Duration{s.clock.byo, s.clock.byo}
		s.clock.leftStone = [2]int{v[2], v[2]}
	}
	return nil
}

func (s *session) timeLeft(args []string) error {
	if len(args) != 3 {
		return errors.New("syntax error: time_left takes colour time stones")
	}
	col, err := parseColor(args[0])
	if err != nil {
		return err
	}
	t, err := strconv.ParseFloat(args[1], 64)
	if err != nil || !(t >= 0 && t <= 1e7) { // NaN fails too

		return fmt.Errorf("syntax error: time %q is not a number of seconds", args[1])
	}
	n, err := strconv.Atoi(args[2])
	if err != nil || n < 0 {
		return fmt.Errorf("syntax error: stones %q is not a non-negative integer", args[2])
	}
	s.clock.limited = true
	s.clock.left[col] = time.Duration(t * float64(time.Second))
	s.clock.leftStone[col] = n
	return nil
}

// version answers the build and, since a GUI shows this answer beside the
// name, the number of search threads.
func (s *session) version(_ []string) (string, error) {
	switch s.cfg.Threads {
	case 0:
		return s.cfg.Version, nil
	case 1:
		return s.cfg.Version + ", 1 thread", nil
	}
	return fmt.Sprintf("%s, %d threads", s.cfg.Version, s.cfg.Threads), nil
}

// loadSGF sets the game from a record file, "loadsgf FILE [MOVE]": an
// Othello SGF (GM[2]) or a GGF record, replayed up to the position before
// move number MOVE (moves counted from 1, passes included), or to its end.
func (s *session) loadSGF(args []string) (string, error) {
	if len(args) < 1 || len(args) > 2 {
		return "", errors.New("syntax error: loadsgf takes a file and an optional move number")
	}
	upTo := -1
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 {
			return "", fmt.Errorf("syntax error: move number %q is not a number from 1 up", args[1])
		}
		upTo = n - 1
	}
	read := s.cfg.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	b, err := read(args[0])
	if err != nil {
		return "", fmt.Errorf("cannot load file: %v", err)
	}
	g, err := parseRecord(string(b))
	if err != nil {
		return "", fmt.Errorf("cannot load file: %v", err)
	}
	if upTo >= 0 && upTo < len(g.Moves) {
		g.Moves = g.Moves[:upTo]
	}
	s.hist.Reset(g)
	s.player.NewGame()
	return "", nil
}
