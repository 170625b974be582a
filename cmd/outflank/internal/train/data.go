// Package train fits the weights of the pattern evaluation (eval.Pattern)
// to labelled positions taken from game records: the WTHOR database of
// tournament games and any other games given as move lists.
//
// Labels (see eval/README.md for why):
//   - a position with at least TheoryEmpties empties (24 in WTHOR) gets the
//     game's theoretical score: the exact result of perfect play from the
//     position the game reached at TheoryEmpties empties, for the side to move;
//   - a later position with at most SolveEmpties empties gets its exact score
//     from the solver, in the share SolveShare of the games (chosen from the
//     seed) that the labelling time allows;
//   - any other later position gets the game's final score only if that
//     equals the theoretical score: both players then kept the perfect-play
//     result, so the final score is that of perfect play from the position
//     unless two errors cancelled out. Other games' later positions are left
//     out: only about 13% of WTHOR games end with their theoretical score, and
//     the final score of the others carries endgame errors of 10 discs and
//     more (a first fit on them had a held-out error of 12 discs at 20-23
//     empties, twice that at 24-27).
//
// Positions where the side to move must pass, and finished positions, are
// not used: search never evaluates them.
package train

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/bitboard/wthor"
)

// Sample is one labelled position.
type Sample struct {
	Player, Opponent uint64
	Score            int8  // label: final disc difference for the side to move
	Exact            bool  // the label is an exact perfect-play score
	Game             int32 // index of its game, for the train/held-out split
}

// Empties returns the number of empty squares of the sample's position.
func (s *Sample) Empties() int { return 64 - bitboard.Count(s.Player|s.Opponent) }

// Game is a game record to learn from.
type Game struct {
	Source string            // file and record, for error messages
	Moves  []bitboard.Square // from the standard start; passes may be implied
	// BlackScore is black's final disc count with empties to the winner.
	BlackScore int
	// TheoryScore is black's disc count under perfect play from the position
	// reached with TheoryEmpties empties; TheoryEmpties 0 means unknown (e.g.
	// self-play games, whose labels then come from the solver or the end).
	TheoryScore   int
	TheoryEmpties int
}

// ReadWTHOR reads every .wtb file of dir. Records that cannot be used are
// reported through bad (with file and record number) and skipped: unreadable
// records, and games that stop before the end (their score is an official
// result, not a disc count).
func ReadWTHOR(dir string, bad func(error)) ([]Game, error) {
	files, err := wthor.Files(dir)
	if err != nil {
		return nil, err
	}
	var games []Game
	for _, f := range files {
		h, gs, badRecs, err := wthor.ReadFile(f)
		for _, e := range badRecs {
			bad(e)
		}
		if err != nil {
			bad(err) // a truncated file: its whole records are still used
		}
		for _, g := range gs {
			games = append(games, Game{
				Source:        fmt.Sprintf("%s: record %d", f, g.Record),
				Moves:         g.Moves,
				BlackScore:    g.BlackScore,
				TheoryScore:   g.TheoreticalScore,
				TheoryEmpties: h.TheoryEmpties,
			})
		}
	}
	return games, nil
}

// Labeler options.
type Labeler struct {
	// Solve, if set, returns the exact final disc difference for the side to
	// move; it is used for positions with at most SolveEmpties empties in
	// the share SolveShare of the games picked by Seed. With Workers above
	// 1 it is called from that many goroutines at once.
	Solve        func(player, opponent uint64) int
	SolveEmpties int
	SolveShare   float64
	Seed         uint64
	// Workers is how many games are labelled at once (0 or 1: one). The
	// samples and their order do not depend on it: each game is labelled on
	// its own and the games' samples are joined in game order.
	Workers int
	// Solved, if set, receives every label Solve gave, in game order (the
	// order of the samples): what a solver labels file holds.
	Solved *[]int8
}

// Stats counts what extraction kept and dropped.
type Stats struct {
	Games, BadGames, Unfinished int
	Theory, Final, Solved       int // samples by label source
	PerfectEnd                  int // games whose final score equals the theoretical one
	Dropped                     int // later positions of games with an imperfect end
}

