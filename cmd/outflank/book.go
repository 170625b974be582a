package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
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
	"github.com/outflank-othello/outflank/cmd/outflank/internal/match"
	"github.com/outflank-othello/outflank/search"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "book",
		args:    "grow|learn|revalue|show|info|export|import|merge [flags]",
		summary: "Grow the opening book by search, learn games into it, show its values, or convert it.",
		details: `Every book position lists all its legal moves, each valued by a search
of the position it leads to (depth D means a search to D-1 plies from
there, as the root moves of a depth-D search are valued) or negamaxed from
the book position it leads to. See book/README.md.

outflank book grow --book FILE [--from FILE] [--wthor DIR] [--xot] [search flags] [budget]
    adds positions to FILE (created, or resumed if it exists; --from FILE
    starts a new one from another book): first the positions that at least
    --min-games WTHOR games (and XOT openings with --xot) reach in their
    first --seed-plies moves, most played first; then deviations: the
    moves within --window discs of a position's best (and --path-window
    summed along the line) that lead out of the book, up to --max-ply.
    --line TRANSCRIPT adds the positions of a line before all others.
    Stops at --positions or --time (or Ctrl-C), saving FILE every
    --checkpoint; run it again to resume. --shard K/N adds only the
    positions of shard K of N: run N copies of a book, one shard each (a
    batch job array), then "book merge".
outflank book learn --book FILE [search flags] GAMES.ggf...
    adds every position of the games (up to --max-ply) to FILE, valued by
    search (e.g. the --games-out file of "outflank match").
outflank book revalue --book FILE --depth D [--max-ply P] [search flags] [--time T]
    searches again every leaf move valued below depth D (a newer engine,
    a deeper book), in the positions of the first P moves only if given,
    shallowest first; moves the screen alone valued stay as they are.
    Resumable like grow.
outflank book show [--book FILE] [--moves TRANSCRIPT | --board OBF]
    prints the book moves of a position (the start by default), best first,
    with value, depth and selectivity.
outflank book info [--book FILE] [--wthor DIR]
    counts positions and moves by depth and selectivity, prints how the
    book was built, and with --wthor how many of the positions that WTHOR
    games reach often are in the book.
outflank book export [--book FILE] [--text] --out FILE
    writes the book (the built-in one by default) as a book file, or with
    --text as text, one position a line ("-" for standard output).
outflank book import --in TEXT --out FILE
    reads a text book (as export --text writes it) into a book file.
outflank book merge --out FILE BOOK...
    merges books (e.g. shards): the deeper search of a move wins.

--parity-offset N (grow, learn, revalue, import, merge) sets the book's
odd-even correction: a search to an odd depth values the side to move
higher than one to an even depth, so a move into a book position (valued
one ply deeper than a leaf) passes its value on moved by N discs towards
the leaves' parity. A new book gets 3, measured for this engine.`,
		run: runBook,
	})
}

// bookFlags are the flags of the book command.
type bookFlags struct {
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
	screenDepth, screenMargin  *int
	hash                       *int
	parity                     *int
	align                      *bool
	fs                         *pflag.FlagSet
}

// defaultBookParity is the parity offset a new book gets (see
// book.Book.SetParityOffset): the gap between depth-13 and depth-14
// searches of book positions, measured with the built-in evaluation as
// +2.75 ± 0.10 discs (`go run bench/parity.go -book 600 -depths 12,13,14`),
// rounded to whole discs as the book stores them.
const defaultBookParity = 3

