package main

import (
	"fmt"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
)

func init() {
	register(&command{
		name:    "book",
		args:    "build|show|export [flags]",
		summary: "Build the opening book from WTHOR games, show its moves for a position, or export it.",
		details: `outflank book build --wthor DIR [--plies 24] [--min-games 3] --out FILE
    reads every .wtb file of DIR and writes a book of the positions of the
    first PLIES moves seen in at least MIN-GAMES games, with the mean
    theoretical score of those games. Bad records are reported and skipped.
outflank book show [--book FILE] [--moves TRANSCRIPT | --board OBF]
    prints the book moves of a position (the start by default), best first.
outflank book export --out FILE
    writes the built-in book to FILE, e.g. to start a book that NBoard's
    "learn" adds games to (outflank nboard --book FILE).`,
		run: runBook,
	})
}

func runBook(e *env, args []string) error {
	c := findCommand("book")
	fs := c.flags(e)
	dir := fs.String("wthor", "", "build: directory of WTHOR .wtb files")
	plies := fs.Int("plies", 24, "build: record positions up to this many moves")
	minGames := fs.Uint32("min-games", 3, "build: keep positions seen in at least this many games")
	out := fs.String("out", "", "build, export: book file to write")
	path := fs.String("book", "", "show: book file (default: the embedded book)")
	line := fs.String("moves", "", "show: moves from the start, e.g. f5d6c3")
	board := fs.String("board", "", "show: a board string (OBF)")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("book: want build, show or export")
	}
	switch fs.Arg(0) {
	case "build":
		if *dir == "" || *out == "" {
			return fmt.Errorf("book build: --wthor DIR and --out FILE are required")
		}
		if *plies < 1 || *plies > 60 {
			return fmt.Errorf("book build: --plies %d is not 1 to 60", *plies)
		}
		b, st, err := book.FromWTHOR(*dir, *plies)
		if err != nil {
			return fmt.Errorf("book build: %w", err)
		}
		for _, p := range st.Problems {
			fmt.Fprintln(e.stderr, "skipped:", p)
		}
		n := b.Len()
		b.Prune(*minGames)
		if err := b.Save(*out); err != nil {
			return fmt.Errorf("book build: %w", err)
		}
		fmt.Fprintf(e.stdout, "%d files, %d games (%d skipped, %d too short for a theoretical score); %d positions, %d kept with >= %d games; wrote %s\n",
			st.Files, st.Games, st.Skipped, st.Short, n, b.Len(), *minGames, *out)
		return nil
	case "export":
		if *out == "" {
			return fmt.Errorf("book export: --out FILE is required")
		}
		b, err := book.Default()
		if err != nil {
			return fmt.Errorf("book export: %w", err)
		}
		if err := b.Save(*out); err != nil {
			return fmt.Errorf("book export: %w", err)
		}
		fmt.Fprintf(e.stdout, "wrote the built-in book (%d positions) to %s\n", b.Len(), *out)
		return nil
	case "show":
		var b *book.Book
		var err error
		if *path != "" {
			b, err = book.Load(*path)
		} else {
			b, err = book.Default()
		}
		if err != nil {
			return fmt.Errorf("book show: %w", err)
		}
		pos := bitboard.Start()
		switch {
		case *board != "" && *line != "":
			return fmt.Errorf("book show: give --moves or --board, not both")
		case *board != "":
			if pos, err = bitboard.ParseBoard(*board); err != nil {
				return fmt.Errorf("book show: --board: %s", strings.TrimPrefix(err.Error(), "board: "))
			}
		case *line != "":
			if pos, err = bitboard.PlayTranscript(pos, *line); err != nil {
				return fmt.Errorf("book show: --moves: %w", err)
			}
		}
		fmt.Fprint(e.stdout, pos.Picture(pos.Moves()))
		cands := b.Moves(pos)
		if len(cands) == 0 {
			fmt.Fprintln(e.stdout, "out of book")
			return nil
		}
		fmt.Fprintf(e.stdout, "%-5s %8s %8s %8s\n", "move", "games", "mean", "rank")
		for _, c := range cands {
			fmt.Fprintf(e.stdout, "%-5s %8d %+8.2f %+8.2f\n", c.Move, c.Games, c.Score, c.Rank)
		}
		return nil
	}
	return fmt.Errorf("book: unknown action %q (want build, show or export)", fs.Arg(0))
}
