package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
)

func init() {
	register(&command{
		name:    "match",
		args:    "ENGINE_A ENGINE_B [flags]",
		summary: "Play two engines against each other from balanced openings; report the score and Elo.",
		details: `An engine is this program with options, or any program that speaks the
NBoard protocol, driven exactly as a GUI drives it:

  self                        this binary ("outflank nboard"), default limits
  self:depth=8                midgame depth 8 (sent as "set depth 8")
  self:time=1s,eval=FILE      1 second a move, other weights; other keys become
                              "outflank nboard" flags (hash=64 → --hash=64)
  self:clock=1m               one minute for the whole game (a GGF clock)
  nboard:CMD ARGS...          an external engine, e.g. 'nboard:./edax -nboard'
  nboard,depth=12,dir=D:CMD   the same with options (depth, time, clock, name, dir)

A self engine runs with the defaults of "outflank nboard" (its opening book)
but on one thread (threads=N to change, the same for both sides keeps the
match fair); self:depth=8,no-book,hash=16 changes them. Both kinds also take
name=NAME for the reports. An engine given neither a
depth nor a time uses --depth/--time (depth 8 if neither). On time, each
engine gets a GGF clock worth its time per move for each move it has left
(TI, or TB/TW), and is stopped with "ping" at its time per move, the
same for every engine; a move answered before the "pong" counts. Unless --move-timeout/--game-timeout say
otherwise, an engine loses after 10 minutes on one move or an hour of
thinking in one game on depth, and after 2×time+2s on a move or 40×time+30s
in a game on time. On a clock (clock=), the engine gets that clock (TI, or
TB/TW) for the moves after the opening and is never stopped; thinking past
it (by more than 0.25 s of pipe latency) loses on time.

With --sprt ELO0,ELO1 the match stops as soon as a sequential probability
ratio test (on the opening pairs, α = β = 0.05 unless given) accepts
"A − B >= ELO1" or "A − B <= ELO0"; --games is then the most it plays.

Each opening is played twice, colours swapped (an odd --games plays its last
opening once, with A as black, and the error bar then comes from single
games). The score is A's: wins plus
half the draws over games, with a 95% error bar from the spread of the
opening pairs' scores, and the Elo difference it implies. The disc margin
counts the empty squares for the winner. An engine that crashes, stops
answering or answers an illegal move loses that game (GGF RE ±64 with :t for
time, :r otherwise); the event is printed and the match goes on. Per
engine the summary gives its moves, its mean and longest time a move (as
the harness measured it), how many moves took longer than its time a move
(an engine that spends all of it is stopped there and answers a moment
later), how many of those were late (more than a tenth of the time, at
least 50 ms, past it: what a GUI sees as overrunning), and the nodes it
reported.

The built-in openings are the XOT list of 10,784 balanced 8-move openings by
Matthias Berg (berg.earthlingz.de/xot).`,
		run: runMatch,
	})
}

// matchFlags are the flags of "outflank match".
type matchFlags struct {
	openings, start, moveTime, gamesOut, logFile, sprt *string
	games, concurrency, depth                          *int
	seed                                               *uint64
	moveTimeout, gameTimeout                           *time.Duration
	asJSON, quiet                                      *bool
}

func addMatchFlags(fs *pflag.FlagSet) matchFlags {
	f := matchFlags{
		openings:    fs.String("openings", "xot", "openings: a file of move transcripts (one a line), \"xot\" (built in) or \"start\""),
		start:       fs.String("start", "", "start positions from an OBF file instead of openings"),
		games:       fs.Int("games", 0, "number of games (default: every opening twice; 200 with the built-in XOT list); an odd number plays the last opening once, A as black"),
		concurrency: fs.Int("concurrency", runtime.NumCPU(), "games played at once"),
		seed:        fs.Uint64("seed", 1, "seed for the order of the openings"),
		depth:       fs.Int("depth", 0, "depth for engines whose spec gives neither depth nor time"),
		moveTime:    fs.String("time", "", "time per move for engines whose spec gives neither depth nor time (1s, 250ms)"),
		moveTimeout: fs.Duration("move-timeout", 0, "an engine silent this long on one move loses (default: from the limits)"),
		gameTimeout: fs.Duration("game-timeout", 0, "an engine thinking this long in one game loses (default: from the limits)"),
		gamesOut:    fs.String("games-out", "", "write every game to this file as GGF, one record a line"),
		logFile:     fs.String("log", "", "write every protocol line sent and received to this file"),
		asJSON:      fs.Bool("json", false, "print the result as JSON instead of a table"),
		quiet:       fs.Bool("quiet", false, "no progress line"),
		sprt:        fs.String("sprt", "", "stop when a sequential test decides: ELO0,ELO1[,ALPHA[,BETA]] (e.g. 0,5)"),
	}
	bound(fs, "concurrency", 1, maxThreads)
	bound(fs, "depth", 0, 60)
	return f
}

func runMatch(e *env, args []string) error {
	c := findCommand("match")
	fs := c.flags(e)
	f := addMatchFlags(fs)
	if ok, err := parse(fs, args); !ok {
		return err
	}
	cfg, err := f.config(fs)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return f.run(e, cfg)
}

