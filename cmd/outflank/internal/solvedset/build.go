package solvedset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// BuildConfig is a build job: the positions of the pick whose id is in
// Shard, solved one after another into Out.
type BuildConfig struct {
	Games  []string // self-play files, read in this order
	Seed   uint64
	Counts Counts
	Shard  [2]int // K, N
	Out    string
	From   []string // sets of the same pick solved before: their positions are taken, not solved again
	HashMB int
	Log    io.Writer // a line per position solved
}

// readGames reads the self-play files. A file without its end record (a
// run stopped or still going) gives the games it has: the header line
// records how many were read, so a set built from a file that grew since
// does not pass for the same set.
func readGames(paths []string) ([]selfplay.Game, string, error) {
	var all []selfplay.Game
	var names []string
	for _, p := range paths {
		_, games, err := selfplay.ReadFile(p)
		if err != nil && !errors.Is(err, selfplay.ErrUnfinished) {
			return nil, "", err
		}
		all = append(all, games...)
		names = append(names, fmt.Sprintf("%s (%d games)", filepath.Base(p), len(games)))
	}
	return all, strings.Join(names, ", "), nil
}

// BuildSet solves the shard's positions that Out does not hold yet, writing
// Out whole after each one (atomically: a kill at any moment leaves the
// positions solved so far), so that the same command resumes a stopped
// job. An Out of another pick or shard is an error, never overwritten.
func BuildSet(ctx context.Context, cfg BuildConfig) error {
	games, names, err := readGames(cfg.Games)
	if err != nil {
		return err
	}
	h := Header{Games: names, Seed: cfg.Seed, Counts: cfg.Counts, Shard: cfg.Shard}
	set := &Set{Header: h}
	if old, err := readSetFile(cfg.Out); err == nil {
		// Larger counts grow a set: its positions are part of the larger
		// pick (see pick).
		grown := old.Header
		if old.Header.Counts.within(h.Counts) {
			grown.Counts = h.Counts
		}
		if d := headerDiff(grown, h); d != "" {
			return fmt.Errorf("%s holds another set (%s): give another file to start a new set", cfg.Out, d)
		}
		set.Entries = old.Entries
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	done := map[int]bool{}
	for _, e := range set.Entries {
		done[e.ID] = true
	}
	all := pick(games, cfg.Seed, cfg.Counts)
	from, err := solvedBefore(cfg.From, h)
	if err != nil {
		return err
	}
	shardOf := shards(cfg.Counts, cfg.Shard[1])
	var todo []picked
	mine, taken := 0, 0
	for _, p := range all {
		if shardOf[p.id] != cfg.Shard[0] {
			continue
		}
		mine++
		if done[p.id] {
			continue
		}
		if e, ok := from[p.id]; ok {
			if e.Pos != p.pos || e.Game != p.game || e.Ply != p.ply {
				return fmt.Errorf("id %d: the position of the other sets is not the one picked here", p.id)
			}
			set.Entries = append(set.Entries, e)
			done[p.id] = true
			taken++
			continue
		}
		todo = append(todo, p)
	}
	if taken > 0 {
		slices.SortFunc(set.Entries, func(a, b Entry) int { return a.ID - b.ID })
		if err := atomicfile.Write(cfg.Out, set.Write); err != nil {
			return err
		}
		fmt.Fprintf(cfg.Log, "solvedset: %d positions taken from %s\n", taken, strings.Join(cfg.From, ", "))
	}
	if len(all) < cfg.Counts.Total() {
		fmt.Fprintf(cfg.Log, "solvedset: the games hold %d of the %d positions asked for\n", len(all), cfg.Counts.Total())
	}
	fmt.Fprintf(cfg.Log, "solvedset: shard %d/%d: %d positions, %d solved before, %d to solve\n", cfg.Shard[0], cfg.Shard[1], mine, mine-len(todo), len(todo))
	// Fewest empties first: a solve's cost grows about twofold an empty, so
	// in id order one dear position held back every cheap one behind it (a
	// position at 32 empties kept its shard 52 minutes from the 90 after
	// it), and a stopped build keeps the most positions for its time.
	slices.SortStableFunc(todo, func(a, b picked) int { return a.pos.Empties() - b.pos.Empties() })
	eng := search.New(search.Options{HashMB: cfg.HashMB, Eval: eval.Default(), Threads: 1})
	var cpu float64
	for k, p := range todo {
		e, err := solveEntry(ctx, eng, p)
		if err != nil {
			return err
		}
		cpu += e.CPU
		set.Entries = append(set.Entries, e)
		slices.SortFunc(set.Entries, func(a, b Entry) int { return a.ID - b.ID })
		if err := atomicfile.Write(cfg.Out, set.Write); err != nil {
			return err
		}
		fmt.Fprintf(cfg.Log, "solvedset: %d/%d: id %d, %d empties: %+d, %d of %d moves optimal, %d nodes, %.1f CPU s (%.0f s this run)\n",
			mine-len(todo)+k+1, mine, e.ID, e.Pos.Empties(), e.Best, len(e.Optimal), bitboard.Count(e.Pos.Moves()), e.Nodes, e.CPU, cpu)
	}
	if len(todo) == 0 {
		// Nothing to solve, but the file says what the shard is (and the
		// counts it has grown to).
		return atomicfile.Write(cfg.Out, set.Write)
	}
	return nil
}

// solvedBefore reads the sets of --from: positions of the same games and
// seed solved by other jobs (a sample, shards of another split), by id.
func solvedBefore(names []string, h Header) (map[int]Entry, error) {
	out := map[int]Entry{}
	for _, name := range names {
		s, err := readSetFile(name)
		if err != nil {
			return nil, err
		}
		if s.Header.Games != h.Games || s.Header.Seed != h.Seed {
			return nil, fmt.Errorf("%s: another pick (games %q, seed %d), not games %q, seed %d", name, s.Header.Games, s.Header.Seed, h.Games, h.Seed)
		}
		for _, e := range s.Entries {
			out[e.ID] = e
		}
	}
	return out, nil
}

// solveEntry solves p exactly: the best score, then each other move only
// far enough to tell whether it reaches the best score (MultiPVMargin 1:
// a window just below the best so far, so a worse move fails low at once
// with a bound). On this machine that costs 1.0-1.3 times the plain solve
// and a quarter to a half of every move's exact score (README.md).
func solveEntry(ctx context.Context, eng *search.Engine, p picked) (Entry, error) {
	eng.Clear()
	c0 := cli.CPUTime()
	info := eng.Search(ctx, p.pos, search.Limits{EndgameEmpties: search.AlwaysSolve, MultiPV: 64, MultiPVMargin: 1}, nil)
	c1 := cli.CPUTime()
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	if !info.Exact || len(info.Moves) != bitboard.Count(p.pos.Moves()) {
		return Entry{}, fmt.Errorf("id %d: the solve did not finish (exact %v, %d of %d moves)", p.id, info.Exact, len(info.Moves), bitboard.Count(p.pos.Moves()))
	}
	e := Entry{ID: p.id, Pos: p.pos, Best: info.Score, Game: p.game, Ply: p.ply, Nodes: info.Nodes, CPU: c1 - c0}
	for _, ms := range info.Moves {
		if ms.Score == info.Score {
			e.Optimal = append(e.Optimal, ms.Move)
		}
	}
	slices.Sort(e.Optimal)
	return e, nil
}

// readSetFile reads a set file by name.
func readSetFile(name string) (*Set, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := ReadSet(f)
	if err != nil {
		return nil, bitboard.InFile(name, err)
	}
	return s, nil
}

// headerDiff names the first field where a and b differ, "" if none.
func headerDiff(a, b Header) string {
	switch {
	case a.Games != b.Games:
		return fmt.Sprintf("games %q, not %q", a.Games, b.Games)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seed %d, not %d", a.Seed, b.Seed)
	case a.Counts != b.Counts:
		return fmt.Sprintf("counts %s, not %s", a.Counts, b.Counts)
	case a.Shard != b.Shard:
		return fmt.Sprintf("shard %d/%d, not %d/%d", a.Shard[0], a.Shard[1], b.Shard[0], b.Shard[1])
	}
	return ""
}

// MergeSets joins the shards of one set into out: the shards' position lines
// as they are, in id order, under the header of shard 1/1, so that the
// merge of a whole job is the file one unsharded job writes (up to the
// CPU seconds each position took). It names the ids missing, if any.
func MergeSets(out string, in []string, log io.Writer) error {
	var merged *Set
	owner := map[int]string{}
	given := map[int]bool{}
	n := 0
	for _, name := range in {
		s, err := readSetFile(name)
		if err != nil {
			return err
		}
		if merged == nil {
			merged = &Set{Header: s.Header}
			merged.Header.Shard = [2]int{1, 1}
			n = s.Header.Shard[1]
		}
		h := s.Header
		h.Shard = [2]int{1, 1}
		if d := headerDiff(merged.Header, h); d != "" {
			return fmt.Errorf("%s: another set than %s (%s)", name, in[0], d)
		}
		if s.Header.Shard[1] != n {
			return fmt.Errorf("%s: shard %d/%d of a job of %d shards, not %d", name, s.Header.Shard[0], s.Header.Shard[1], s.Header.Shard[1], n)
		}
		if given[s.Header.Shard[0]] {
			return fmt.Errorf("%s: shard %d/%d given twice", name, s.Header.Shard[0], n)
		}
		given[s.Header.Shard[0]] = true
		shardOf := shards(s.Header.Counts, n)
		for _, e := range s.Entries {
			if shardOf[e.ID] != s.Header.Shard[0] {
				return fmt.Errorf("%s: id %d is not in shard %d/%d", name, e.ID, s.Header.Shard[0], n)
			}
			if o, dup := owner[e.ID]; dup {
				return fmt.Errorf("%s: id %d is also in %s", name, e.ID, o)
			}
			owner[e.ID] = name
			merged.Entries = append(merged.Entries, e)
		}
	}
	if merged == nil {
		return fmt.Errorf("merge: no input files")
	}
	slices.SortFunc(merged.Entries, func(a, b Entry) int { return a.ID - b.ID })
	var buf bytes.Buffer
	if err := merged.Write(&buf); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(out, buf.Bytes()); err != nil {
		return err
	}
	var missing []int
	for n, c := range merged.Header.Counts {
		for r := range c {
			if id := idOf(n, r); owner[id] == "" {
				missing = append(missing, id)
			}
		}
	}
	slices.Sort(missing)
	fmt.Fprintf(log, "solvedset merge: %s: %d positions from %d of %d shards\n", out, len(merged.Entries), len(given), n)
	if len(missing) > 0 {
		fmt.Fprintf(log, "solvedset merge: %d positions missing (unfinished shards, or the games held fewer): ids %s\n", len(missing), idList(missing))
	}
	return nil
}

// idList writes ids, eliding all but the first few.
func idList(ids []int) string {
	var parts []string
	for i, id := range ids {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(ids)-10))
			break
		}
		parts = append(parts, fmt.Sprint(id))
	}
	return strings.Join(parts, " ")
}
