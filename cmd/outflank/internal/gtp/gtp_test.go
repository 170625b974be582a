package gtp

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/search"
)

// session runs a whole script and returns the responses, each without its
// terminating blank line.
func script(t *testing.T, lines ...string) []string {
	t.Helper()
	var out strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- Run(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &playtest.Greedy{}, Config{Name: "Outflank", Version: "test", Depth: 2})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("GTP session hung")
	}
	s := out.String()
	if !strings.HasSuffix(s, "\n\n") {
		t.Fatalf("output does not end with a blank line: %q", s)
	}
	return strings.Split(strings.TrimSuffix(s, "\n\n"), "\n\n")
}

func TestBasics(t *testing.T) {
	got := script(t,
		"protocol_version",
		"1 name",
		"2 version",
		"known_command genmove",
		"known_command frobnicate",
		"boardsize 8",
		"boardsize 19",
		"komi 6.5",
		"clear_board",
		"set_game Othello",
		"list_games",
		"# a comment line",
		"frobnicate",
		"7 undo",
		"quit",
		"name", // after quit: not read
	)
	want := []string{"= 2", "=1 Outflank", "=2 test", "= true", "= false", "=", "? unacceptable size", "=", "=", "=", "= Othello", "? unknown command", "?7 cannot undo", "="}
	if len(got) != len(want) {
		t.Fatalf("got %d responses %q, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("response %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func TestListCommandsAreKnown(t *testing.T) {
	got := script(t, "list_commands")
	for _, c := range strings.Split(strings.TrimPrefix(got[0], "= "), "\n") {
		if !known(c) {
			t.Errorf("%q listed but not known", c)
		}
		if r := script(t, "known_command "+c); r[0] != "= true" {
			t.Errorf("known_command %s: %q", c, r[0])
		}
	}
}

func TestPlayAndUndo(t *testing.T) {
	got := script(t,
		"play black f5",
		"play black d6", // wrong colour
		"play white f5", // occupied
		"play white pass",
		"play w d6",
		"undo",
		"play white zz",
		"play purple d6",
		"play white",
		"genmove white",
		"showboard",
		"final_score",
	)
	for i, want := range []string{"=", "? illegal move: white is to move", "? illegal move: f5 for white", "? illegal move: pass for white", "=", "=", "? syntax error", "? syntax error", "? syntax error"} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("response %d: got %q, want %q…", i, got[i], want)
		}
	}
	mv := strings.TrimPrefix(got[9], "= ")
	sq, err := bitboard.ParseSquare(mv)
	if err != nil {
		t.Fatalf("genmove answered %q", got[9])
	}
	after := bitboard.Start().Play(bitboard.SquareAt(5, 4))
	if !after.IsLegal(sq) {
		t.Errorf("genmove white answered illegal %s", mv)
	}
	if !strings.HasPrefix(got[10], "= \n  a b c d e f g h") || !strings.HasSuffix(got[10], "black to move") {
		t.Errorf("showboard: %q", got[10])
	}
	// The game is not over: no score yet (it used to answer "= 0").
	if got[11] != "? the game is not over (58 empties, black to move)" {
		t.Errorf("final_score in mid-game: %q", got[11])
	}
}

// TestGenmoveNotToMove: genmove for the side not to move is refused with
// the reason, and the game is unchanged.
func TestGenmoveNotToMove(t *testing.T) {
	got := script(t, "play black f5", "genmove black", "showboard")
	if got[1] != "? black is not to move (white is): genmove plays only for the side to move" {
		t.Errorf("genmove black with white to move: %q", got[1])
	}
	if !strings.HasSuffix(got[2], "white to move") {
		t.Errorf("the game changed: %q", got[2])
	}
}

// TestLoadSGF: loadsgf sets the game from an Othello SGF (SGF's points or
// f5-style moves, set-up stones, a variation) or a GGF record, up to a
// move number; bad records are refused with the reason.
func TestLoadSGF(t *testing.T) {
	files := map[string]string{
		"points.sgf":  "(;FF[4]GM[2]SZ[8];B[fe];W[df](;B[cc])(;B[ee]))",                               // f5 d6 c3, then a variation
		"f5.sgf":      "(;GM[2]SZ[8]PB[a]PW[b];B[f5];W[d6];B[c3])",                                    // Othello players' notation
		"setup.sgf":   "(;GM[2]SZ[8]AB[ed][de]AW[dd][ee]PL[B];B[fe])",                                 // the start, set up
		"game.ggf":    "(;GM[Othello]PC[x]BO[8 " + bitboard.Start().String()[:64] + " *]B[f5]W[d6];)", // GGF
		"go.sgf":      "(;GM[1]SZ[19];B[pd])",
		"illegal.sgf": "(;GM[2];B[a1])",
		"broken.sgf":  "(;GM[2];B[f5",
	}
	run := func(lines ...string) []string {
		var out strings.Builder
		cfg := Config{Name: "Outflank", Version: "test", Depth: 2,
			ReadFile: func(name string) ([]byte, error) {
				if s, ok := files[name]; ok {
					return []byte(s), nil
				}
				return nil, errors.New("no such file")
			}}
		if err := Run(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &playtest.Greedy{}, cfg); err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(out.String(), "\n\n"), "\n\n")
	}
	board := func(moves string) string { // as showboard shows it
		p, err := bitboard.PlayTranscript(bitboard.Start(), moves)
		if err != nil {
			t.Fatal(err)
		}
		return "= \n" + strings.TrimRight(p.Picture(p.Moves()), "\n") + "\n" + p.ToMove.String() + " to move"
	}
	for _, c := range []struct {
		cmd, want string // want: the board after it
	}{
		{"loadsgf points.sgf", board("f5d6c3")},
		{"loadsgf points.sgf 3", board("f5d6")},
		{"loadsgf f5.sgf", board("f5d6c3")},
		{"loadsgf game.ggf", board("f5d6")},
		{"loadsgf setup.sgf", board("f5")},
	} {
		got := run(c.cmd, "showboard")
		if got[0] != "=" {
			t.Errorf("%s: %q", c.cmd, got[0])
			continue
		}
		if got[1] != c.want {
			t.Errorf("%s: board\n%s\nwant %s", c.cmd, got[1], c.want)
		}
	}
	for _, c := range []struct{ cmd, want string }{
		{"loadsgf go.sgf", "? cannot load file: sgf: GM[1] is not Othello (GM[2])"},
		{"loadsgf illegal.sgf", "? cannot load file: sgf: node 2: move 1 (a1) illegal for black"},
		{"loadsgf broken.sgf", "? cannot load file: sgf: a value is not closed"},
		{"loadsgf none.sgf", "? cannot load file: no such file"},
		{"loadsgf points.sgf 0", "? syntax error"},
	} {
		if got := run(c.cmd); !strings.HasPrefix(got[0], c.want) {
			t.Errorf("%s: %q, want %q", c.cmd, got[0], c.want)
		}
	}
}

