package selfplay

import (
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"math"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// Engine is what the generator needs of a search engine. The command
// implements it with package search; tests may use anything. An Engine is
// used by one goroutine; each worker gets its own.
type Engine interface {
	// NewGame forgets what earlier games taught (a transposition table), so
	// that each game depends only on its own seed.
	NewGame()
	// Scores returns every legal move of pos with its score for the side to
	// move from the engine's cheap midgame search, in a deterministic order.
	Scores(ctx context.Context, pos bitboard.Position) ([]bitboard.MoveScore, error)
	// Solve returns pos's exact value for the side to move (final disc
	// difference, empties to the winner) and a move that achieves it.
	Solve(ctx context.Context, pos bitboard.Position) (best bitboard.Square, score int, err error)
}

// Config describes a generation run.
type Config struct {
	Seed          uint64
	First, Count  uint64 // the job's games: indices [First, First+Count)
	Shard, Shards int    // this run's part: indices i with i % Shards == Shard-1

	// Openings are move lists from Start (e.g. the XOT list); each game
	// starts with one, picked by its seed. None: the standard start.
	Openings     [][]bitboard.Square
	OpeningsName string // for the params, e.g. "xot"
	Start        bitboard.Position

	RandomMoves  int     // after the opening, 0..RandomMoves uniformly random moves (uniform count)
	Temperature  float64 // softmax temperature over the midgame move scores, in discs (0: always the best)
	SolveEmpties int     // from this many empties on, the solver plays
	Level        string  // the engine's midgame level and evaluation, for the params

	Block     int // games per block (a checkpoint); 0: 8
	Workers   int // goroutines, each with an engine from NewEngine; 0: 1
	NewEngine func() Engine

	// Progress, if set, is called after each block is written.
	Progress func(Progress)
}

// Progress reports a run's state.
type Progress struct {
	Done, Total uint64 // games in the file, games of the run's set
	Positions   uint64 // positions in the file: one a move, each labelled with its game's score
	Resumed     uint64 // games that were already in the file at start
	Elapsed     time.Duration
	Note        string // e.g. that a torn last block was dropped
}

// Header returns the header of the file the run writes.
func (c Config) Header() Header {
	return Header{Seed: c.Seed, First: c.First, Count: c.Count, Shard: c.Shard, Shards: c.Shards, Params: c.params()}
}

// params records every setting that decides the games.
func (c Config) params() string {
	open := "start"
	if len(c.Openings) > 0 {
		h := crc32.New(castagnoli)
		for _, o := range c.Openings {
			for _, m := range o {
				h.Write([]byte{byte(m)})
			}
			h.Write([]byte{255})
		}
		open = fmt.Sprintf("%s:%d:%08x", c.OpeningsName, len(c.Openings), h.Sum32())
	}
	start := ""
	if c.Start != bitboard.Start() && c.Start != (bitboard.Position{}) {
		start = c.Start.String()
	}
	return Params("openings", open, "start", strconv.Quote(start), "random", strconv.Itoa(c.RandomMoves),
		"temperature", strconv.FormatFloat(c.Temperature, 'g', -1, 64), "solve", strconv.Itoa(c.SolveEmpties),
		"level", strconv.Quote(c.Level))
}

func (c *Config) check() error {
	if c.Shards == 0 {
		c.Shard, c.Shards = 1, 1
	}
	if c.Start == (bitboard.Position{}) {
		c.Start = bitboard.Start()
	}
	if c.Block <= 0 {
		c.Block = 8
	}
	if c.Workers <= 0 {
		c.Workers = 1
	}
	switch {
	case c.Shards < 1 || c.Shard < 1 || c.Shard > c.Shards:
		return fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N", c.Shard, c.Shards)
	case c.SolveEmpties < 0 || c.SolveEmpties > 60:
		return fmt.Errorf("solve empties %d: want 0 to 60", c.SolveEmpties)
	case c.RandomMoves < 0 || c.RandomMoves > 60:
		return fmt.Errorf("random moves %d: want 0 to 60", c.RandomMoves)
	case c.Temperature < 0 || c.Temperature > 64 || math.IsNaN(c.Temperature):
		return fmt.Errorf("temperature %g: want 0 to 64 discs", c.Temperature)
	case c.NewEngine == nil:
		return errors.New("no engine")
	}
	for i, o := range c.Openings {
		if _, pos, err := bitboard.Replay(c.Start, o); err != nil {
			return fmt.Errorf("opening %d: %w", i+1, err)
		} else if pos[len(pos)-1].GameOver() {
			return fmt.Errorf("opening %d: the game is over", i+1)
		}
	}
	return c.Header().check()
}

// weights returns the softmax weight, in units of 2^-20, of a move d discs
// below the best. The table is rounded to integers once, so that the choice
// does not depend on the last bit of math.Exp on one machine or another.
func (c Config) weights() []uint64 {
	w := make([]uint64, 129)
	for d := range w {
		if c.Temperature == 0 {
			if d == 0 {
				w[d] = 1 << 20
			}
			continue
		}
		w[d] = uint64(math.Round(math.Exp(-float64(d)/c.Temperature) * (1 << 20)))
	}
	return w
}

// Reach is how far below the best score, in discs, a move can still be
// chosen: every move further below has softmax weight 0. An engine may
// give such moves any score at most best-Reach-1 (an upper bound) without
// changing a choice.
func (c Config) Reach() int {
	w := c.weights()
	for d := len(w) - 1; d > 0; d-- {
		if w[d] != 0 {
			return d
		}
	}
	return 0
}

// Run plays the games of cfg's set that path does not hold yet and appends
// them to path, one block per cfg.Block games in index order, then writes
// the end record. A file from an earlier run of the same configuration is
// continued (a torn last block, from a process killed while writing, is
// dropped with a note); a file of another configuration is an error. When
// ctx is cancelled Run writes the games finished so far in order and
// returns ctx's error; running it again continues.
func Run(ctx context.Context, cfg Config, path string) (Progress, error) {
	if err := cfg.check(); err != nil {
		return Progress{}, err
	}
	h := cfg.Header()
	f, w, next, complete, note, err := openRun(path, h)
	if err != nil {
		return Progress{}, err
	}
	defer f.Close()
	prog := Progress{Done: w.games, Total: h.Size(), Resumed: w.games, Positions: w.moves, Note: note}
	if complete {
		return prog, nil
	}
	start := time.Now()
	// A run writes its games in index order, so what a file holds is always
	// the first games of its set: the rest are those from next on.
	err = play(ctx, cfg, h.Indices(next), h.Size()-w.games, func(block []Game) error {
		if err := w.WriteBlock(block); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		prog.Done += uint64(len(block))
		prog.Positions = w.moves
		prog.Elapsed = time.Since(start)
		if cfg.Progress != nil {
			cfg.Progress(prog)
			prog.Note = ""
		}
		return nil
	})
	prog.Elapsed = time.Since(start)
	if err != nil {
		return prog, err
	}
	if err := w.Finish(); err != nil {
		return prog, err
	}
	return prog, f.Sync()
}

// openRun opens path for a run writing header h: a new file, or an earlier
// run's, checked and positioned after its last sound block. next is the
// first index the file lacks; complete says it has its end record.
func openRun(path string, h Header) (f *os.File, w *Writer, next uint64, complete bool, note string, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, 0, false, "", err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	if err := lock(f); err != nil {
		return nil, nil, 0, false, "", err
	}
	st, err := f.Stat()
	if err != nil {
		return nil, nil, 0, false, "", err
	}
	if st.Size() == 0 {
		w, err = NewWriter(f, h)
		return f, w, 0, false, "", err
	}
	rd, err := NewReader(f)
	if err != nil {
		return nil, nil, 0, false, "", fmt.Errorf("%s: cannot continue it: %w", path, err)
	}
	if d := rd.Header.Diff(h); d != "" {
		return nil, nil, 0, false, "", fmt.Errorf("%s was written by another run (%s); give another file or the same settings", path, d)
	}
	var moves uint64
	for {
		g, err := rd.Next()
		if err == nil {
			moves += uint64(len(g.Moves))
		}
		if err == io.EOF {
			return f, &Writer{w: f, games: rd.games, blocks: rd.blocks, moves: moves}, 0, true, "", nil
		}
		if errors.Is(err, ErrUnfinished) {
			break
		}
		if err != nil {
			if !rd.torn {
				return nil, nil, 0, false, "", fmt.Errorf("%s: cannot continue it: %w", path, err)
			}
			note = fmt.Sprintf("dropped a torn last block (%d bytes at byte %d: %v)", st.Size()-rd.good, rd.good, err)
			break
		}
	}
	if rd.games > 0 {
		next = rd.last + 1
	}
	// The games read must be the first of the set (see Run).
	if n := sizeBelow(h, next); n != rd.games {
		return nil, nil, 0, false, "", fmt.Errorf("%s: holds %d games below index %d where its set has %d; it was not written by a run", path, rd.games, next, n)
	}
	// Drop whatever follows the last sound block and append after it.
	if err := f.Truncate(rd.good); err != nil {
		return nil, nil, 0, false, "", err
	}
	if _, err := f.Seek(rd.good, io.SeekStart); err != nil {
		return nil, nil, 0, false, "", err
	}
	return f, &Writer{w: f, games: rd.games, blocks: rd.blocks, moves: moves}, next, false, note, nil
}

// sizeBelow counts the indices of h's set below i.
func sizeBelow(h Header, i uint64) uint64 {
	c := h
	c.Count = min(h.Count, max(i, h.First)-h.First)
	return c.Size()
}

// play plays the n games of todo on cfg.Workers goroutines and hands them
// to write in todo's order, cfg.Block at a time (fewer at the end, or when
// ctx is cancelled: then the games finished in order so far).
func play(ctx context.Context, cfg Config, todo iter.Seq[uint64], n uint64, write func([]Game) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct {
		seq   uint64
		index uint64
	}
	type result struct {
		job
		g   Game
		err error
	}
	jobs := make(chan job)
	results := make(chan result)
	var wg sync.WaitGroup
	weights := cfg.weights()
	for range min(uint64(cfg.Workers), max(1, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := cfg.NewEngine()
			for j := range jobs {
				g, err := playGame(ctx, cfg, weights, eng, j.index)
				select {
				case results <- result{j, g, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		seq := uint64(0)
		for i := range todo {
			if seq == n {
				return
			}
			select {
			case jobs <- job{seq, i}:
				seq++
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	done := map[uint64]Game{}
	next := uint64(0)
	var block []Game
	var firstErr error
	for r := range results {
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
				if ctx.Err() == nil {
					firstErr = fmt.Errorf("game %d: %w", r.index, r.err)
				}
			}
			cancel()
			continue
		}
		done[r.seq] = r.g
		for {
			g, ok := done[next]
			if !ok {
				break
			}
			delete(done, next)
			next++
			block = append(block, g)
			if len(block) == cfg.Block || next == n {
				if err := write(block); err != nil {
					cancel()
					for range results {
					}
					return err
				}
				block = block[:0]
			}
		}
	}
	if len(block) > 0 {
		if err := write(block); err != nil {
			return err
		}
	}
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// playGame plays game index: an opening from the list, up to RandomMoves
// random moves, midgame moves drawn by softmax over the engine's scores, and
// perfect play by the solver from SolveEmpties empties on.
func playGame(ctx context.Context, cfg Config, weights []uint64, eng Engine, index uint64) (Game, error) {
	rng := newRand(cfg.Seed, index)
	eng.NewGame()
	g := Game{Index: index, Start: cfg.Start}
	pos := cfg.Start
	play := func(m bitboard.Square) {
		pos = pos.Play(m)
		g.Moves = append(g.Moves, m)
		if pos.MustPass() && !pos.GameOver() {
			pos = pos.Pass()
		}
	}
	if len(cfg.Openings) > 0 {
		for _, m := range cfg.Openings[rng.intn(uint64(len(cfg.Openings)))] {
			if m != bitboard.PassMove {
				play(m)
			}
		}
		g.Opening = len(g.Moves)
	}
	for n := rng.intn(uint64(cfg.RandomMoves) + 1); n > 0 && !pos.GameOver() && pos.Empties() > cfg.SolveEmpties; n-- {
		moves := pos.Moves()
		k := rng.intn(uint64(bitboard.Count(moves)))
		for ; k > 0; k-- {
			moves &= moves - 1
		}
		play(bitboard.FirstSquare(moves))
		g.Random++
	}
	for !pos.GameOver() && pos.Empties() > cfg.SolveEmpties {
		scores, err := eng.Scores(ctx, pos)
		if err != nil {
			return g, err
		}
		m, err := choose(pos, scores, weights, rng)
		if err != nil {
			return g, fmt.Errorf("after %s: %w", bitboard.Transcript(g.Moves), err)
		}
		g.Evals = append(g.Evals, moveEval(scores, m))
		play(m)
	}
	g.Solved = len(g.Moves)
	if err := finish(ctx, eng, &g, pos); err != nil {
		return g, err
	}
	return g, nil
}

// choose draws a move with probability proportional to weights[best-score].
func choose(pos bitboard.Position, scores []bitboard.MoveScore, weights []uint64, rng *splitMix) (bitboard.Square, error) {
	legal := pos.Moves()
	if len(scores) != bitboard.Count(legal) {
		return 0, fmt.Errorf("engine scored %d moves of %d", len(scores), bitboard.Count(legal))
	}
	best := scores[0].Score
	for _, s := range scores {
		if s.Move < 0 || s.Move > 63 || legal&s.Move.Bit() == 0 {
			return 0, fmt.Errorf("engine scored move %s, not legal", s.Move)
		}
		legal &^= s.Move.Bit() // each once
		best = max(best, s.Score)
	}
	var sum uint64
	for _, s := range scores {
		sum += weights[min(best-s.Score, len(weights)-1)]
	}
	r := rng.intn(sum)
	for _, s := range scores {
		w := weights[min(best-s.Score, len(weights)-1)]
		if r < w {
			return s.Move, nil
		}
		r -= w
	}
	panic("unreachable: r < sum")
}

// moveEval returns the best score of scores and that of the move played,
// clamped to the disc range (a midgame score may stray past it).
func moveEval(scores []bitboard.MoveScore, played bitboard.Square) MoveEval {
	best, got := -64, -64
	for _, s := range scores {
		v := max(-64, min(64, s.Score))
		best = max(best, v)
		if s.Move == played {
			got = v
		}
	}
	return MoveEval{Best: int8(best), Played: int8(got)}
}

// finish plays pos to the end with the solver, checking that every solve
// agrees with the first: the final score then is the exact value of the
// position at the solve point.
func finish(ctx context.Context, eng Engine, g *Game, pos bitboard.Position) error {
	value, first := 0, true // black's exact final score
	for !pos.GameOver() {
		best, v, err := eng.Solve(ctx, pos)
		if err != nil {
			return err
		}
		if pos.ToMove == bitboard.White {
			v = -v
		}
		if first {
			value, first = v, false
		} else if v != value {
			return fmt.Errorf("solver disagrees with itself after %s: %+d then %+d", bitboard.Transcript(g.Moves), value, v)
		}
		if !pos.IsLegal(best) {
			return fmt.Errorf("solver chose %s, illegal after %s", best, bitboard.Transcript(g.Moves))
		}
		pos = pos.Play(best)
		g.Moves = append(g.Moves, best)
		if pos.MustPass() && !pos.GameOver() {
			pos = pos.Pass()
		}
	}
	g.Score = 2*pos.BlackScoreEmptiesToWinner() - 64
	if !first && g.Score != value {
		return fmt.Errorf("game ends %+d, the solver said %+d", g.Score, value)
	}
	return nil
}

// splitMix is the SplitMix64 generator: written out here (not math/rand) so
// that a seed gives the same games with every Go release.
type splitMix struct{ s uint64 }

// newRand returns the generator of game index of a run seeded with seed.
func newRand(seed, index uint64) *splitMix {
	r := &splitMix{s: seed}
	r.s = r.next() ^ index*0xd1b54a32d192ed03
	r.next()
	return r
}

func (r *splitMix) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a uniform number in [0, n) (n > 0), by rejection so that it
// has no bias.
func (r *splitMix) intn(n uint64) uint64 {
	lim := -n % n // 2^64 mod n
	for {
		if x := r.next(); x >= lim {
			return x % n
		}
	}
}