func addBookFlags(fs *pflag.FlagSet) bookFlags {
	f := bookFlags{
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
		window:       fs.Int("window", 3, "grow: explore moves within this many discs of the best"),
		pathWindow:   fs.Int("path-window", 6, "grow: ...and within this many summed along the line"),
		maxPly:       fs.Int("max-ply", 30, "grow, learn: deepest book position, in moves from the start; revalue: only positions this deep or less (default all)"),
		positions:    fs.Int("positions", 0, "grow: stop after adding this many positions (0: no limit)"),
		timeLimit:    fs.Duration("time", 0, "grow, revalue: stop after this long (0: no limit)"),
		checkpoint:   fs.Duration("checkpoint", time.Minute, "grow, revalue: save the book this often"),
		shard:        fs.String("shard", "", "grow: add only shard K/N of the positions"),
		evalFile:     fs.String("eval", "", evalFlagHelp),
		screenDepth:  fs.Int("screen-depth", 6, "grow, learn: value every move first at this depth ..."),
		screenMargin: fs.Int("screen-margin", 8, "... and at --depth only those within this many discs of the best (0: all at --depth)"),
		lines:        fs.StringSlice("line", nil, "grow: seed with every position of this line first (transcript; repeatable)"),
		hash:         fs.Int("hash", 256, "grow, learn, revalue: transposition table size in MiB"),
		align:        fs.Bool("align-parity", false, "grow, learn, revalue: search each leaf to depth-1 or depth plies so that every leaf's search ends at an even number of empties (then --parity-offset 0: the negamax needs no correction)"),
		parity:       fs.Int("parity-offset", defaultBookParity, "grow, learn, revalue, import, merge: set the book's odd-even correction of the negamax in discs (a new book gets the default; see book/README.md)"),
		fs:           fs,
	}
	bound(fs, "hash", 1, maxHashMB)
	bound(fs, "depth", 1, 60)
	bound(fs, "parity-offset", -book.MaxParityOffset, book.MaxParityOffset)
	bound(fs, "selectivity", 0, 100)
	bound(fs, "solve", 0, 60)
	bound(fs, "max-ply", 0, 60)
	bound(fs, "screen-depth", 0, 60)
	return f
}

// setParity applies --parity-offset to b when it was given, and the default
// to a fresh book.
func (f bookFlags) setParity(cmd string, b *book.Book, fresh bool) error {
	if !f.fs.Changed("parity-offset") && !fresh {
		return nil
	}
	if err := b.SetParityOffset(*f.parity); err != nil {
		return fmt.Errorf("%s: --parity-offset: %w", cmd, err)
	}
	addInfo(b, fmt.Sprintf("%s parity offset %d discs", time.Now().UTC().Format("2006-01-02"), *f.parity))
	return nil
}

func runBook(e *env, args []string) error {
	c := findCommand("book")
	fs := c.flags(e)
	f := addBookFlags(fs)
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() < 1 {
		return fmt.Errorf("book: want grow, learn, revalue, show, info, export, import or merge")
	}
	action, rest := fs.Arg(0), fs.Args()[1:]
	if action != "learn" && action != "merge" && len(rest) > 0 {
		return fmt.Errorf("book %s: unexpected argument %q", action, rest[0])
	}
	switch action {
	case "grow":
		return bookGrow(e, f)
	case "learn":
		return bookLearn(e, f, rest)
	case "revalue":
		return bookRevalue(e, f)
	case "show":
		return bookShow(e, f)
	case "info":
		return bookInfo(e, f)
	case "export":
		return bookExport(e, f)
	case "import":
		return bookImport(e, f)
	case "merge":
		return bookMerge(e, f, rest)
	}
	return fmt.Errorf("book: unknown action %q (want grow, learn, revalue, show, info, export, import or merge)", action)
}

// searchValuer values book positions with the engine's search; with a
// screen margin, it is also a book.Screener searching to screenDepth.
type searchValuer struct {
	e            *search.Engine
	lim          search.Limits
	screenDepth  int
	screenMargin int
	depth        int  // the book's --depth
	align        bool // --align-parity: book.AlignedSearchDepth
}

func (v searchValuer) Screen(ctx context.Context, pos bitboard.Position) (book.Valuation, error) {
	s := v
	s.lim.Depth = v.screenDepth - 1
	return s.Value(ctx, pos)
}