// passGame returns moves reaching a position where the side to move must
// pass.
func passGame(t *testing.T) ([]bitboard.Square, bitboard.Position) {
	t.Helper()
	for seed := 0; seed < 1000; seed++ {
		var moves []bitboard.Square
		p := bitboard.Start()
		for i := 0; !p.GameOver(); i++ {
			if p.MustPass() {
				return moves, p
			}
			ms := p.Moves()
			for k := (seed*7 + i*13) % bitboard.Count(ms); k > 0; k-- {
				ms &= ms - 1
			}
			sq := bitboard.FirstSquare(ms)
			moves = append(moves, sq)
			p = p.Play(sq)
		}
	}
	t.Fatal("no game with a pass found")
	return nil, bitboard.Position{}
}

// TestPass: genmove for the side that must pass answers "pass"; a play or
// genmove for the other colour implies the pass; undo takes it back.
func TestPass(t *testing.T) {
	moves, pos := passGame(t)
	var lines []string
	col := bitboard.Black
	for _, m := range moves {
		lines = append(lines, "play "+col.String()+" "+m.String())
		col = col.Other()
	}
	mover, other := pos.ToMove.String(), pos.ToMove.Other().String()
	lines = append(lines,
		"genmove "+mover, // pass
		"undo",           // takes back the pass
		"genmove "+other, // implies the pass
		"undo",
		"showboard",
	)
	got := script(t, lines...)
	n := len(moves)
	for i := 0; i < n; i++ {
		if got[i] != "=" {
			t.Fatalf("play %d: %q", i, got[i])
		}
	}
	if got[n] != "= pass" {
		t.Errorf("genmove %s: %q, want pass", mover, got[n])
	}
	sq, err := bitboard.ParseSquare(strings.TrimPrefix(got[n+2], "= "))
	if err != nil || sq == bitboard.PassMove || !pos.Pass().IsLegal(sq) {
		t.Errorf("genmove %s after implied pass: %q", other, got[n+2])
	}
	if got[n+3] != "=" || !strings.HasSuffix(got[n+4], pos.ToMove.String()+" to move") {
		t.Errorf("undo of move with implied pass: %q then board %q", got[n+3], got[n+4])
	}
}