func (s *Stats) add(o Stats) {
	s.Games += o.Games
	s.BadGames += o.BadGames
	s.Unfinished += o.Unfinished
	s.Theory += o.Theory
	s.Final += o.Final
	s.Solved += o.Solved
	s.PerfectEnd += o.PerfectEnd
	s.Dropped += o.Dropped
}

// gameLabels is what labelling one game gives.
type gameLabels struct {
	samples []Sample
	solved  []int8 // the solver's labels, in order
	st      Stats
	err     error // the game was skipped for this (a bad record)
}

// Extract replays games and returns their labelled samples. A game with an
// illegal move or a score that does not match its final position is
// reported through bad and skipped.
func (lb Labeler) Extract(games []Game, bad func(error), progress func(done, total int)) ([]Sample, Stats) {
	res := make([]gameLabels, len(games))
	workers := lb.Workers
	if lb.Solve == nil || workers < 1 {
		workers = 1 // without solving a game takes microseconds
	}
	// The workers take game indexes from a queue and report each game
	// done; the progress callback runs here, on the caller's goroutine.
	next := make(chan int, len(games))
	for gi := range games {
		next <- gi
	}
	close(next)
	done := make(chan struct{}, workers)
	for range workers {
		go func() {
			for gi := range next {
				res[gi] = lb.label(int32(gi), games[gi])
				done <- struct{}{}
			}
		}()
	}
	for finished := 1; finished <= len(games); finished++ {
		<-done
		if progress != nil && finished%1024 == 0 {
			progress(finished, len(games))
		}
	}
	var out []Sample
	var st Stats
	for _, r := range res {
		if r.err != nil {
			bad(r.err)
		}
		out = append(out, r.samples...)
		if lb.Solved != nil {
			*lb.Solved = append(*lb.Solved, r.solved...)
		}
		st.add(r.st)
	}
	if progress != nil {
		progress(len(games), len(games))
	}
	return out, st
}

// label labels the positions of game number gi.
func (lb Labeler) label(gi int32, g Game) gameLabels {
	var r gameLabels
	_, pos, err := bitboard.Replay(bitboard.Start(), g.Moves)
	if err != nil {
		r.err = fmt.Errorf("%s: %w", g.Source, err)
		r.st.BadGames++
		return r
	}
	last := pos[len(pos)-1]
	if !last.GameOver() {
		r.st.Unfinished++
		return r
	}
	if got := last.BlackScoreEmptiesToWinner(); got != g.BlackScore {
		r.err = fmt.Errorf("%s: recorded score %d, but the moves end with %d black discs", g.Source, g.BlackScore, got)
		r.st.BadGames++
		return r
	}
	st := &r.st
	st.Games++
	final := 2*g.BlackScore - 64
	theory := 2*g.TheoryScore - 64
	haveTheory := g.TheoryEmpties > 0
	perfectEnd := !haveTheory || final == theory
	if haveTheory && final == theory {
		st.PerfectEnd++
	}
	solveGame := lb.Solve != nil && Split(lb.Seed^0x5eed, gi, lb.SolveShare)
	for _, p := range pos {
		if p.GameOver() || p.MustPass() {
			continue
		}
		e := p.Empties()
		var black int
		exact := false
		switch {
		case haveTheory && e >= g.TheoryEmpties:
			black, exact = theory, e == g.TheoryEmpties
			st.Theory++
		case solveGame && e <= lb.SolveEmpties:
			s := Sample{Player: p.Player, Opponent: p.Opponent, Score: int8(lb.Solve(p.Player, p.Opponent)), Exact: true, Game: gi}
			r.samples = append(r.samples, s)
			r.solved = append(r.solved, s.Score)
			st.Solved++
			continue
		case perfectEnd:
			// Not marked exact: two errors can cancel out (the
			// tests find it in a few positions).
			black = final
			st.Final++
		default:
			st.Dropped++
			continue
		}
		if p.ToMove == bitboard.White {
			black = -black
		}
		r.samples = append(r.samples, Sample{Player: p.Player, Opponent: p.Opponent, Score: int8(black), Exact: exact, Game: gi})
	}
	return r
}

