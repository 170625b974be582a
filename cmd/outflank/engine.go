package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// engineFlags are the flags of every command that plays with the engine.
type engineFlags struct {
	hash, threads  *int
	evalFile, book *string
	noBook         *bool
	bookVariety    *int
}

func addEngineFlags(fs *pflag.FlagSet) engineFlags {
	f := engineFlags{
		hash:        fs.Int("hash", search.DefaultHashMB, "transposition table size in MiB"),
		threads:     fs.Int("threads", runtime.NumCPU(), "search threads (default: every core of this machine)"),
		evalFile:    fs.String("eval", "", evalFlagHelp),
		book:        fs.String("book", "", "opening book file (default: the built-in book); games learnt (NBoard learn) are saved to it; \"outflank book export\" writes the built-in book to start one"),
		noBook:      fs.Bool("no-book", false, "play without an opening book"),
		bookVariety: fs.Int("book-variety", 0, "play any book move valued within this many discs of the best (the better more often); 0: always the best"),
	}
	bound(fs, "hash", 1, maxHashMB)
	bound(fs, "threads", 1, maxThreads)
	bound(fs, "book-variety", 0, 64)
	return f
}

// engineSetup is what a front end needs to play: the search options (the
// evaluation included), and the opening book (nil for none).
type engineSetup struct {
	opts search.Options
	book play.Book
	log  string // --log: the session log's file ("" for none)
}

// newSearcher builds a search engine; it is the front ends' play.Factory.
func newSearcher(opts search.Options) play.Searcher { return search.New(opts) }

// evalFlagHelp is the help of every command's --eval flag.
const evalFlagHelp = "evaluation weights file (default: the built-in evaluation; \"simple\": the untrained placeholder, a baseline)"

// loadEvaluator returns the evaluation that an --eval flag names, and a
// name to show for it: "" or "default" for the built-in one, "simple" for
// the placeholder, else a weights file. Every command loads evaluations
// through it.
func loadEvaluator(name string) (ev search.Evaluator, shown string, err error) {
	switch name {
	case "", "default":
		return eval.Default(), "pattern (embedded)", nil
	case "simple":
		return eval.Simple{}, "simple (placeholder)", nil
	}
	p, err := eval.Load(name)
	if err != nil {
		return nil, name, err
	}
	return p, name, nil
}

// setup checks the flags and loads the evaluation and the book.
func (f engineFlags) setup(cmd string) (engineSetup, error) {
	if *f.hash < 1 || *f.hash > 1<<16 {
		return engineSetup{}, fmt.Errorf("%s: --hash %d: want a size from 1 to 65536 MiB", cmd, *f.hash)
	}
	if *f.threads < 1 || *f.threads > 1024 {
		return engineSetup{}, fmt.Errorf("%s: --threads %d: want 1 to 1024", cmd, *f.threads)
	}
	ev, _, err := loadEvaluator(*f.evalFile)
	if err != nil {
		return engineSetup{}, fmt.Errorf("%s: --eval: %w", cmd, err)
	}
	st := engineSetup{opts: search.Options{HashMB: *f.hash, Threads: *f.threads, Eval: ev}}
	if *f.bookVariety < 0 || *f.bookVariety > 64 {
		return engineSetup{}, fmt.Errorf("%s: --book-variety %d: want 0 to 64 discs", cmd, *f.bookVariety)
	}
	switch {
	case *f.noBook && *f.book != "":
		return engineSetup{}, fmt.Errorf("%s: --book and --no-book together", cmd)
	case *f.noBook:
	case *f.book != "":
		b, err := book.Load(*f.book)
		if err != nil {
			return engineSetup{}, fmt.Errorf("%s: --book: %w", cmd, err)
		}
		st.book = newBookMoves(b, *f.book, ev, *f.bookVariety)
	default:
		b, err := book.Default()
		if err != nil {
			return engineSetup{}, fmt.Errorf("%s: built-in book: %w", cmd, err)
		}
		st.book = newBookMoves(b, "", ev, *f.bookVariety)
	}
	return st, nil
}

// protocolArgs parses the command line of a protocol command (nboard, gtp):
// the engine flags, --depth and --time, and no arguments. ok is false after
// --help.
func protocolArgs(e *env, c *command, args []string, depthHelp, timeHelp string) (st engineSetup, depth int, maxTime time.Duration, ok bool, err error) {
	fs := c.flags(e)
	ef := addEngineFlags(fs)
	d := fs.Int("depth", 12, depthHelp)
	t := timeFlag(fs, "time", 0, timeHelp)
	logPath := fs.String("log", "", logFlagHelp)
	bound(fs, "depth", 1, 60)
	if ok, err = parse(fs, args); !ok {
		return st, 0, 0, false, err
	}
	if fs.NArg() != 0 {
		return st, 0, 0, false, fmt.Errorf("%s: unexpected argument %q", c.name, fs.Arg(0))
	}
	if *d < 1 || *d > 60 {
		return st, 0, 0, false, fmt.Errorf("%s: --depth %d: want 1 to 60", c.name, *d)
	}
	st, err = ef.setup(c.name)
	if err != nil {
		return st, 0, 0, false, err
	}
	st.log = *logPath
	return st, *d, *t, true, nil
}

// logFlagHelp is the help of the --log flag of nboard, gtp and shell.
const logFlagHelp = "record the session in FILE (appended): every line read (<) and written (> and ! for errors) with its time, for reporting a problem"

// defaultSetup is the set-up with every engine flag at its default.
func defaultSetup(cmd string) (engineSetup, error) {
	return addEngineFlags(pflag.NewFlagSet(cmd, pflag.ContinueOnError)).setup(cmd)
}