// TestGameToTheEnd: genmove for alternating colours, with passes, until the
// game is over; every move is legal; final_score matches the board.
func TestGameToTheEnd(t *testing.T) {
	var lines []string
	for i := 0; i < 70; i++ {
		lines = append(lines, "genmove black", "genmove white")
	}
	lines = append(lines, "final_score", "play black a1")
	got := script(t, lines...)
	pos := bitboard.Start()
	for i := 0; i < 140; i++ {
		col := bitboard.Color(i % 2)
		r := got[i]
		if !strings.HasPrefix(r, "= ") {
			t.Fatalf("genmove %d: %q", i, r)
		}
		sq, err := bitboard.ParseSquare(strings.TrimPrefix(r, "= "))
		if err != nil {
			t.Fatalf("genmove %d: %q", i, r)
		}
		if pos.GameOver() {
			if sq != bitboard.PassMove {
				t.Errorf("genmove after the end: %q", r)
			}
			continue
		}
		if pos.ToMove != col {
			if !pos.MustPass() {
				t.Fatalf("colour %s not to move at %d", col, i)
			}
			pos = pos.Pass()
		}
		if sq == bitboard.PassMove {
			if !pos.MustPass() {
				t.Fatalf("pass with moves at %d", i)
			}
			pos = pos.Pass()
			continue
		}
		if pos, err = pos.PlayMove(sq); err != nil {
			t.Fatalf("genmove %d: %v", i, err)
		}
	}
	if !pos.GameOver() {
		t.Fatal("game not over after 140 genmoves")
	}
	r := pos.Result()
	want := "= 0"
	if !r.Draw {
		want = "= " + map[bitboard.Color]string{bitboard.Black: "B", bitboard.White: "W"}[r.Winner] + "+" + itoa(r.Margin)
	}
	if got[140] != want {
		t.Errorf("final_score %q, want %q", got[140], want)
	}
	if !strings.HasPrefix(got[141], "? illegal move: the game is over") {
		t.Errorf("play after the end: %q", got[141])
	}
}

func itoa(n int) string {
	s := ""
	for {
		s = string(rune('0'+n%10)) + s
		n /= 10
		if n == 0 {
			return s
		}
	}
}