// samplesFile caches the labelled samples (minutes of solving) for a
// repeated fit: 22-byte samples (player, opponent, score, exact flag, game).
var samplesFile = keyedFile{magic: "OFSM", what: "samples file", size: 22,
	otherKey: "made from other data or labelling options"}

// SaveSamples writes samples to path with key.
func SaveSamples(path, key string, samples []Sample) error {
	le := binary.LittleEndian
	return samplesFile.save(path, key, len(samples), func(b []byte, i int) []byte {
		s := samples[i]
		b = le.AppendUint64(b, s.Player)
		b = le.AppendUint64(b, s.Opponent)
		b = append(b, byte(s.Score))
		var fl byte
		if s.Exact {
			fl = 1
		}
		b = append(b, fl)
		return le.AppendUint32(b, uint32(s.Game))
	})
}

// LoadSamples reads a samples file written with the same key.
func LoadSamples(path, key string) ([]Sample, error) {
	b, n, err := samplesFile.load(path, key)
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	out := make([]Sample, n)
	for i := range out {
		r := b[22*i:]
		out[i] = Sample{Player: le.Uint64(r), Opponent: le.Uint64(r[8:]), Score: int8(r[16]), Exact: r[17] == 1, Game: int32(le.Uint32(r[18:]))}
	}
	return out, nil
}

// solveLabelsFile keeps the solver's labels of a set of games (about 72 CPU
// minutes for WTHOR at 18 empties), one byte each in game order, so that a
// fit on another machine or in another session reads them in seconds:
// small enough to commit, unlike the samples file.
var solveLabelsFile = keyedFile{magic: "OFSL", what: "solver labels file", size: 1,
	otherKey: "made from other games or settings (--solve-empties, --solve-share, --seed)"}

// GamesKey names a set of games by their count and a CRC-32 of their moves
// and scores, whatever the files' paths.
func GamesKey(games []Game) string {
	h := crc32.NewIEEE()
	var b []byte
	for _, g := range games {
		b = b[:0]
		for _, m := range g.Moves {
			b = append(b, byte(m))
		}
		b = append(b, 0xff, byte(g.BlackScore), byte(g.TheoryScore), byte(g.TheoryEmpties))
		h.Write(b)
	}
	return fmt.Sprintf("games=%d moves-crc=%08x", len(games), h.Sum32())
}

// SaveSolveLabels writes the solver's labels under key.
func SaveSolveLabels(path, key string, labels []int8) error {
	return solveLabelsFile.save(path, key, len(labels), func(b []byte, i int) []byte { return append(b, byte(labels[i])) })
}

// LoadSolveLabels reads a solver labels file written with the same key.
func LoadSolveLabels(path, key string) ([]int8, error) {
	b, n, err := solveLabelsFile.load(path, key)
	if err != nil {
		return nil, err
	}
	out := make([]int8, n)
	for i := range out {
		out[i] = int8(b[i])
	}
	return out, nil
}

// Replayer returns a Solve function that gives the stored labels in order,
// for a Labeler with one worker (which asks in game order). It checks every
// check-th position against solve (nil: none), and done reports whether
// the labels fitted the games: all used, none missing, the checked ones
// equal.
func Replayer(stored []int8, solve func(player, opponent uint64) int, check int) (replay func(player, opponent uint64) int, done func() error) {
	i := 0
	var failed error
	replay = func(player, opponent uint64) int {
		if i >= len(stored) {
			if failed == nil {
				failed = fmt.Errorf("the games have more positions to solve than the file's %d labels", len(stored))
			}
			i++
			return 0
		}
		v := int(stored[i])
		if solve != nil && check > 0 && i%check == 0 && failed == nil {
			if got := solve(player, opponent); got != v {
				failed = fmt.Errorf("label %d is %d, the solver finds %d (a damaged file, or another solver)", i, v, got)
			}
		}
		i++
		return v
	}
	done = func() error {
		if failed == nil && i != len(stored) {
			failed = fmt.Errorf("the games have %d positions to solve, the file %d labels", i, len(stored))
		}
		return failed
	}
	return replay, done
}