func (v searchValuer) ScreenMargin() int { return v.screenMargin }

func (v searchValuer) Value(ctx context.Context, pos bitboard.Position) (book.Valuation, error) {
	lim := v.lim
	if v.align && lim.Depth == v.depth-1 { // not the screen
		lim.Depth = book.AlignedSearchDepth(pos, v.depth)
	}
	i := v.e.Search(ctx, pos, lim, nil)
	if err := ctx.Err(); err != nil {
		return book.Valuation{}, err // stopped: the result is incomplete
	}
	return book.Valuation{Score: i.Score, Depth: i.Depth, Selectivity: i.Selectivity, Exact: i.Exact}, nil
}

// valuer builds the search valuer from the flags.
func (f bookFlags) valuer(cmd string) (searchValuer, string, error) {
	if *f.depth < 2 || *f.depth > 60 {
		return searchValuer{}, "", fmt.Errorf("%s: --depth %d: want 2 to 60", cmd, *f.depth)
	}
	switch *f.sel {
	case 0, 73, 87, 95, 98, 99, 100:
	default:
		return searchValuer{}, "", fmt.Errorf("%s: --selectivity %d: want 73, 87, 95, 98, 99 or 100", cmd, *f.sel)
	}
	if *f.solve < 1 || *f.solve > 60 {
		return searchValuer{}, "", fmt.Errorf("%s: --solve %d: want 1 to 60 empties", cmd, *f.solve)
	}
	if *f.hash < 1 || *f.hash > 1<<16 {
		return searchValuer{}, "", fmt.Errorf("%s: --hash %d: want 1 to 65536 MiB", cmd, *f.hash)
	}
	ev, eval, err := loadEvaluator(*f.evalFile)
	if err != nil {
		return searchValuer{}, "", fmt.Errorf("%s: --eval: %w", cmd, err)
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
	return searchValuer{
		e:           search.New(search.Options{HashMB: *f.hash, Eval: ev}),
		lim:         search.Limits{Depth: *f.depth - 1, Selectivity: *f.sel, EndgameEmpties: *f.solve},
		screenDepth: *f.screenDepth, screenMargin: margin,
		depth: *f.depth, align: *f.align,
	}, desc, nil
}

// growBook opens the book that grow, learn and revalue add to: --book FILE
// if it exists, else a new one (from --from when given).
func (f bookFlags) growBook(cmd string) (*book.Book, error) {
	if *f.path == "" {
		return nil, fmt.Errorf("%s: --book FILE is required (the book to grow; created if absent)", cmd)
	}
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

// interruptible returns a context that Ctrl-C cancels, so that a long run
// stops at a clean point and saves.
func interruptible(limit time.Duration) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	if limit <= 0 {
		return ctx, stop
	}
	ctx2, cancel := context.WithTimeout(ctx, limit)
	return ctx2, func() { cancel(); stop() }
}

// fileNames writes the paths in a book's history as bare file names: the
// history travels with the book (the built-in one too), and the folders
// of the machine that built it mean nothing elsewhere. A word is a path if
// it holds a slash and starts with one, "./", "../" or "~" (a shard "1/18"
// does not).
func fileNames(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		words := strings.Split(l, " ")
		for j, w := range words {
			if strings.Contains(w, "/") && (strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") || strings.HasPrefix(w, "~")) {
				words[j] = filepath.Base(w)
			}
		}
		lines[i] = strings.Join(words, " ")
	}
	return strings.Join(lines, "\n")
}

func addInfo(b *book.Book, line string) {
	if b.Info != "" {
		b.Info += "\n"
	}
	b.Info += line
}

