// Package matchrun is the work of "outflank match": it turns the command
// line (two engine specs, openings, limits, outputs) into a match.Config,
// plays the match with a running score on stderr, and prints the report.
package matchrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
)

// Flags are the flags of "outflank match".
type Flags struct {
	openings, start, moveTime, gamesOut, logFile, sprt, shard *string
	games, concurrency, depth                                 *int
	seed                                                      *uint64
	moveTimeout, gameTimeout                                  *time.Duration
	asJSON, quiet, resume                                     *bool
	fs                                                        *pflag.FlagSet
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
		gamesOut:    fs.String("games-out", "", "write every game to this file as GGF, one record a line (an existing file only with --resume)"),
		resume:      fs.Bool("resume", false, "go on with the match whose games --games-out holds: count them, play the rest, add them to it"),
		shard:       fs.String("shard", "", "play only share K of N of the games (opening pairs K, K+N, ...), keeping their numbers in the whole match"),
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
	if *f.shard != "" {
		k, n, err := cli.ParseShard(*f.shard)
		if err != nil {
			return cfg, fmt.Errorf("--shard %w", err)
		}
		cfg.Shard = match.Shard{K: k, N: n}
	}
	if *f.resume && *f.gamesOut == "" {
		return cfg, errors.New("--resume goes on with the games of --games-out FILE: give it")
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
		out, done, err := openGames(*f.gamesOut, *f.resume, &cfg)
		if err != nil {
			return fmt.Errorf("match: --games-out: %w", err)
		}
		defer out.Close()
		cfg.Done = done
		// Streamed, not written whole: each game is one write of its whole
		// line as it ends, so a stopped or killed match keeps the games it
		// finished and never leaves part of one.
		cfg.Record = func(r match.GameResult) {
			out.WriteString(r.Record.GGF() + "\n")
		}
	}
	if *f.logFile != "" {
		// A log of the engines' dialogue, streamed as it happens; a
		// resumed match adds to it.
		mode := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if *f.resume {
			mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
		}
		out, err := os.OpenFile(*f.logFile, mode, 0o644)
		if err != nil {
			return fmt.Errorf("match: --log: %w", err)
		}
		defer out.Close()
		cfg.Log = out
	}
	prog := cli.NewStatusLine(e.Stderr, *f.quiet)
	planned := len(cfg.Schedule())
	if len(cfg.Done) > 0 {
		prog.Println(fmt.Sprintf("match: %d of the %d games played already (%s); %d to play", len(cfg.Done), planned, *f.gamesOut, planned-len(cfg.Done)))
	}
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

// openGames opens the file of --games-out for the games to come. Without
// resume it must be new or empty: a match never overwrites games. With
// resume it reads the games the file holds as this match's games played
// (a last line cut off by a kill, with no newline, is dropped from the
// file: that game is played again) and opens it to add the rest.
func openGames(name string, resume bool, cfg *match.Config) (*os.File, []match.GameResult, error) {
	data, err := os.ReadFile(name)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	if len(data) > 0 && !resume {
		return nil, nil, fmt.Errorf("%s holds games already: give --resume to go on with them, or another file", name)
	}
	whole := bytes.LastIndexByte(data, '\n') + 1
	var done []match.GameResult
	for i, line := range strings.Split(string(data[:whole]), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		g, err := bitboard.ParseGGF(line)
		if err == nil {
			var r match.GameResult
			if r, err = cfg.FromRecord(g); err == nil {
				done = append(done, r)
				continue
			}
		}
		return nil, nil, fmt.Errorf("%s, line %d: %w", name, i+1, err)
	}
	out, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	if whole < len(data) {
		// The cut-off record of a game a kill interrupted.
		if err := out.Truncate(int64(whole)); err != nil {
			out.Close()
			return nil, nil, err
		}
	}
	if _, err := out.Seek(int64(whole), io.SeekStart); err != nil {
		out.Close()
		return nil, nil, err
	}
	return out, done, nil
}
