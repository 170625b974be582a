// Package booktool is the work of "outflank book": growing a book by
// search (seeded by WTHOR games, XOT openings and lines), learning games
// into it, revaluing its leaves, and showing, counting, comparing,
// exporting, importing and merging books. The book itself (its format,
// negamax and growth) is package book; this package turns flags into its
// calls.
package booktool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bench"
	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

// Flags are the flags of the book command.
type Flags struct {
	path, from, out, in        *string
	line, board                *string
	wthor                      *string
	xot, text                  *bool
	minGames, seedPlies        *int
	depth, sel, solve          *int
	window, pathWindow, maxPly *int
	positions                  *int
	timeLimit, checkpoint      *time.Duration
	shard, evalFile            *string
	lines                      *[]string
	peers                      *[]string
	roots                      *string
	screenDepth, screenMargin  *int
	hash                       *int
	parity                     *int
	align, anyEval             *bool
	fs                         *pflag.FlagSet
}

// DefaultParity is the parity offset a new book gets (see
// book.Book.SetParityOffset): the gap between depth-13 and depth-14
// searches of book positions, measured with the built-in evaluation as
// +2.75 ± 0.10 discs (`go run bench/parity.go -book 600 -depths 12,13,14`),
// rounded to whole discs as the book stores them.
const DefaultParity = 3

// AddFlags declares the book command's flags on fs.
func AddFlags(fs *pflag.FlagSet) Flags {
	f := Flags{
		path:         fs.String("book", "", "book file (show, info, export: default the built-in book; grow, learn, revalue: the file to grow)"),
		from:         fs.String("from", "", "grow: start a new --book file from this book"),
		out:          fs.String("out", "", "export, import, merge: file to write"),
		in:           fs.String("in", "", "import: text book to read"),
		line:         fs.String("moves", "", "show: moves from the start, e.g. f5d6c3"),
		board:        fs.String("board", "", "show: a board string (OBF)"),
		wthor:        fs.String("wthor", "", "grow: seed with the games of this WTHOR directory"),
		xot:          fs.Bool("xot", false, "grow: seed with the built-in XOT openings too"),
		text:         fs.Bool("text", false, "export: write text instead of a book file"),
		minGames:     fs.Int("min-games", 20, "grow: seed positions reached by at least this many games or openings"),
		seedPlies:    fs.Int("seed-plies", 20, "grow: seed positions up to this many moves"),
		depth:        fs.Int("depth", 14, "grow, learn, revalue: depth of the book's move values (each move's position is searched to depth-1)"),
		sel:          fs.Int("selectivity", 0, "grow, learn, revalue: Multi-ProbCut confidence percent (73, 87, 95, 98, 99, 100; 0: the search's default)"),
		solve:        fs.Int("solve", 20, "grow, learn, revalue: solve positions with at most this many empties exactly"),
		window:       fs.Int("window", 3, "grow: explore moves within this many discs of the best; revalue: only the leaf moves within this many discs of their position's best, when given (default every leaf)"),
		pathWindow:   fs.Int("path-window", 6, "grow: ...and within this many summed along the line"),
		maxPly:       fs.Int("max-ply", 30, "grow, learn: deepest book position, in moves from the start; revalue: only positions this deep or less (default all)"),
		positions:    fs.Int("positions", 0, "grow: stop after adding this many positions (0: no limit)"),
		timeLimit:    fs.Duration("time", 0, "grow, revalue: stop after this long (0: no limit)"),
		checkpoint:   fs.Duration("checkpoint", time.Minute, "grow, revalue: save the book this often"),
		shard:        fs.String("shard", "", "grow: add only shard K/N of the positions; revalue: revalue only the positions of shard K/N (run one process a shard on copies of the book, then book merge)"),
		evalFile:     fs.String("eval", "", engine.EvalFlagHelp),
		screenDepth:  fs.Int("screen-depth", 6, "grow, learn: value every move first at this depth ..."),
		screenMargin: fs.Int("screen-margin", 8, "... and at --depth only those within this many discs of the best (0: all at --depth)"),
		lines:        fs.StringSlice("line", nil, "grow: seed with every position of this line first (transcript; repeatable)"),
		peers:        fs.StringSlice("peers", nil, "grow --shard: the other shards' files of the round (comma-separated or repeated): merged in at every checkpoint and when no candidate is left, so that a shard grows on through their positions"),
		roots:        fs.String("roots", "", "grow: a file of openings (move transcripts, one a line, e.g. bench/open4.txt): seed with their positions and grow near-best lines from each as from the start"),
		hash:         fs.Int("hash", 256, "grow, learn, revalue: transposition table size in MiB"),
		align:        fs.Bool("align-parity", false, "grow, learn, revalue: search each leaf to depth-1 or depth plies so that every leaf's search ends at an even number of empties (then --parity-offset 0: the negamax needs no correction)"),
		anyEval:      fs.Bool("any-evaluation", false, "revalue: search again only the leaves below --depth, not those valued by another evaluation"),
		parity:       fs.Int("parity-offset", DefaultParity, "grow, learn, revalue, import, merge: set the book's odd-even correction of the negamax in discs (a new book gets the default; see book/README.md)"),
		fs:           fs,
	}
	cli.Bound(fs, "hash", 1, cli.MaxHashMB)
	cli.Bound(fs, "depth", 1, 60)
	cli.Bound(fs, "parity-offset", -book.MaxParityOffset, book.MaxParityOffset)
	cli.Bound(fs, "selectivity", 0, 100)
	cli.Bound(fs, "solve", 0, 60)
	cli.Bound(fs, "max-ply", 0, 60)
	cli.Bound(fs, "screen-depth", 0, 60)
	return f
}