// TestInterrupt: "# interrupt" stops a genmove that would otherwise think
// forever; it answers a legal move.
func TestInterrupt(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	slow := &playtest.Slow{Started: make(chan struct{}, 1)}
	go func() {
		Run(inR, outW, slow, Config{Depth: 60})
		outW.Close()
	}()
	defer inW.Close()
	io.WriteString(inW, "genmove black\n")
	select {
	case <-slow.Started:
	case <-time.After(10 * time.Second):
		t.Fatal("search did not start")
	}
	io.WriteString(inW, "# interrupt\nname\n")
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	for len(got) < 4 {
		select {
		case l := <-lines:
			got = append(got, l)
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer after interrupt: %q", got)
		}
	}
	sq, err := bitboard.ParseSquare(strings.TrimPrefix(got[0], "= "))
	if err != nil || !bitboard.Start().IsLegal(sq) || got[1] != "" || got[2] != "= Outflank" {
		t.Errorf("got %q", got)
	}
}

func TestClockGivesTimeLimit(t *testing.T) {
	inR, inW := io.Pipe()
	var out strings.Builder
	done := make(chan struct{})
	go func() {
		Run(inR, &out, &playtest.Slow{}, Config{Depth: 60})
		close(done)
	}()
	io.WriteString(inW, "time_settings 1 0 0\ngenmove black\ntime_left white 0.5 0\ngenmove white\n")
	inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("genmove with a clock did not answer")
	}
	if strings.Count(out.String(), "= ") != 2 {
		t.Errorf("got %q", out.String())
	}
}

// FuzzGTP runs whole GTP sessions: the fuzzed text is sent as one burst,
// then "quit", to an engine whose searches never end by themselves (as at
// depth 40), so the lines after a genmove arrive while it searches. It
// fails on a panic, on a hang (no exit within 10 s: quit must stop a
// search whatever is queued) and on a response not ended by a blank line.
// The seeds run in every "go test"; a longer run:
//
//	go test -run NONE -fuzz FuzzGTP -fuzztime 10m ./cmd/outflank/internal/gtp
func FuzzGTP(f *testing.F) {
	for _, s := range []string{
		"play black f5", "genmove w", "1 undo", "time_settings 300 10 5", "time_left b 10 2",
		"boardsize 8", "known_command play", "showboard", "final_score", "play b pass", "\x00\t#",
		"genmove b\ngenmove w\nshowboard\n# interrupt\ngenmove b",
		"genmove b\n2 quit\ngenmove w",
		"time_settings 0 1 1\ngenmove b\nundo\ngenmove b\nclear_board\ngenmove w",
	} {
		f.Add(s)
	}
	f.Fuzz(burst)
}

// burst runs one session of FuzzGTP and TestStorm.
func burst(t *testing.T, in string) {
	var out playtest.SyncBuffer
	r, w := io.Pipe()
	go func() {
		io.WriteString(w, in+"\nquit\n")
		w.Close()
	}()
	done := make(chan error, 1)
	go func() { done <- Run(r, &out, &playtest.Slow{Tick: time.Millisecond}, Config{Depth: 1}) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("session hung; output:\n%.2000s", out.String())
	}
	r.Close()
	o := out.String()
	if o != "" && !strings.HasSuffix(o, "\n\n") {
		t.Fatalf("response not ended by a blank line: %q", o)
	}
}

// stormLines is how many lines TestStorm sends. The long run:
//
//	go test -run TestStorm ./cmd/outflank/internal/gtp -storm-lines 3500000
var stormLines = flag.Int("storm-lines", 3000, "lines TestStorm sends")

// TestStorm sends sessions of random GTP lines, good and bad, in bursts
// during searches (see FuzzGTP), until stormLines lines have gone.
func TestStorm(t *testing.T) {
	words := []string{"play black f5", "play b d6", "play w c3", "genmove b", "genmove w", "undo", "1 undo", "clear_board", "showboard",
		"time_settings 300 10 5", "time_settings 0 1 1", "time_left b 10 2", "boardsize 8", "boardsize 19", "known_command play",
		"final_score", "play b pass", "# interrupt", "\x00\t#", "", "bogus", "2 quit", "version", "list_commands"}
	before := playtest.Memory()
	sent, sessions := playtest.Storm(*stormLines, words, func(script string) int {
		burst(t, script)
		return 0
	})
	t.Logf("%d lines in %d sessions: no panic, no hang; %s before, %s after", sent, sessions, before, playtest.Memory())
}

