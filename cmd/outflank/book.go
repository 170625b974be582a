package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/booktool"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

// bookDetails is the help text of "outflank book".
const bookDetails = `Every book position lists all its legal moves, each valued by a search
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
    --roots FILE (openings, one transcript a line, e.g. bench/open4.txt)
    adds their positions first and grows near-best lines from each as
    from the start: the openings games are started from.
    Stops at --positions or --time (or Ctrl-C), saving FILE every
    --checkpoint; run it again to resume. --shard K/N adds only the
    positions of shard K of N: run N copies of a book, one shard each (a
    batch job array), then "book merge". A shard grows only through the
    positions it holds, so its lines stop at the other shards' positions:
    --peers FILES (the other shards' files) merges them in at every
    checkpoint and when no candidate is left (waiting up to three
    checkpoints for them), so that shards sharing a folder grow on.
outflank book learn --book FILE [search flags] GAMES.ggf...
    adds every position of the games (up to --max-ply) to FILE, valued by
    search (e.g. the --games-out file of "outflank match").
outflank book revalue --book FILE --depth D [--max-ply P] [--window W] [--shard K/N] [search flags] [--time T]
    searches again every leaf move valued below depth D or by another
    evaluation than this run's (new weights or Multi-ProbCut model: the
    book records which valued each move; --any-evaluation: depth only),
    in the positions of the first P moves only if given, shallowest
    first; exact values and moves the screen alone valued stay as they
    are. --window W: only the leaf moves within W discs of their
    position's best (where a deeper value can change the book's choice).
    --shard K/N: only the positions of shard K of N (each shard on its
    own copy of the book, then "book merge", which keeps the deeper
    value of each move). Resumable like grow.
outflank book adopt --book FILE [--eval FILE]
    records the evaluation (the built-in one by default) as the one that
    valued every inexact value of FILE that records none (books written
    before the book recorded it), when you know it did; "book info"
    counts the leaves by evaluation.
outflank book show [--book FILE] [--moves TRANSCRIPT | --board OBF]
    prints the book moves of a position (the start by default), best first,
    with value, depth and selectivity, and how many book positions lie
    behind each.
outflank book info [--book FILE] [--wthor DIR]
    counts positions and moves by depth and selectivity, prints how the
    book was built, and with --wthor how many of the positions that WTHOR
    games reach often are in the book.
outflank book cover [--book FILE] GAMES.ggf...
    follows each game through the book: how many of its moves were chosen
    in book positions, where it left the book, and for each player (PB,
    PW) how many discs below the book's best its moves there were (moves
    with no time, a match's opening, count for neither): what a match of
    the book can measure. E.g. on the --games-out file of a match.
outflank book diff [--book FILE] NEW [GAMES.ggf...]
    compares the book (the built-in one by default) with NEW, another
    version of it (a revalued copy, a merge): how far the values of the
    leaf moves both hold moved, in how many positions the move the book
    plays changed, and with games (a match's --games-out file), in how
    many of the book positions they went through, for each player (PB,
    PW): where a match of NEW could play differently at all.
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
the leaves' parity. A new book gets 3, measured for this engine.`

func init() {
	register(&cli.Command{
		Name:    "book",
		Args:    "grow|learn|revalue|adopt|show|info|cover|diff|export|import|merge [flags]",
		Summary: "Grow the opening book by search, learn games into it, show its values, or convert it.",
		Details: bookDetails,
		Run:     runBook,
	})
}

func runBook(e *cli.Env, args []string) error {
	fs := flagSet(e, "book")
	f := booktool.AddFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return booktool.Run(e, f, fs.Args())
}