// setParity applies --parity-offset to b when it was given, and the default
// to a fresh book.
func (f Flags) setParity(cmd string, b *book.Book, fresh bool) error {
	if !f.fs.Changed("parity-offset") && !fresh {
		return nil
	}
	if err := b.SetParityOffset(*f.parity); err != nil {
		return fmt.Errorf("%s: --parity-offset: %w", cmd, err)
	}
	engine.AddInfo(b, fmt.Sprintf("%s parity offset %d discs", time.Now().UTC().Format("2006-01-02"), *f.parity))
	return nil
}

// Run runs the book action that args name (grow, learn, revalue, adopt,
// show, info, cover, diff, export, import, merge), with the parsed flags f.
func Run(e *cli.Env, f Flags, args []string) error {
	if len(args) < 1 {
		return fmt.Errorf("book: want grow, learn, revalue, adopt, show, info, cover, diff, export, import or merge")
	}
	action, rest := args[0], args[1:]
	if action != "learn" && action != "merge" && action != "cover" && action != "diff" && len(rest) > 0 {
		return fmt.Errorf("book %s: unexpected argument %q", action, rest[0])
	}
	switch action {
	case "grow":
		return bookGrow(e, f)
	case "learn":
		return bookLearn(e, f, rest)
	case "revalue":
		return bookRevalue(e, f)
	case "adopt":
		return bookAdopt(e, f)
	case "show":
		return bookShow(e, f)
	case "info":
		return bookInfo(e, f)
	case "cover":
		return bookCover(e, f, rest)
	case "diff":
		return bookDiff(e, f, rest)
	case "export":
		return bookExport(e, f)
	case "import":
		return bookImport(e, f)
	case "merge":
		return bookMerge(e, f, rest)
	}
	return fmt.Errorf("book: unknown action %q (want grow, learn, revalue, adopt, show, info, cover, diff, export, import or merge)", action)
}

// valuer builds the search valuer from the flags.
func (f Flags) valuer(cmd string) (engine.SearchValuer, string, error) {
	if *f.depth < 2 || *f.depth > 60 {
		return engine.SearchValuer{}, "", fmt.Errorf("%s: --depth %d: want 2 to 60", cmd, *f.depth)
	}
	switch *f.sel {
	case 0, 73, 87, 95, 98, 99, 100:
	default:
		return engine.SearchValuer{}, "", fmt.Errorf("%s: --selectivity %d: want 73, 87, 95, 98, 99 or 100", cmd, *f.sel)
	}
	if *f.solve < 1 || *f.solve > 60 {
		return engine.SearchValuer{}, "", fmt.Errorf("%s: --solve %d: want 1 to 60 empties", cmd, *f.solve)
	}
	if *f.hash < 1 || *f.hash > cli.MaxHashMB {
		return engine.SearchValuer{}, "", fmt.Errorf("%s: --hash %d: want 1 to 65536 MiB", cmd, *f.hash)
	}
	ev, eval, err := engine.LoadEvaluator(*f.evalFile)
	if err != nil {
		return engine.SearchValuer{}, "", fmt.Errorf("%s: --eval: %w", cmd, err)
	}
	margin := *f.screenMargin
	if *f.screenDepth < 2 || *f.screenDepth >= *f.depth || margin < 0 {
		margin = 0 // no screen: every move at --depth
	}
	desc := fmt.Sprintf("depth %d, selectivity %d, solve <= %d empties, eval %s", *f.depth, *f.sel, *f.solve, eval)
	if *f.align {
		desc += ", parity aligned (each leaf's search ends at an even number of empties)"
	}
	if margin > 0 {
		desc += fmt.Sprintf(", moves beyond %d discs of the best at depth %d", margin, *f.screenDepth)
	}
	return engine.SearchValuer{
		Engine:      search.New(search.Options{HashMB: *f.hash, Eval: ev}),
		Limits:      search.Limits{Depth: *f.depth - 1, Selectivity: *f.sel, EndgameEmpties: *f.solve},
		ScreenDepth: *f.screenDepth, Margin: margin,
		Depth: *f.depth, AlignParity: *f.align, Evaluation: engine.EvaluationID(ev),
	}, desc, nil
}

// growBook opens the book that grow and learn add to, holding its lock
// (see lock) until unlock: --book FILE if it exists, else a new one (from
// --from when given).
func (f Flags) growBook(e *cli.Env, cmd string) (b *book.Book, unlock func(), err error) {
	if *f.path == "" {
		return nil, nil, fmt.Errorf("%s: --book FILE is required (the book to grow; created if absent)", cmd)
	}
	if unlock, err = f.lock(e, cmd); err != nil {
		return nil, nil, err
	}
	if b, err = f.openGrown(cmd); err != nil {
		unlock()
		return nil, nil, err
	}
	return b, unlock, nil
}