func bookGrow(e *env, f bookFlags) error {
	const cmd = "book grow"
	b, err := f.growBook(cmd)
	if err != nil {
		return err
	}
	v, desc, err := f.valuer(cmd)
	if err != nil {
		return err
	}
	var shard book.Shard
	if *f.shard != "" {
		if shard, err = book.ParseShard(*f.shard); err != nil {
			return fmt.Errorf("%s: --shard: %w", cmd, err)
		}
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
	fmt.Fprintf(e.stderr, "%d seed positions (>= %d games, <= %d moves), %d in the book already at %d positions\n",
		len(seeds), *f.minGames, *f.seedPlies, countIn(b, seeds), b.Len())

	ctx, cancel := interruptible(*f.timeLimit)
	defer cancel()
	cpu0, t0 := cpuTime(), time.Now()
	lastReport := time.Now()
	st, err := b.Grow(ctx, v, book.GrowOptions{
		Seeds: seeds, Window: *f.window, PathWindow: *f.pathWindow, MaxPly: *f.maxPly,
		Positions: *f.positions, Shard: shard,
		Checkpoint:      func(b *book.Book) error { return saveBook(b, *f.path) },
		CheckpointEvery: *f.checkpoint,
		Progress: func(st book.GrowStats) {
			if time.Since(lastReport) < 10*time.Second {
				return
			}
			lastReport = time.Now()
			fmt.Fprintf(e.stderr, "%d positions added (%d seeds), %d searches, %.0f CPU s, %s\n",
				st.Added, st.SeedsAdded, st.Searches, cpuTime()-cpu0, time.Since(t0).Round(time.Second))
		},
	})
	cpu := cpuTime() - cpu0
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	addInfo(b, fmt.Sprintf("%s grow: %s; seeds %s (>= %d games, <= %d moves); window %d, path window %d, max ply %d; shard %q: +%d positions, %d searches, %.0f CPU s (%s)",
		time.Now().UTC().Format("2006-01-02"), desc, seedDesc, *f.minGames, *f.seedPlies, *f.window, *f.pathWindow, *f.maxPly, *f.shard,
		st.Added, st.Searches, cpu, version()))
	if err := saveBook(b, *f.path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	per := 0.0
	if st.Added > 0 {
		per = cpu / float64(st.Added)
	}
	fmt.Fprintf(e.stdout, "added %d positions (%d seeds) with %d searches in %.1f CPU s (%.2f s a position, %s wall); stopped: %s; %s has %d positions\n%s\n",
		st.Added, st.SeedsAdded, st.Searches, cpu, per, time.Since(t0).Round(time.Second), st.Stopped, *f.path, b.Len(), bench.CPULine())
	return nil
}

// growSeeds returns the positions book grow starts from, in order: the
// lines asked for (--line), each position in the order played, then the
// positions of WTHOR games (--wthor) and XOT openings (--xot) that at
// least --min-games reach within --seed-plies moves; and how to describe
// them in the book's history.
func (f bookFlags) growSeeds(e *env, cmd string) (seeds []book.Seed, desc string, err error) {
	sc := book.NewSeedCounter(*f.seedPlies)
	desc = "no seeds"
	if *f.wthor != "" {
		st, err := sc.AddWTHOR(*f.wthor)
		if err != nil {
			return nil, "", fmt.Errorf("%s: --wthor: %w", cmd, err)
		}
		for _, p := range st.Problems {
			if errors.Is(p, wthor.ErrTruncated) {
				fmt.Fprintln(e.stderr, "note:", p) // its whole games are used
				continue
			}
			fmt.Fprintln(e.stderr, "skipped:", p)
		}
		desc = fmt.Sprintf("%d WTHOR games", st.Games)
		fmt.Fprintf(e.stderr, "read %d WTHOR files: %d games, %d skipped\n", st.Files, st.Games, st.Skipped)
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
		lc := book.NewSeedCounter(60)
		ms, err := bitboard.ParseMoves(l)
		if err == nil {
			err = lc.AddLine(ms)
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s: --line %s: %w", cmd, l, err)
		}
		seeds = append(seeds, lc.Seeds(1)...)
	}
	seeds = append(seeds, sc.Seeds(*f.minGames)...)
	return seeds, desc, nil
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

func bookLearn(e *env, f bookFlags, files []string) error {
	const cmd = "book learn"
	if len(files) == 0 {
		return fmt.Errorf("%s: no game file given", cmd)
	}
	b, err := f.growBook(cmd)
	if err != nil {
		return err
	}
	v, desc, err := f.valuer(cmd)
	if err != nil {
		return err
	}
	ctx, cancel := interruptible(*f.timeLimit)
	defer cancel()
	cpu0 := cpuTime()
	games, added, searches := 0, 0, 0
	for _, name := range files {
		gs, err := readGGFFile(name)
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		for _, g := range gs {
			moves := make([]bitboard.Square, len(g.Moves))
			for i, m := range g.Moves {
				moves[i] = m.Square
			}
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
	cpu := cpuTime() - cpu0
	addInfo(b, fmt.Sprintf("%s learn: %s; %d games from %s: +%d positions, %d searches, %.0f CPU s (%s)",
		time.Now().UTC().Format("2006-01-02"), desc, games, strings.Join(files, " "), added, searches, cpu, version()))
	if err := saveBook(b, *f.path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.stdout, "learnt %d games: added %d positions with %d searches in %.1f CPU s; %s has %d positions\n",
		games, added, searches, cpu, *f.path, b.Len())
	return nil
}

// readGGFFile reads the game records of a file, e.g. "outflank match
// --games-out" (one a line); errors name the file and the record.
func readGGFFile(name string) ([]*bitboard.Game, error) {
	data, err := os.ReadFile(name)
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

func bookRevalue(e *env, f bookFlags) error {
	const cmd = "book revalue"
	if *f.path == "" {
		return fmt.Errorf("%s: --book FILE is required", cmd)
	}
	b, err := book.Load(*f.path)
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	if err := f.setParity(cmd, b, false); err != nil {
		return err
	}
	v, desc, err := f.valuer(cmd)
	if err != nil {
		return err
	}
	ctx, cancel := interruptible(*f.timeLimit)
	defer cancel()
	cpu0, last := cpuTime(), time.Now()
	opt := book.RevalueOptions{MinDepth: *f.depth}
	if f.fs.Changed("max-ply") {
		if *f.maxPly < 1 || *f.maxPly > 60 {
			return fmt.Errorf("%s: --max-ply %d: want 1 to 60", cmd, *f.maxPly)
		}
		opt.MaxPly = *f.maxPly
	}
	st, err := b.Revalue(ctx, v, opt, func(b *book.Book) error {
		if time.Since(last) < *f.checkpoint {
			return nil
		}
		last = time.Now()
		return saveBook(b, *f.path)
	})
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	cpu := cpuTime() - cpu0
	addInfo(b, fmt.Sprintf("%s revalue: %s: %d positions, %d searches, %.0f CPU s (%s)",
		time.Now().UTC().Format("2006-01-02"), desc, st.Positions, st.Searches, cpu, version()))
	if err := saveBook(b, *f.path); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.stdout, "revalued %d positions with %d searches in %.1f CPU s%s\n", st.Positions, st.Searches, cpu,
		map[bool]string{true: " (stopped: run again to resume)", false: ""}[ctx.Err() != nil])
	return nil
}

// readBook loads --book FILE or the built-in book.
func (f bookFlags) readBook(cmd string) (*book.Book, error) {
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

func bookShow(e *env, f bookFlags) error {
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
	fmt.Fprint(e.stdout, pos.Picture(pos.Moves()))
	ms := b.Moves(pos)
	if len(ms) == 0 {
		fmt.Fprintln(e.stdout, "out of book")
		return nil
	}
	fmt.Fprintf(e.stdout, "%s to move; values are final disc differences for %s.\n", capitalize(pos.ToMove.String()), pos.ToMove)
	fmt.Fprintf(e.stdout, "%-5s %6s %9s  %s\n", "move", "value", "depth", "")
	for _, m := range ms {
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
		fmt.Fprintf(e.stdout, "%-5s %+6d %5d@%d%%  %s\n", m.Square, m.Value, m.Depth, m.Selectivity, note)
	}
	return nil
}

func bookInfo(e *env, f bookFlags) error {
	b, err := f.readBook("book info")
	if err != nil {
		return err
	}
	st := b.Stats()
	fmt.Fprintf(e.stdout, "%d positions (%d to %d discs), %d moves: %d leaves (valued by their own search; %d of them by the shallow screen only), %d exact\n",
		st.Positions, st.MinDiscs, st.MaxDiscs, st.Moves, st.Leaves, st.Screened, st.Exact)
	fmt.Fprintf(e.stdout, "leaf moves by depth:%s\n", histogram(st.Depths, ""))
	fmt.Fprintf(e.stdout, "leaf moves by selectivity:%s\n", histogram(st.Selectivities, "%"))
	fmt.Fprintf(e.stdout, "parity offset of the negamax: %d discs\n", b.ParityOffset())
	if b.Info != "" {
		fmt.Fprintf(e.stdout, "built:\n  %s\n", strings.ReplaceAll(fileNames(b.Info), "\n", "\n  "))
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
	fmt.Fprintf(e.stdout, "coverage of the positions of the first 24 moves of %d WTHOR games (a position counts once per game):\n", ws.Games)
	for _, c := range sc.Coverage(b, []int{10000, 1000, 300, 100, 30, 10}) {
		fmt.Fprintf(e.stdout, "  reached by >= %5d games: %6d positions, %6d in the book (%.1f%%)\n",
			c.Games, c.Positions, c.InBook, 100*float64(c.InBook)/float64(max(1, c.Positions)))
	}
	return nil
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

func bookExport(e *env, f bookFlags) error {
	const cmd = "book export"
	if *f.out == "" {
		return fmt.Errorf("%s: --out FILE is required", cmd)
	}
	b, err := f.readBook(cmd)
	if err != nil {
		return err
	}
	if !*f.text {
		if *f.out == "-" {
			return errors.New("book export: a book file cannot go to standard output; use --text")
		}
		if err := saveBook(b, *f.out); err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		fmt.Fprintf(e.stdout, "wrote the book (%d positions) to %s\n", b.Len(), *f.out)
		return nil
	}
	if *f.out == "-" {
		err = b.Export(e.stdout)
	} else {
		err = atomicfile.Write(*f.out, b.Export)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	return nil
}

// saveBook writes b to path as a whole: a kill leaves the old book or the
// new one, never part of it. Its history keeps bare file names only
// (fileNames), whatever the lines it was given or read from an older book.
func saveBook(b *book.Book, path string) error {
	b.Info = fileNames(b.Info)
	return atomicfile.Write(path, b.Write)
}

func bookImport(e *env, f bookFlags) error {
	const cmd = "book import"
	if *f.in == "" || *f.out == "" {
		return fmt.Errorf("%s: --in TEXT and --out FILE are required", cmd)
	}
	file, err := os.Open(*f.in)
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
	if err := saveBook(b, *f.out); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.stdout, "imported %d positions into %s\n", b.Len(), *f.out)
	return nil
}

func bookMerge(e *env, f bookFlags, files []string) error {
	const cmd = "book merge"
	if *f.out == "" || len(files) == 0 {
		return fmt.Errorf("%s: --out FILE and at least one book are required", cmd)
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
				addInfo(out, line)
			}
		}
	}
	if err := f.setParity(cmd, out, false); err != nil {
		return err
	}
	addInfo(out, fmt.Sprintf("%s merge of %s (%s)", time.Now().UTC().Format("2006-01-02"), strings.Join(files, " "), version()))
	if err := saveBook(out, *f.out); err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	fmt.Fprintf(e.stdout, "merged %d books: %d positions in %s\n", len(files), out.Len(), *f.out)
	return nil
}

// capitalize writes s with its first letter in upper case ("Black").
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