// config checks the flags and the two engine specs (the arguments) and
// builds the match's configuration, openings included.
func (f matchFlags) config(fs *pflag.FlagSet) (match.Config, error) {
	var cfg match.Config
	if fs.NArg() != 2 {
		return cfg, fmt.Errorf("want two engines, got %d (see outflank match --help)", fs.NArg())
	}
	cfg = match.Config{Concurrency: *f.concurrency, Seed: *f.seed, Games: *f.games,
		MoveTimeout: *f.moveTimeout, GameTimeout: *f.gameTimeout}
	for i := range 2 {
		sp, err := match.ParseSpec(fs.Arg(i))
		if err != nil {
			return cfg, err
		}
		cfg.Engines[i] = sp
	}
	if *f.depth != 0 && (*f.depth < 1 || *f.depth > 60) {
		return cfg, fmt.Errorf("--depth %d: want a number from 1 to 60", *f.depth)
	}
	cfg.Depth = *f.depth
	if *f.moveTime != "" {
		t, err := match.ParseDuration(*f.moveTime)
		if err != nil {
			return cfg, fmt.Errorf("--time %q: %w", *f.moveTime, err)
		}
		cfg.Time = t
	}
	if *f.sprt != "" {
		t, err := match.ParseSPRT(*f.sprt)
		if err != nil {
			return cfg, fmt.Errorf("--%w", err)
		}
		cfg.SPRT = &t
	}
	if *f.concurrency < 1 {
		return cfg, fmt.Errorf("--concurrency %d: want 1 or more", *f.concurrency)
	}
	if *f.games < 1 && fs.Changed("games") {
		return cfg, fmt.Errorf("--games %d: want 1 or more (without --games: every opening twice, 200 games from the XOT list)", *f.games)
	}
	if *f.moveTimeout < 0 || *f.gameTimeout < 0 {
		return cfg, errors.New("timeouts must not be negative")
	}
	var err error
	switch {
	case *f.start != "" && fs.Changed("openings"):
		return cfg, errors.New("give --openings or --start, not both")
	case *f.start != "":
		cfg.Openings, err = readFile(*f.start, match.ReadStartPositions)
	case *f.openings == "xot":
		cfg.Openings = match.XOT()
		if cfg.Games == 0 {
			cfg.Games = 200
		}
	case *f.openings == "start":
		cfg.Openings = match.StandardStart()
	default:
		cfg.Openings, err = readFile(*f.openings, match.ReadOpenings)
	}
	if err != nil {
		return cfg, err
	}
	if cfg.Self, err = os.Executable(); err != nil {
		return cfg, fmt.Errorf("cannot find this program to run it as an engine: %w", err)
	}
	return cfg, nil
}

// run plays the match of cfg, with the outputs the flags ask for (games,
// log, progress), and prints the report.
func (f matchFlags) run(e *env, cfg match.Config) error {
	if *f.gamesOut != "" {
		out, err := os.Create(*f.gamesOut)
		if err != nil {
			return fmt.Errorf("match: --games-out: %w", err)
		}
		defer out.Close()
		// Streamed, not written whole: each game is one write of its whole
		// line as it ends, so a stopped or killed match keeps the games it
		// finished and never leaves part of one.
		cfg.Record = func(r match.GameResult) {
			out.WriteString(r.Record.GGF() + "\n")
		}
	}
	if *f.logFile != "" {
		// A log of the engines' dialogue, streamed as it happens.
		out, err := os.Create(*f.logFile)
		if err != nil {
			return fmt.Errorf("match: --log: %w", err)
		}
		defer out.Close()
		cfg.Log = out
	}
	prog := newProgress(e.stderr, *f.quiet, len(match.Plan(cfg.Openings, cfg.Games, cfg.Seed)), cfg.SPRT)
	cfg.Progress = prog.update
	cfg.Event = func(ev match.Event) { prog.println("match: " + ev.Text) }

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := match.Run(ctx, cfg)
	prog.done()
	if rep == nil {
		return fmt.Errorf("match: %w", err)
	}
	if *f.asJSON {
		if err := rep.WriteJSON(e.stdout); err != nil {
			return err
		}
	} else {
		rep.WriteTable(e.stdout)
	}
	if err != nil {
		return fmt.Errorf("match: stopped after %d of %d games", rep.Summary.Games, rep.Planned)
	}
	return nil
}

func readFile[T any](name string, read func(io.Reader) (T, error)) (T, error) {
	f, err := os.Open(name)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	v, err := read(f)
	if err != nil {
		return v, bitboard.InFile(name, err)
	}
	return v, nil
}

// progress shows the running score on stderr after every game: one line
// rewritten in place on a terminal, else a line a game.
type progress struct {
	w       io.Writer
	tty     bool
	quiet   bool
	planned int
	shown   bool // a line is on the terminal without its newline
	sprt    *match.SPRT
}

func newProgress(w io.Writer, quiet bool, planned int, t *match.SPRT) *progress {
	p := &progress{w: w, quiet: quiet, planned: planned, sprt: t}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	return p
}

func (p *progress) update(s match.Summary) {
	if p.quiet {
		return
	}
	line := match.ProgressLine(s, p.planned, p.sprt)
	if p.tty {
		fmt.Fprintf(p.w, "\r%s\033[K", line)
		p.shown = true
		return
	}
	// Not a terminal (a log file): a line a game.
	fmt.Fprintln(p.w, line)
}

// println prints a whole line (an event) without breaking the progress line.
func (p *progress) println(s string) {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintln(p.w, s)
	p.shown = false
}

func (p *progress) done() {
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}