func TestBookMove(t *testing.T) {
	c4, _ := bitboard.ParseSquare("c4")
	book := playtest.Book{bitboard.Start(): {{Move: c4, Score: 0, Games: 500}}}
	var out strings.Builder
	Run(strings.NewReader("genmove b\nshowboard\n"), &out, &playtest.Greedy{}, Config{Book: book})
	if !strings.HasPrefix(out.String(), "= c4\n\n") {
		t.Errorf("got %q", out.String())
	}
}

// recorder is a greedy searcher that remembers the limits it was given.
type recorder struct {
	playtest.Greedy
	lims []search.Limits
}

func (r *recorder) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	r.lims = append(r.lims, lim)
	return r.Greedy.Search(ctx, pos, lim, report)
}

// TestClockLimits: time_settings and time_left give genmove the limits
// that the time manager gives an NBoard game clock with the same time.
func TestClockLimits(t *testing.T) {
	r := &recorder{}
	var out strings.Builder
	script := strings.Join([]string{
		"time_settings 60 0 0", "genmove b", // 60 s for the game, 60 empties
		"time_left w 30 0", "genmove w", // 30 s left, 59 empties
		"time_settings 0 10 5", "time_left b 8 4", "genmove b", // byo-yomi: 8 s for 4 moves
		"time_settings 20 30 3", "time_left w 1 0", "genmove w", // main time nearly spent, 10 s a move to follow
	}, "\n") + "\n"
	if err := Run(strings.NewReader(script), &out, r, Config{Depth: 60}); err != nil {
		t.Fatal(err)
	}
	if len(r.lims) != 4 {
		t.Fatalf("%d searches, want 4: %q", len(r.lims), out.String())
	}
	for i, c := range []struct {
		clock   search.Clock
		empties int
	}{
		{search.Clock{Left: 60 * time.Second}, 60},
		{search.Clock{Left: 30 * time.Second}, 59},
		{search.Clock{Left: 8 * time.Second, Moves: 4}, 58},
		{search.Clock{Left: time.Second, ByoYomi: 10 * time.Second}, 57},
	} {
		soft, hard := c.clock.Limits(c.empties)
		if got := r.lims[i]; got.Soft != soft || got.Time != hard {
			t.Errorf("genmove %d: soft %v hard %v, want %v %v (%+v)", i+1, got.Soft, got.Time, soft, hard, c.clock)
		}
	}
}

// TestRefusedPlayChangesNothing plays random games with a refused play
// (an occupied square, one that flips nothing, a pass while a move
// exists, or the wrong colour) before every legal one: each refusal
// answers "?", showboard is the same before and after it, and every
// later legal play is accepted. Games run to the end, forced
// passes included (the colour that plays after one implies the pass).
func TestRefusedPlayChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(78, 4))
	color := map[bitboard.Color]string{bitboard.Black: "b", bitboard.White: "w"}
	passes := 0
	for game := 0; game < 16; game++ {
		lines := []string{"clear_board"}
		var want []string
		pos := bitboard.Start()
		for !pos.GameOver() {
			if pos.MustPass() {
				passes++
			}
			mover := pos.ToMove
			legal := pos.Moves()
			if pos.MustPass() {
				mover = mover.Other()
				legal = pos.Pass().Moves()
			}
			var bad []string
			for sq := bitboard.Square(0); sq < 64; sq++ {
				if legal&sq.Bit() == 0 {
					bad = append(bad, "play "+color[mover]+" "+sq.String())
				}
			}
			if !pos.MustPass() {
				bad = append(bad, "play "+color[mover]+" pass")
				for sq := bitboard.Square(0); sq < 64; sq++ {
					if legal&sq.Bit() != 0 && !pos.Pass().IsLegal(sq) {
						bad = append(bad, "play "+color[mover.Other()]+" "+sq.String())
					}
				}
			}
			lines = append(lines, "showboard", bad[rng.IntN(len(bad))], "showboard")
			want = append(want, "=", "?", "=")
			ms := legal
			for k := rng.IntN(bitboard.Count(ms)); k > 0; k-- {
				ms &= ms - 1
			}
			sq := bitboard.FirstSquare(ms)
			lines = append(lines, "play "+color[mover]+" "+sq.String())
			want = append(want, "=")
			if pos.MustPass() {
				pos = pos.Pass()
			}
			pos = pos.Play(sq)
		}
		got := script(t, lines...)
		for i := range want {
			if !strings.HasPrefix(got[i+1], want[i]) {
				t.Fatalf("game %d: %q answered %q", game, lines[i+1], got[i+1])
			}
			if want[i] == "?" && got[i] != got[i+2] {
				t.Fatalf("game %d: %q changed the board:\n%s\n%s", game, lines[i+1], got[i], got[i+2])
			}
		}
	}
	if passes == 0 {
		t.Error("no forced pass met: the test does not cover them")
	}
}

