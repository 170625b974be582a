// Package engine builds what the commands play and analyse with from
// their flags: the evaluation an --eval flag names, the search options, the
// opening book (as the play layer's Book, Chooser and Learner), and the
// search valuer that grows and learns books. Every command loads
// evaluations and books through it, so that "default", "simple" and a
// weights file mean the same everywhere.
package engine

import (
	"fmt"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// Flags are the flags of every command that plays with the engine.
type Flags struct {
	hash, threads  *int
	evalFile, book *string
	noBook         *bool
	bookVariety    *int
}

func AddFlags(fs *pflag.FlagSet) Flags {
	f := Flags{
		hash:        fs.Int("hash", search.DefaultHashMB, "transposition table size in MiB"),
		threads:     fs.Int("threads", runtime.NumCPU(), "search threads"),
		evalFile:    fs.String("eval", "", EvalFlagHelp),
		book:        fs.String("book", "", "opening book file (default: the built-in book); games learnt (NBoard learn) are saved to it; \"outflank book export\" writes the built-in book to start one"),
		noBook:      fs.Bool("no-book", false, "play without an opening book"),
		bookVariety: fs.Int("book-variety", 0, "play any book move valued within this many discs of the best (the better more often); 0: always the best"),
	}
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(fs, "threads", 1, cli.MaxThreads)
	cli.EveryCore(fs, "threads")
	cli.Bound(fs, "book-variety", 0, 64)
	return f
}

// Setup is what a front end needs to play: the search options (the
// evaluation included), and the opening book (nil for none).
type Setup struct {
	Opts search.Options
	Book play.Book
	Log  string // --log: the session log's file ("" for none)
	// Ponder: think on the opponent's time (--ponder of nboard and gtp).
	Ponder bool
}

// NewSearcher builds a search engine; it is the front ends' play.Factory.
func NewSearcher(opts search.Options) play.Searcher { return search.New(opts) }

// EvalFlagHelp is the help of every command's --eval flag.
const EvalFlagHelp = "evaluation weights file (default: the built-in evaluation; \"simple\": the untrained placeholder, a baseline)"

// LoadEvaluator returns the evaluation that an --eval flag names, and a
// name to show for it: "" or "default" for the built-in one, "simple" for
// the placeholder, else a weights file. Every command loads evaluations
// through it.
func LoadEvaluator(name string) (ev search.Evaluator, shown string, err error) {
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

// EvaluationID names what a selective search's values depend on besides
// its depth: the evaluation's weights (their digest) and the Multi-ProbCut
// model built in. The opening book records it with every value a search
// gives it, so that a revaluation finds the values of other evaluations.
func EvaluationID(ev search.Evaluator) string {
	var w string
	switch e := ev.(type) {
	case *eval.Pattern:
		w = "weights " + e.Digest()
	case eval.Simple:
		w = "simple"
	default:
		w = fmt.Sprintf("%T", ev)
	}
	return w + ", mpc " + search.ModelDigest()
}

// Setup checks the flags and loads the evaluation and the book.
func (f Flags) Setup(cmd string) (Setup, error) {
	if *f.hash < 1 || *f.hash > cli.MaxHashMB {
		return Setup{}, fmt.Errorf("%s: --hash %d: want a size from 1 to 65536 MiB", cmd, *f.hash)
	}
	if *f.threads < 1 || *f.threads > cli.MaxThreads {
		return Setup{}, fmt.Errorf("%s: --threads %d: want 1 to %d", cmd, *f.threads, cli.MaxThreads)
	}
	ev, _, err := LoadEvaluator(*f.evalFile)
	if err != nil {
		return Setup{}, fmt.Errorf("%s: --eval: %w", cmd, err)
	}
	st := Setup{Opts: search.Options{HashMB: *f.hash, Threads: *f.threads, Eval: ev}}
	if *f.bookVariety < 0 || *f.bookVariety > 64 {
		return Setup{}, fmt.Errorf("%s: --book-variety %d: want 0 to 64 discs", cmd, *f.bookVariety)
	}
	switch {
	case *f.noBook && *f.book != "":
		return Setup{}, fmt.Errorf("%s: --book and --no-book together", cmd)
	case *f.noBook:
	case *f.book != "":
		b, err := book.Load(*f.book)
		if err != nil {
			return Setup{}, fmt.Errorf("%s: --book: %w", cmd, err)
		}
		st.Book = newBookMoves(b, *f.book, ev, *f.bookVariety)
	default:
		b, err := book.Default()
		if err != nil {
			return Setup{}, fmt.Errorf("%s: built-in book: %w", cmd, err)
		}
		st.Book = newBookMoves(b, "", ev, *f.bookVariety)
	}
	return st, nil
}

// DefaultSetup is the set-up with every engine flag at its default.
func DefaultSetup(cmd string) (Setup, error) {
	return AddFlags(pflag.NewFlagSet(cmd, pflag.ContinueOnError)).Setup(cmd)
}

// BookOf is b as the play layer's book, learning for the session only:
// for a front end that reads its book from elsewhere than a file (the
// browser build fetches it). With a nil ev it does not learn (Learn says
// so): the browser build reads its book before its weights.
func BookOf(b *book.Book, ev search.Evaluator, variety int) play.Book {
	return newBookMoves(b, "", ev, variety)
}
