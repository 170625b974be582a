// Package gtp speaks the Go Text Protocol, version 2, for Othello, as
// generic board-game GUIs (Quarry, GoGui-style tools, twogtp-like match
// runners) use it with Othello engines: moves in Othello notation (a1 top
// left, as Edax does), "pass", boardsize 8 only, komi ignored.
//
// Replies are "=[id] result" or "?[id] message" followed by a blank line.
// Input is read on its own goroutine so that GoGui's "# interrupt" comment
// can stop a genmove early (it then plays the best move found so far).
package gtp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/textio"
)

// Config holds the engine's identity and strength.
type Config struct {
	Name    string
	Version string
	Depth   int           // midgame depth of genmove (default 12)
	Time    time.Duration // cap on the time of one move (0: clock or depth only)
	Book    engine.Book   // if not nil, genmove plays book moves in the opening
}

// Run speaks GTP on in and out until "quit" or the end of input. errOut
// receives nothing the peer needs (GTP errors are replies); it is kept for
// symmetry with the other protocols and may be nil.
func Run(in io.Reader, out io.Writer, eng engine.Searcher, cfg Config) error {
	if cfg.Name == "" {
		cfg.Name = "Outflank"
	}
	if cfg.Depth <= 0 {
		cfg.Depth = 12
	}
	s := &session{cfg: cfg, eng: eng, out: textio.NewOut(out, out), hist: engine.NewHistory(bitboard.Start())}
	s.clock.reset()
	stop := make(chan struct{})
	defer close(stop)
	s.lines = textio.ReadLines(in, stop)
	for {
		var l textio.Line
		if len(s.pending) > 0 {
			l, s.pending = s.pending[0], s.pending[1:]
		} else {
			var ok bool
			if l, ok = <-s.lines; !ok {
				return nil
			}
		}
		if l.TooLong {
			s.reply("", false, "command line too long")
			continue
		}
		if s.handle(l.Text) {
			return nil
		}
	}
}

type session struct {
	cfg     Config
	eng     engine.Searcher
	out     *textio.Out
	hist    *engine.History
	clock   clock
	lines   <-chan textio.Line
	pending []textio.Line // read during a genmove, to run after it
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

// budget is the time for one move of colour col with empties left.
func (c *clock) budget(col bitboard.Color, empties int) time.Duration {
	if !c.limited {
		return 0
	}
	if n := c.leftStone[col]; n > 0 {
		return max(c.left[col]*9/10/time.Duration(n), 10*time.Millisecond)
	}
	b := engine.Budget(c.left[col], 0, empties)
	if c.byo > 0 && c.stones > 0 {
		b = max(b, c.byo*8/10/time.Duration(c.stones))
	}
	return b
}

var commandList = []string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "clear_board", "komi", "play", "genmove", "reg_genmove", "undo",
	"showboard", "final_score", "time_settings", "time_left", "set_game", "list_games",
	"gogui-interrupt",
}

func known(cmd string) bool {
	for _, c := range commandList {
		if c == cmd {
			return true
		}
	}
	return false
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
	switch cmd {
	case "protocol_version":
		return "2", nil
	case "name":
		return s.cfg.Name, nil
	case "version":
		return s.cfg.Version, nil
	case "known_command":
		if len(args) != 1 {
			return "", errors.New("syntax error: known_command takes one command name")
		}
		return strconv.FormatBool(known(args[0])), nil
	case "list_commands":
		return strings.Join(commandList, "\n"), nil
	case "quit":
		return "", errQuit
	case "boardsize":
		if len(args) != 1 {
			return "", errors.New("syntax error: boardsize takes one number")
		}
		if n, err := strconv.Atoi(args[0]); err != nil {
			return "", errors.New("syntax error: boardsize is not an integer")
		} else if n != 8 {
			return "", errors.New("unacceptable size")
		}
		return "", nil
	case "clear_board":
		s.hist = engine.NewHistory(bitboard.Start())
		s.eng.Clear()
		return "", nil
	case "komi":
		if len(args) != 1 {
			return "", errors.New("syntax error: komi takes one number")
		}
		if _, err := strconv.ParseFloat(args[0], 64); err != nil {
			return "", errors.New("syntax error: komi is not a number")
		}
		return "", nil // Othello has no komi
	case "play":
		return "", s.play(args)
	case "genmove":
		return s.genmove(args, true)
	case "reg_genmove":
		return s.genmove(args, false)
	case "undo":
		if !s.hist.Undo() {
			return "", errors.New("cannot undo")
		}
		return "", nil
	case "showboard":
		return s.showboard(), nil
	case "final_score":
		r := s.hist.Position().Result()
		switch {
		case r.Draw:
			return "0", nil
		case r.Winner == bitboard.Black:
			return fmt.Sprintf("B+%d", r.Margin), nil
		default:
			return fmt.Sprintf("W+%d", r.Margin), nil
		}
	case "time_settings":
		return "", s.timeSettings(args)
	case "time_left":
		return "", s.timeLeft(args)
	case "set_game":
		if len(args) != 1 || !strings.EqualFold(args[0], "Othello") {
			return "", errors.New("unsupported game")
		}
		return "", nil
	case "list_games":
		return "Othello", nil
	case "gogui-interrupt":
		return "", nil
	}
	return "", errors.New("unknown command")
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
		return "", err
	}
	if b, ok := engine.BookChoice(s.cfg.Book, pos); ok {
		if commit {
			if err := s.hist.Play(bitboard.GameMove{Square: b.Move}); err != nil {
				return "", err
			}
		}
		return vertex(b.Move), nil
	}
	lim := engine.Limits{Depth: s.cfg.Depth, EndgameEmpties: engine.EndgameEmpties(s.cfg.Depth), Time: s.cfg.Time}
	if b := s.clock.budget(col, pos.Empties()); b > 0 && (lim.Time == 0 || b < lim.Time) {
		lim.Time = b
	}
	lim = engine.OnlyMove(pos, lim)
	t0 := time.Now()
	info := s.think(pos, lim)
	if s.clock.limited && s.clock.leftStone[col] == 0 {
		s.clock.left[col] -= time.Since(t0)
	}
	if commit {
		if err := s.hist.Play(bitboard.GameMove{Square: info.Best}); err != nil {
			return "", err // cannot happen: Think returns legal moves
		}
	}
	return vertex(info.Best), nil
}

// vertex writes a move as GTP does: "f5" or "pass".
func vertex(sq bitboard.Square) string {
	if sq == bitboard.PassMove {
		return "pass"
	}
	return sq.String()
}

// think searches on a goroutine while watching the input for GoGui's
// "# interrupt"; other lines wait in pending.
func (s *session) think(pos bitboard.Position, lim engine.Limits) engine.Info {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan engine.Info, 1)
	go func() { done <- engine.Think(ctx, s.eng, pos, lim, nil) }()
	lines := s.lines
	for {
		select {
		case info := <-done:
			return info
		case l, ok := <-lines:
			if !ok {
				lines = nil // input ended: let the search finish; Run then stops
				continue
			}
			if strings.HasPrefix(strings.TrimSpace(l.Text), "# interrupt") {
				cancel()
				continue
			}
			s.pending = append(s.pending, l)
		}
	}
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