// burstLines is how many lines of 1 MiB TestBurstBounded sends during a
// genmove. The reproduction, 4,096 of them:
//
//	go test -run TestBurstBounded ./cmd/outflank/internal/gtp -burst-lines 4096
var burstLines = flag.Int("burst-lines", 256, "lines of 1 MiB TestBurstBounded sends")

// TestBurstBounded: comment lines of about 1 MiB each, sent during a
// genmove that would think for ever, are read on (not left in the pipe)
// but kept only up to play.MaxPendingBytes, the rest answered as dropped;
// the quit after them stops the search and ends the session at once.
func TestBurstBounded(t *testing.T) {
	inR, inW := io.Pipe()
	var out playtest.SyncBuffer
	slow := &playtest.Slow{Started: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		Run(inR, &out, slow, Config{Name: "Outflank", Depth: 40})
		close(done)
	}()
	io.WriteString(inW, "1 genmove b\n")
	<-slow.Started
	playtest.BurstThenQuit(t, inW, done, *burstLines, "# ", "2 quit")
	got := out.String()
	if !strings.Contains(got, "lines dropped: more than 4 MiB") || !strings.HasSuffix(got, "=2\n\n") {
		t.Errorf("output %q", got[:min(len(got), 300)])
	}
}

// TestPonder: with Ponder and a clock (time_settings), after genmove the
// engine thinks until the next command, which is answered at once; with
// no clock it does not ponder.
func TestPonder(t *testing.T) {
	for _, clock := range []bool{true, false} {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		slow := &playtest.Slow{Started: make(chan struct{}, 4)}
		done := make(chan struct{})
		go func() {
			Run(inR, outW, slow, Config{Depth: 40, Time: 30 * time.Millisecond, Ponder: true})
			outW.Close()
			close(done)
		}()
		replies := make(chan string, 16)
		go func() {
			sc := bufio.NewScanner(outR)
			for sc.Scan() {
				if l := sc.Text(); l != "" {
					replies <- l
				}
			}
		}()
		if clock {
			io.WriteString(inW, "time_settings 300 0 0\n")
			<-replies
		}
		io.WriteString(inW, "genmove b\n")
		<-slow.Started
		if r := <-replies; !strings.HasPrefix(r, "= ") {
			t.Fatalf("genmove: %q", r)
		}
		select {
		case <-slow.Started:
			if !clock {
				t.Fatal("pondered without a clock")
			}
		case <-time.After(300 * time.Millisecond):
			if clock {
				t.Fatal("no ponder search after genmove with a clock")
			}
		}
		t0 := time.Now()
		io.WriteString(inW, "7 name\n")
		if r := <-replies; r != "=7 Outflank" {
			t.Errorf("name while pondering: %q", r)
		}
		if took := time.Since(t0); took > 50*time.Millisecond {
			t.Errorf("clock %v: name answered in %v while pondering", clock, took)
		}
		inW.Close()
		<-done
	}
}
