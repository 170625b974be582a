// Package matchrun is the work of "outflank match": it turns the command
// line (two engine specs, openings, limits, outputs) into a match.Config,
// plays the match with a running score on stderr, and prints the report.
package matchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
)

// Flags are the flags of "outflank match".
type Flags struct {
	openings, start, moveTime, gamesOut, logFile, sprt *string
	games, concurrency, depth                          *int
	seed                                               *uint64
	moveTimeout, gameTimeout                           *time.Duration
	asJSON, quiet                                      *bool
	fs                                                 *pflag.FlagSet
}

// AddFlags declares the flags of "outflank match" on fs.
func AddFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{
		fs:          fs,
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
		asJSON:      fs.Bool("json", false, "print the result as JSON instead of a table: one object, on one line (JSON Lines, as every --json)"),
		quiet:       fs.Bool("quiet", false, "no progress line"),
		sprt:        fs.String("sprt", "", "stop when a sequential test decides: ELO0,ELO1[,ALPHA[,BETA]] (e.g. 0,5)"),
	}
	cli.Bound(fs, "concurrency", 1, cli.MaxThreads)
	cli.EveryCore(fs, "concurrency")
	cli.Bound(fs, "depth", 0, 60)
	return f
}

// Run plays the match of the two engine specs args with the flags f.
func Run(e *cli.Env, f *Flags, args []string) error {
	cfg, err := f.config(args)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return f.run(e, cfg)
}

// config checks the flags and the two engine specs (the arguments) and
// builds the match's configuration, openings included.
func (f *Flags) config(args []string) (match.Config, error) {
	fs := f.fs
	var cfg match.Config
	if len(args) != 2 {
		return cfg, fmt.Errorf("want two engines, got %d (see outflank match --help)", len(args))
	}
	cfg = match.Config{Concurrency: *f.concurrency, Seed: *f.seed, Games: *f.games,
		MoveTimeout: *f.moveTimeout, GameTimeout: *f.gameTimeout}
	for i := range 2 {
		sp, err := match.ParseSpec(args[i])
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
		cfg.Openings, err = cli.ReadFile(*f.start, match.ReadStartPositions)
	case *f.openings == "xot":
		cfg.Openings = match.XOT()
		if cfg.Games == 0 {
			cfg.Games = 200
		}
	case *f.openings == "start":
		cfg.Openings = match.StandardStart()
	default:
		cfg.Openings, err = cli.ReadFile(*f.openings, match.ReadOpenings)
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
func (f *Flags) run(e *cli.Env, cfg match.Config) error {
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
	prog := cli.NewStatusLine(e.Stderr, *f.quiet)
	planned := len(match.Plan(cfg.Openings, cfg.Games, cfg.Seed))
	cfg.Progress = func(s match.Summary) { prog.Update(match.ProgressLine(s, planned, cfg.SPRT)) }
	cfg.Event = func(ev match.Event) { prog.Println("match: " + ev.Text) }

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := match.Run(ctx, cfg)
	prog.Done()
	if rep == nil {
		return fmt.Errorf("match: %w", err)
	}
	if *f.asJSON {
		if err := rep.WriteJSON(e.Stdout); err != nil {
			return err
		}
	} else {
		rep.WriteTable(e.Stdout)
	}
	if err != nil {
		return fmt.Errorf("match: stopped after %d of %d games", rep.Summary.Games, rep.Planned)
	}
	return nil
}