// openGrown reads the book growBook opens.
func (f Flags) openGrown(cmd string) (*book.Book, error) {
	if _, err := os.Stat(*f.path); err == nil {
		if *f.from != "" {
			return nil, fmt.Errorf("%s: --from %s: %s exists already (resume it without --from)", cmd, *f.from, *f.path)
		}
		b, err := book.Load(*f.path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
		return b, f.setParity(cmd, b, false)
	}
	if *f.from != "" {
		b, err := book.Load(*f.from)
		if err != nil {
			return nil, fmt.Errorf("%s: --from: %w", cmd, err)
		}
		return b, f.setParity(cmd, b, false)
	}
	b := book.New()
	return b, f.setParity(cmd, b, true)
}

// checkOut says at once why a book cannot be written to path ("-": the
// standard output, always fine).
func (f Flags) checkOut(cmd, path string) error {
	if path == "-" {
		return nil
	}
	if err := atomicfile.Check(path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

// lock takes the lock of the book that grow, learn or revalue update, so
// that a second writer waits (saying so) instead of saving over the first
// one's additions; the lock is held until the command ends.
func (f Flags) lock(e *cli.Env, cmd string) (unlock func(), err error) {
	if err := f.checkOut(cmd, *f.path); err != nil {
		return nil, err
	}
	unlock, err = atomicfile.Lock(*f.path, func() {
		fmt.Fprintf(e.Stderr, "outflank: %s: waiting for another process that is updating %s\n", cmd, *f.path)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return unlock, nil
}

func bookGrow(e *cli.Env, f Flags) error {
	const cmd = "book grow"
	b, unlock, err := f.growBook(e, cmd)
	if err != nil {
		return err
	}
	defer unlock()
	v, desc, err := f.valuer(cmd)
	if err != nil {
		return err
	}
	shard, err := f.parseShard(cmd)
	if err != nil {
		return err
	}
	if *f.maxPly < 1 || *f.maxPly > 60 || *f.seedPlies < 0 || *f.seedPlies > 60 {
		return fmt.Errorf("%s: --max-ply and --seed-plies want 1 to 60", cmd)
	}
	if *f.window < 0 || *f.pathWindow < 0 || *f.positions < 0 || *f.minGames < 1 {
		return fmt.Errorf("%s: --window, --path-window and --positions want >= 0, --min-games >= 1", cmd)
	}
	seeds, seedDesc, err := f.growSeeds(e, cmd)
	if err != nil {
		return err
	}
	var roots []bitboard.Position
	if *f.roots != "" {
		var rs []book.Seed
		if roots, rs, err = growRoots(*f.roots); err != nil {
			return fmt.Errorf("%s: --roots: %w", cmd, err)
		}
		seeds = append(rs, seeds...)
		seedDesc += fmt.Sprintf("; roots: the %d openings of %s", len(roots), filepath.Base(*f.roots))
	}
	fmt.Fprintf(e.Stderr, "%d seed positions (>= %d games, <= %d moves), %d in the book already at %d positions\n",
		len(seeds), *f.minGames, *f.seedPlies, countIn(b, seeds), b.Len())

	ctx, cancel := cli.Interruptible(*f.timeLimit)
	defer cancel()
	peers := f.peerMerger(e, cmd)
	if _, err := peers(b); err != nil {
		return err
	}
	var refill func(*book.Book) (int, error)
	if len(*f.peers) > 0 {
		refill = func(b *book.Book) (int, error) { return waitForPeers(ctx, b, peers, *f.checkpoint) }
	}
	cpu0, t0 := cli.CPUTime(), time.Now()
	lastReport := time.Now()
	st, err := b.Grow(ctx, v, book.GrowOptions{
		Seeds: seeds, Window: *f.window, PathWindow: *f.pathWindow, MaxPly: *f.maxPly,
		Positions: *f.positions, Shard: shard, Roots: roots, Refill: refill,
		Checkpoint: func(b *book.Book) error {
			if _, err := peers(b); err != nil {
				return err
			}
			return engine.SaveBook(b, *f.path)
		},
		CheckpointEvery: *f.checkpoint,
		Progress: func(st book.GrowStats) {
			if time.Since(lastReport) < 10*time.Second {
				return
			}
			lastReport = time.Now()
			fmt.Fprintf(e.Stderr, "%d positions added (%d seeds), %d searches, %.0f CPU s, %s\n",
				st.Added, st.SeedsAdded, st.Searches, cli.CPUTime()-cpu0, time.Since(t0).Round(time.Second))
		},
	})
	cpu := cli.CPUTime() - cpu0
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	engine.AddInfo(b, fmt.Sprintf("%s grow: %s; seeds %s (>= %d games, <= %d moves); window %d, path window %d, max ply %d; shard %q: +%d positions, %d searches, %.0f CPU s (%s)",
		time.Now().UTC().Format("2006-01-02"), desc, seedDesc, *f.minGames, *f.seedPlies, *f.window, *f.pathWindow, *f.maxPly, *f.shard,
		st.Added, st.Searches, cpu, cli.Version()))
	if err := engine.SaveBook(b, *f.path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	per := 0.0
	if st.Added > 0 {
		per = cpu / float64(st.Added)
	}
	fmt.Fprintf(e.Stdout, "added %d positions (%d seeds) with %d searches in %.1f CPU s (%.2f s a position, %s wall); stopped: %s; %s has %d positions\n%s\n",
		st.Added, st.SeedsAdded, st.Searches, cpu, per, time.Since(t0).Round(time.Second), st.Stopped, *f.path, b.Len(), bench.CPULine())
	return nil
}

// peerMerger returns what merges the --peers files into a book: each one
// that exists (a shard that has not saved yet has none) is read and
// merged, the deeper search of a move winning, and the number of
// positions added returned. A peer that cannot be read is reported and
// skipped, so that one damaged or half-copied file does not stop a job
// that runs unattended; the shards' own files are written whole.
func (f Flags) peerMerger(e *cli.Env, cmd string) func(*book.Book) (int, error) {
	self, _ := filepath.Abs(*f.path)
	return func(b *book.Book) (int, error) {
		before := b.Len()
		for _, p := range *f.peers {
			if abs, _ := filepath.Abs(p); abs == self {
				continue
			}
			o, err := book.Load(p)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				fmt.Fprintf(e.Stderr, "%s: --peers: %s skipped: %v\n", cmd, p, err)
				continue
			}
			b.Merge(o)
		}
		return b.Len() - before, nil
	}
}

// waitForPeers merges the peers in when a shard has no candidate left,
// and if they brought no position, waits for their next checkpoints (up to
// three, every interval) before saying so: a shard whose frontier stops
// at another's positions waits for that one to grow them rather than end.
func waitForPeers(ctx context.Context, b *book.Book, peers func(*book.Book) (int, error), every time.Duration) (int, error) {
	for try := 0; ; try++ {
		n, err := peers(b)
		if n > 0 || err != nil || try == 3 {
			return n, err
		}
		select {
		case <-ctx.Done():
			return 0, nil
		case <-time.After(max(every, 10*time.Millisecond)):
		}
	}
}

// growSeeds returns the positions book grow starts from, in order: the
// lines asked for (--line), each position in the order played, then the
// positions of WTHOR games (--wthor) and XOT openings (--xot) that at
// least --min-games reach within --seed-plies moves; and how to describe
// them in the book's history.
func (f Flags) growSeeds(e *cli.Env, cmd string) (seeds []book.Seed, desc string, err error) {
	sc := book.NewSeedCounter(*f.seedPlies)
	desc = "no seeds"
	if *f.wthor != "" {
		st, err := sc.AddWTHOR(*f.wthor)
		if err != nil {
			return nil, "", fmt.Errorf("%s: --wthor: %w", cmd, err)
		}
		for _, p := range st.Problems {
			if errors.Is(p, wthor.ErrTruncated) {
				fmt.Fprintln(e.Stderr, "note:", p) // its whole games are used
				continue
			}
			fmt.Fprintln(e.Stderr, "skipped:", p)
		}
		desc = fmt.Sprintf("%d WTHOR games", st.Games)
		fmt.Fprintf(e.Stderr, "read %d WTHOR files: %d games, %d skipped\n", st.Files, st.Games, st.Skipped)
	}
	if *f.xot {
		for _, o := range match.XOT() {
			if err := sc.AddLine(o.Moves); err != nil {
				return nil, "", fmt.Errorf("%s: XOT opening %s: %w", cmd, o.Name, err)
			}
		}
		desc += " + XOT openings"
	}
	// Lines asked for come first, each position in the order played.
	for _, l := range *f.lines {
		ms, err := bitboard.ParseMoves(l)
		var ls []book.Seed
		if err == nil {
			ls, err = lineSeeds(ms)
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: --line %s: %w", cmd, l, err)
		}
		seeds = append(seeds, ls...)
	}
	seeds = append(seeds, sc.Seeds(*f.minGames)...)
	return seeds, desc, nil
}

// growRoots reads the openings of --roots: the positions they end in (the
// roots of the expansion), and every position of each line as seeds, in
// order, so that the roots are in the book before it grows from them.
func growRoots(name string) (roots []bitboard.Position, seeds []book.Seed, err error) {
	ops, err := cli.ReadFile(name, match.ReadOpenings)
	if err != nil {
		return nil, nil, err
	}
	for _, o := range ops {
		if o.Start != bitboard.Start() {
			return nil, nil, fmt.Errorf("opening %s: not from the start position (a book grows from the start)", o.Name)
		}
		ls, err := lineSeeds(o.Moves)
		if err != nil {
			return nil, nil, fmt.Errorf("opening %s: %w", o.Name, err)
		}
		seeds = append(seeds, ls...)
		_, ps, err := bitboard.Replay(o.Start, o.Moves)
		if err != nil {
			return nil, nil, fmt.Errorf("opening %s: %w", o.Name, err)
		}
		roots = append(roots, ps[len(ps)-1])
	}
	return roots, seeds, nil
}

// lineSeeds returns the positions of a line from the start as seeds, in
// the order played (--line, --roots).
func lineSeeds(moves []bitboard.Square) ([]book.Seed, error) {
	lc := book.NewSeedCounter(60)
	if err := lc.AddLine(moves); err != nil {
		return nil, err
	}
	return lc.Seeds(1), nil
}

func countIn(b *book.Book, seeds []book.Seed) int {
	n := 0
	for _, s := range seeds {
		if b.Contains(s.Pos) {
			n++
		}
	}
	return n
}

func bookLearn(e *cli.Env, f Flags, files []string) error {
	const cmd = "book learn"
	if len(files) == 0 {
		return fmt.Errorf("%s: no game file given", cmd)
	}
	b, unlock, err := f.growBook(e, cmd)
	if err != nil {
		return err
	}
	defer unlock()
	v, desc, err := f.valuer(cmd)
	if err != nil {
		return err
	}
	ctx, cancel := cli.Interruptible(*f.timeLimit)
	defer cancel()
	cpu0 := cli.CPUTime()
	games, added, searches := 0, 0, 0
	for _, name := range files {
		gs, err := readGGFFile(name)
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		for _, g := range gs {
			moves := g.Squares()
			a, s, err := b.Learn(ctx, g.Start, moves, *f.maxPly, v)
			added, searches = added+a, searches+s
			if err != nil {
				if ctx.Err() != nil {
					break // interrupted: keep what was learnt
				}
				return fmt.Errorf("%s: %w", cmd, err)
			}
			games++
		}
	}
	cpu := cli.CPUTime() - cpu0
	engine.AddInfo(b, fmt.Sprintf("%s learn: %s; %d games from %s: +%d positions, %d searches, %.0f CPU s (%s)",
		time.Now().UTC().Format("2006-01-02"), desc, games, strings.Join(files, " "), added, searches, cpu, cli.Version()))
	if err := engine.SaveBook(b, *f.path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.Stdout, "learnt %d games: added %d positions with %d searches in %.1f CPU s; %s has %d positions\n",
		games, added, searches, cpu, *f.path, b.Len())
	return nil
}

// readGGFFile reads the game records of a file, e.g. "outflank match
// --games-out" (one a line); errors name the file and the record.
func readGGFFile(name string) ([]*bitboard.Game, error) {
	data, err := bitboard.ReadRegular(name)
	if err != nil {
		return nil, err
	}
	var out []*bitboard.Game
	s := string(data)
	for n := 1; ; n++ {
		i := strings.Index(s, "(;")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], ";)")
		if j < 0 {
			return nil, fmt.Errorf("%s: game %d: no closing ;)", name, n)
		}
		g, err := bitboard.ParseGGF(s[i : i+j+2])
		if err != nil {
			return nil, fmt.Errorf("%s: game %d: %w", name, n, err)
		}
		out = append(out, g)
		s = s[i+j+2:]
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no GGF game record", name)
	}
	return out, nil
}

// followGames follows each game of the GGF files through b (Book.Follow)
// and hands visit the game and its moves in book positions; it returns
// how many games it followed. cover and diff read a match's games so.
func followGames(cmd string, b *book.Book, files []string, visit func(*bitboard.Game, []book.Played)) (int, error) {
	games := 0
	for _, name := range files {
		gs, err := readGGFFile(name)
		if err != nil {
			return games, fmt.Errorf("%s: %w", cmd, err)
		}
		for n, g := range gs {
			ps, err := b.Follow(g.Start, g.Squares())
			if err != nil {
				return games, fmt.Errorf("%s: %s: game %d: %w", cmd, name, n+1, err)
			}
			games++
			visit(g, ps)
		}
	}
	return games, nil
}

// parseShard reads --shard (the whole book when not given), for grow and
// revalue.
func (f Flags) parseShard(cmd string) (book.Shard, error) {
	if *f.shard == "" {
		return book.Shard{}, nil
	}
	sh, err := book.ParseShard(*f.shard)
	if err != nil {
		return book.Shard{}, fmt.Errorf("%s: --shard: %w", cmd, err)
	}
	return sh, nil
}

func bookRevalue(e *cli.Env, f Flags) error {
	const cmd = "book revalue"
	if *f.path == "" {
		return fmt.Errorf("%s: --book FILE is required", cmd)
	}
	if *f.window < 0 {
		return fmt.Errorf("%s: --window %d: want >= 0", cmd, *f.window)
	}
	shard, err := f.parseShard(cmd)
	if err != nil {
		return err
	}
	b, unlock, err := f.lockedBook(e, cmd)
	if err != nil {
		return err
	}
	defer unlock()
	if err := f.setParity(cmd, b, false); err != nil {
		return err
	}
	v, desc, err := f.valuer(cmd)
	if err != nil {
		return err
	}
	ctx, cancel := cli.Interruptible(*f.timeLimit)
	defer cancel()
	cpu0, last := cli.CPUTime(), time.Now()
	opt := book.RevalueOptions{MinDepth: *f.depth}
	if !*f.anyEval {
		opt.Evaluation = v.Evaluation
	}
	if f.fs.Changed("max-ply") {
		if *f.maxPly < 1 || *f.maxPly > 60 {
			return fmt.Errorf("%s: --max-ply %d: want 1 to 60", cmd, *f.maxPly)
		}
		opt.MaxPly = *f.maxPly
	}
	opt.NearBest, opt.Window, opt.Shard = f.fs.Changed("window"), *f.window, shard
	st, err := b.Revalue(ctx, v, opt, func(b *book.Book) error {
		if time.Since(last) < *f.checkpoint {
			return nil
		}
		last = time.Now()
		return engine.SaveBook(b, *f.path)
	})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	cpu := cli.CPUTime() - cpu0
	scope := ""
	if opt.NearBest {
		scope += fmt.Sprintf("; leaves within %d of the best", opt.Window)
	}
	if opt.MaxPly > 0 {
		scope += fmt.Sprintf("; positions to move %d", opt.MaxPly)
	}
	if *f.shard != "" {
		scope += fmt.Sprintf("; shard %q", *f.shard)
	}
	engine.AddInfo(b, fmt.Sprintf("%s revalue: %s%s: %d positions, %d searches, %.0f CPU s (%s)",
		time.Now().UTC().Format("2006-01-02"), desc, scope, st.Positions, st.Searches, cpu, cli.Version()))
	if err := engine.SaveBook(b, *f.path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.Stdout, "revalued %d positions with %d searches in %.1f CPU s%s\n", st.Positions, st.Searches, cpu,
		map[bool]string{true: " (stopped: run again to resume)", false: ""}[ctx.Err() != nil])
	return nil
}

// printEvaluations counts the book's leaf moves by the evaluation that
// valued them, marking the one --eval names (the built-in one by default):
// the others are what "book revalue" would search again.
func printEvaluations(e *cli.Env, f Flags, st book.Stats) error {
	ev, shown, err := engine.LoadEvaluator(*f.evalFile)
	if err != nil {
		return fmt.Errorf("book info: --eval: %w", err)
	}
	id := engine.EvaluationID(ev)
	names := make([]string, 0, len(st.Evaluations))
	for name := range st.Evaluations {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return st.Evaluations[names[i]] > st.Evaluations[names[j]] })
	fmt.Fprintln(e.Stdout, "inexact leaf moves by evaluation (weights and Multi-ProbCut model):")
	for _, name := range names {
		label := name
		switch name {
		case id:
			label += fmt.Sprintf(" (eval %s: this run's)", shown)
		case "":
			label = "not recorded (valued before the book recorded it)"
		}
		fmt.Fprintf(e.Stdout, "  %7d  %s\n", st.Evaluations[name], label)
	}
	return nil
}

// lockedBook loads --book FILE, an existing book that cmd rewrites,
// holding its lock (see lock) until unlock.
func (f Flags) lockedBook(e *cli.Env, cmd string) (b *book.Book, unlock func(), err error) {
	if unlock, err = f.lock(e, cmd); err != nil {
		return nil, nil, err
	}
	if b, err = book.Load(*f.path); err != nil {
		unlock()
		return nil, nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return b, unlock, nil
}

// bookAdopt records the evaluation of --eval (the built-in one by default)
// as the one behind the values of --book that record none.
func bookAdopt(e *cli.Env, f Flags) error {
	const cmd = "book adopt"
	if *f.path == "" {
		return fmt.Errorf("%s: --book FILE is required", cmd)
	}
	ev, shown, err := engine.LoadEvaluator(*f.evalFile)
	if err != nil {
		return fmt.Errorf("%s: --eval: %w", cmd, err)
	}
	b, unlock, err := f.lockedBook(e, cmd)
	if err != nil {
		return err
	}
	defer unlock()
	id := engine.EvaluationID(ev)
	n, err := b.Adopt(id)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	engine.AddInfo(b, fmt.Sprintf("%s adopt: the values that recorded no evaluation recorded as eval %s (%s): %d leaves (%s)",
		time.Now().UTC().Format("2006-01-02"), shown, id, n, cli.Version()))
	if err := engine.SaveBook(b, *f.path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.Stdout, "%d leaf moves now record %s\n", n, id)
	return nil
}

// readBook loads --book FILE or the built-in book.
func (f Flags) readBook(cmd string) (*book.Book, error) {
	var b *book.Book
	var err error
	if *f.path != "" {
		b, err = book.Load(*f.path)
	} else {
		b, err = book.Default()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	return b, nil
}

func bookShow(e *cli.Env, f Flags) error {
	const cmd = "book show"
	b, err := f.readBook(cmd)
	if err != nil {
		return err
	}
	pos := bitboard.Start()
	switch {
	case *f.board != "" && *f.line != "":
		return fmt.Errorf("%s: give --moves or --board, not both", cmd)
	case *f.board != "":
		if pos, err = bitboard.ParseBoard(*f.board); err != nil {
			return fmt.Errorf("%s: --board: %s", cmd, strings.TrimPrefix(err.Error(), "board: "))
		}
	case *f.line != "":
		if pos, err = bitboard.PlayTranscript(pos, *f.line); err != nil {
			return fmt.Errorf("%s: --moves: %w", cmd, err)
		}
	}
	fmt.Fprint(e.Stdout, pos.Picture(pos.Moves()))
	ms := b.Moves(pos)
	if len(ms) == 0 {
		fmt.Fprintln(e.Stdout, "out of book")
		return nil
	}
	fmt.Fprintf(e.Stdout, "%s to move; values are final disc differences for %s.\n", cli.Capitalize(pos.ToMove.String()), pos.ToMove)
	fmt.Fprintf(e.Stdout, "%-5s %6s %9s %9s  %s\n", "move", "value", "depth", "positions", "")
	for _, m := range ms {
		under := b.Under(pos.Play(m.Square)) // the book positions behind the move
		note := "leaf: searched"
		switch {
		case m.InBook:
			note = "in book: negamaxed"
		case m.Screened:
			note = "leaf: screened (clearly worse at the shallow screen)"
		}
		if m.Exact {
			note += ", exact"
		}
		fmt.Fprintf(e.Stdout, "%-5s %+6d %5d@%d%% %9d  %s\n", m.Square, m.Value, m.Depth, m.Selectivity, under, note)
	}
	return nil
}

func bookInfo(e *cli.Env, f Flags) error {
	b, err := f.readBook("book info")
	if err != nil {
		return err
	}
	st := b.Stats()
	fmt.Fprintf(e.Stdout, "%d positions (%d to %d discs), %d moves: %d leaves (valued by their own search; %d of them by the shallow screen only), %d exact\n",
		st.Positions, st.MinDiscs, st.MaxDiscs, st.Moves, st.Leaves, st.Screened, st.Exact)
	fmt.Fprintf(e.Stdout, "leaf moves by depth:%s\n", histogram(st.Depths, ""))
	fmt.Fprintf(e.Stdout, "leaf moves by selectivity:%s\n", histogram(st.Selectivities, "%"))
	if err := printEvaluations(e, f, st); err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "parity offset of the negamax: %d discs\n", b.ParityOffset())
	if b.Info != "" {
		fmt.Fprintf(e.Stdout, "built:\n  %s\n", strings.ReplaceAll(engine.FileNames(b.Info), "\n", "\n  "))
	}
	if *f.wthor == "" {
		return nil
	}
	// Positions reached by 10 games or more lie in the first 24 moves;
	// counting deeper ones would only cost memory.
	sc := book.NewSeedCounter(24)
	ws, err := sc.AddWTHOR(*f.wthor)
	if err != nil {
		return fmt.Errorf("book info: --wthor: %w", err)
	}
	fmt.Fprintf(e.Stdout, "coverage of the positions of the first 24 moves of %d WTHOR games (a position counts once per game):\n", ws.Games)
	for _, c := range sc.Coverage(b, []int{10000, 1000, 300, 100, 30, 10}) {
		fmt.Fprintf(e.Stdout, "  reached by >= %5d games: %6d positions, %6d in the book (%.1f%%)\n",
			c.Games, c.Positions, c.InBook, 100*float64(c.InBook)/float64(max(1, c.Positions)))
	}
	return nil
}

// bookCover reports how far the games of GGF files went through the book
// and, for each player (PB and PW), how far its moves in book positions
// fell below the book's best (moves without a time are an opening's, set
// by a match rather than chosen, and count for neither player): what a match of a book against no book can
// measure (only the moves in book positions differ) and whether the
// player without the book plays the book's choices anyway.
func bookCover(e *cli.Env, f Flags, files []string) error {
	const cmd = "book cover"
	if len(files) == 0 {
		return fmt.Errorf("%s: no game file given", cmd)
	}
	b, err := f.readBook(cmd)
	if err != nil {
		return err
	}
	type tally struct {
		moves  int
		losses map[int]int
	}
	players := map[string]*tally{}
	var names []string
	left := map[int]int{} // games by the move after which they left the book
	inBook := 0
	games, err := followGames(cmd, b, files, func(g *bitboard.Game, ps []book.Played) {
		last := 0
		for _, p := range ps {
			last = p.Ply
			if !g.Moves[p.Index].HasTime {
				continue
			}
			who := playerName(g, p.Player)
			t := players[who]
			if t == nil {
				t = &tally{losses: map[int]int{}}
				players[who] = t
				names = append(names, who)
			}
			t.moves++
			inBook++
			t.losses[p.Loss]++
		}
		left[last]++
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "%d games: %d moves chosen in book positions, %.1f a game\n", games, inBook, float64(inBook)/float64(games))
	fmt.Fprintf(e.Stdout, "games by their last move in a book position (0: none):%s\n", histogram(left, ""))
	sort.Strings(names)
	for _, who := range names {
		t := players[who]
		fmt.Fprintf(e.Stdout, "%s: %d moves in book positions; discs below the book's best:%s\n", who, t.moves, histogram(t.losses, ""))
	}
	return nil
}

// bookDiff compares a book (--book, the built-in one by default) with
// another version of it, as a revaluation leaves it: how far the leaves'
// values moved and where the move the book plays changed, over the whole
// book and over the book positions that the given games pass through (a
// match's games: where a match of the new book could differ at all).
func bookDiff(e *cli.Env, f Flags, args []string) error {
	const cmd = "book diff"
	if len(args) == 0 {
		return fmt.Errorf("%s: no book to compare given (book diff [--book OLD] NEW [GAMES.ggf...])", cmd)
	}
	old, err := f.readBook(cmd)
	if err != nil {
		return err
	}
	nb, err := book.Load(args[0])
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	d := book.Compare(old, nb)
	fmt.Fprintf(e.Stdout, "%d positions in both books; %d leaf moves in both, %d valued again (%d deeper)\n", d.Positions, d.Leaves, d.Revalued, d.Deeper)
	if d.Revalued > 0 {
		sum, abs := 0, 0
		for v, n := range d.Shift {
			sum += v * n
			abs += max(v, -v) * n
		}
		fmt.Fprintf(e.Stdout, "their values, new less old:%s; mean %+.2f, mean absolute %.2f discs\n",
			histogram(d.Shift, ""), float64(sum)/float64(d.Revalued), float64(abs)/float64(d.Revalued))
	}
	fmt.Fprintf(e.Stdout, "positions whose book move changed: %d of %d, the old move %d discs below the new best in all\n", d.Choices, d.Positions, d.Loss)
	if len(args) == 1 {
		return nil
	}
	visited, changed, loss := 0, 0, 0
	byMove := map[int]int{}
	type tally struct{ moves, changed, loss int }
	players := map[string]*tally{}
	var names []string
	games, err := followGames(cmd, old, args[1:], func(g *bitboard.Game, ps []book.Played) {
		pos := g.Positions()
		for _, p := range ps {
			before := pos[p.Index]
			if !g.Moves[p.Index].HasTime || !nb.Contains(before) {
				continue
			}
			who := playerName(g, p.Player)
			t := players[who]
			if t == nil {
				t = &tally{}
				players[who] = t
				names = append(names, who)
			}
			visited++
			t.moves++
			if l := book.ChoiceLoss(old.Moves(before), nb.Moves(before)); l > 0 {
				changed++
				loss += l
				byMove[p.Ply]++
				t.changed++
				t.loss += l
			}
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(e.Stdout, "%d games: %d moves chosen in book positions of both (a match's opening moves left out), the book move changed in %d (%d discs by the new values, %.2f a game); by move number:%s\n",
		games, visited, changed, loss, float64(loss)/float64(max(games, 1)), histogram(byMove, ""))
	sort.Strings(names)
	for _, who := range names {
		t := players[who]
		fmt.Fprintf(e.Stdout, "%s: %d moves in book positions of both, the book move changed in %d (%d discs)\n", who, t.moves, t.changed, t.loss)
	}
	return nil
}

// playerName is the name a game gives the player of colour c (its PB or
// PW tag), or the colour in brackets where it gives none.
func playerName(g *bitboard.Game, c bitboard.Color) string {
	key := "PB"
	if c == bitboard.White {
		key = "PW"
	}
	if who, _ := g.Prop(key); who != "" {
		return who
	}
	return "(" + c.String() + ")"
}

func histogram(m map[int]int, unit string) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, " %d%s: %d", k, unit, m[k])
	}
	return sb.String()
}

func bookExport(e *cli.Env, f Flags) error {
	const cmd = "book export"
	if *f.out == "" {
		return fmt.Errorf("%s: --out FILE is required", cmd)
	}
	if err := f.checkOut(cmd, *f.out); err != nil {
		return err
	}
	b, err := f.readBook(cmd)
	if err != nil {
		return err
	}
	if !*f.text {
		if *f.out == "-" {
			return errors.New("book export: a book file cannot go to standard output; use --text")
		}
		if err := engine.SaveBook(b, *f.out); err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		fmt.Fprintf(e.Stdout, "wrote the book (%d positions) to %s\n", b.Len(), *f.out)
		return nil
	}
	if *f.out == "-" {
		err = b.Export(e.Stdout)
	} else {
		err = atomicfile.Write(*f.out, b.Export)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

func bookImport(e *cli.Env, f Flags) error {
	const cmd = "book import"
	if *f.in == "" || *f.out == "" {
		return fmt.Errorf("%s: --in TEXT and --out FILE are required", cmd)
	}
	if err := f.checkOut(cmd, *f.out); err != nil {
		return err
	}
	file, err := bitboard.Open(*f.in)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	defer file.Close()
	b, err := book.Import(file)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, bitboard.InFile(*f.in, err))
	}
	if err := f.setParity(cmd, b, false); err != nil {
		return err
	}
	if err := engine.SaveBook(b, *f.out); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.Stdout, "imported %d positions into %s\n", b.Len(), *f.out)
	return nil
}

func bookMerge(e *cli.Env, f Flags, files []string) error {
	const cmd = "book merge"
	if *f.out == "" || len(files) == 0 {
		return fmt.Errorf("%s: --out FILE and at least one book are required", cmd)
	}
	if err := f.checkOut(cmd, *f.out); err != nil {
		return err
	}
	out := book.New()
	for _, name := range files {
		b, err := book.Load(name)
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		out.Merge(b)
		// Shards grown from one base book all carry the base's history:
		// keep each line once, in order.
		for _, line := range strings.Split(b.Info, "\n") {
			if line != "" && !slices.Contains(strings.Split(out.Info, "\n"), line) {
				engine.AddInfo(out, line)
			}
		}
	}
	if err := f.setParity(cmd, out, false); err != nil {
		return err
	}
	engine.AddInfo(out, fmt.Sprintf("%s merge of %s (%s)", time.Now().UTC().Format("2006-01-02"), strings.Join(files, " "), cli.Version()))
	if err := engine.SaveBook(out, *f.out); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.Stdout, "merged %d books: %d positions in %s\n", len(files), out.Len(), *f.out)
	return nil
}
