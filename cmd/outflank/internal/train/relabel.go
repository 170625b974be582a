package train

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// Search labels. A WTHOR position with 25 empties or more is labelled with
// the perfect-play result of where the human game went many moves later:
// the players' mistakes in between are noise in that label (a held-out
// error of 12-14 discs at 30-40 empties, mostly noise). Engines that train
// on their own search (Edax, Egaroucid, NNUE trainers) blend the value of a
// search from the position into the label:
//
//	label = λ·search + (1−λ)·game label
//
// The search value is a fixed-depth midgame search by the engine itself,
// with the evaluation the caller gives (the committed weights). Searching
// takes milliseconds a position, so only a selection of the positions is
// searched (an Every-th of the eligible ones); the others keep their game label,
// and every position still trains.

// Relabel picks and searches positions for search labels.
type Relabel struct {
	Depth       int     // midgame search depth in plies
	Selectivity int     // Multi-ProbCut confidence (search.Limits.Selectivity; 100: none)
	MinEmpties  int     // search positions with at least this many empties
	MaxEmpties  int     // ... and at most this many (0: no bound)
	MinGame     int32   // ... of games numbered at least this (0: all; the self-play games alone: their numbers start high)
	Every       int     // search an Every-th of the eligible positions (1: all): see Pick
	Seed        uint64  // the fit's seed: held-out games are never searched
	HoldOut     float64 // the fit's held-out share
	Shard, Of   int     // search only shard Shard (1..Of) of the picked positions
}

// Pick returns the indexes into samples of the positions to search, in
// order: not exact, MinEmpties to MaxEmpties empties, of a game numbered
// MinGame or above, in a training game (held-out
// games keep their game labels, so that the fit's held-out error still
// measures against them), an Every-th of such positions, then this
// shard's share of them.
//
// The Every-th are those whose empties count plus game number is a
// multiple of Every, so that every empties count gets its share: taking
// every Every-th position in order would not, since a game holds the
// same run of empties counts as the one before, and with 21 of them
// (24-44 empties) and Every 3, one residue of the empties modulo 3 got
// six times the labels of another.
func (r Relabel) Pick(samples []Sample) []int32 {
	var out []int32
	every := max(1, r.Every)
	for i := range samples {
		s := &samples[i]
		if r.Eligible(s) && (s.Empties()+int(uint32(s.Game)%uint32(every)))%every == 0 {
			out = append(out, int32(i))
		}
	}
	if r.Of > 1 {
		k := 0
		for j, i := range out {
			if j%r.Of == r.Shard-1 {
				out[k] = i
				k++
			}
		}
		out = out[:k]
	}
	return out
}

// Eligible reports whether s may be searched: not exact, MinEmpties to
// MaxEmpties empties, of a game numbered MinGame or above, in a training
// game.
func (r Relabel) Eligible(s *Sample) bool {
	e := s.Empties()
	return !s.Exact && e >= r.MinEmpties && (r.MaxEmpties == 0 || e <= r.MaxEmpties) &&
		s.Game >= r.MinGame && !Split(r.Seed, s.Game, r.HoldOut)
}

// DropUnsearched returns the samples without the eligible positions that
// have no search label: a fit on searched positions only (and on the
// exact and held-out ones) rather than on all with the game label where no
// search was made.
func (r Relabel) DropUnsearched(samples []Sample, labels []SearchLabel) []Sample {
	searched := make([]bool, len(samples))
	for _, l := range labels {
		searched[l.Index] = true
	}
	var out []Sample
	for i := range samples {
		if searched[i] || !r.Eligible(&samples[i]) {
			out = append(out, samples[i])
		}
	}
	return out
}

// SearchLabel is one searched position: its index into the samples and the
// search's score in discs for the side to move.
type SearchLabel struct {
	Index int32
	Score int8
}

// Searcher scores positions by a fixed-depth search. The table is cleared
// before each position, so a position's score depends on the position, the
// evaluation and the limits alone: any order, resume or sharding gives the
// same labels.
type Searcher struct {
	eng *search.Engine
	lim search.Limits
}

// NewSearcher returns a Searcher using ev for r's depth and selectivity.
func NewSearcher(ev search.Evaluator, r Relabel) *Searcher {
	return &Searcher{
		eng: search.New(search.Options{HashMB: 4, Eval: ev}),
		// EndgameEmpties 1: never solve at the root (positions have 25+
		// empties; a depth-D search is what is asked).
		lim: search.Limits{Depth: r.Depth, Selectivity: r.Selectivity, EndgameEmpties: 1},
	}
}

// Score returns the search value of the position, clamped to -64..64.
func (s *Searcher) Score(p, o uint64) int8 {
	s.eng.Clear()
	info := s.eng.Search(context.Background(), bitboard.Position{Player: p, Opponent: o}, s.lim, nil)
	return int8(max(-64, min(64, info.Score)))
}

// CheckPrefix reports an error unless labels are of the first positions
// of idx, in order: what a labelling run of the pick idx writes, whole or
// cut short. Anything else is of another selection.
func CheckPrefix(labels []SearchLabel, idx []int32) error {
	if len(labels) > len(idx) {
		return fmt.Errorf("%d labels for %d positions to search", len(labels), len(idx))
	}
	for j, l := range labels {
		if l.Index != idx[j] {
			return fmt.Errorf("label %d is of position %d, want %d (another selection?)", j, l.Index, idx[j])
		}
	}
	return nil
}

// Label searches the positions idx of samples that done does not already
// hold, appending to done; every checkpoint interval (and at the end) it
// calls save with all labels so far. It stops early, with the labels so
// far, when ctx is cancelled.
func (s *Searcher) Label(ctx context.Context, samples []Sample, idx []int32, done []SearchLabel,
	every time.Duration, save func([]SearchLabel) error, progress func(done, total int)) ([]SearchLabel, error) {
	if err := CheckPrefix(done, idx); err != nil {
		return done, fmt.Errorf("search labels: %w", err)
	}
	last := time.Now()
	for j := len(done); j < len(idx); j++ {
		if ctx.Err() != nil {
			break
		}
		sm := &samples[idx[j]]
		done = append(done, SearchLabel{Index: idx[j], Score: s.Score(sm.Player, sm.Opponent)})
		if progress != nil && j%256 == 0 {
			progress(j, len(idx))
		}
		if save != nil && time.Since(last) >= every {
			if err := save(done); err != nil {
				return done, err
			}
			last = time.Now()
		}
	}
	if progress != nil {
		progress(len(done), len(idx))
	}
	if save != nil {
		if err := save(done); err != nil {
			return done, err
		}
	}
	return done, nil
}

// Spread gives the eligible positions next to a searched one in its game
// the search label of that neighbour: with Pick's Every 3, each position
// of a game's run is a ply from a searched one, and a ply changes a
// position's value by the played move's regret alone (a fraction of a
// disc in self-play), far less than the game label's own error. Each
// unsearched eligible position within k plies takes the label of the
// nearest searched position of the same game (the later one on a tie:
// fewer empties, a surer search), negated when the other side is to move
// there. The labels returned are new (none of labels), in samples' order.
//
// A game's positions lie in samples one after another, in the order
// played; two neighbours are told apart by their discs: after a move,
// every disc of the mover is the next position's opponent's, after a
// pass its own.
func (r Relabel) Spread(samples []Sample, labels []SearchLabel, k int) []SearchLabel {
	if k <= 0 || len(labels) == 0 {
		return nil
	}
	score := make(map[int32]int8, len(labels))
	for _, l := range labels {
		score[l.Index] = l.Score
	}
	// sameSide reports whether the side to move at samples[j] is the one
	// at samples[i] (ok false: not one game's run of moves from i to j).
	sameSide := func(i, j int) (same, ok bool) {
		same = true
		step := 1
		if j < i {
			step = -1
		}
		for a := i; a != j; a += step {
			from, to := &samples[a], &samples[a+step]
			if step < 0 {
				from, to = to, from
			}
			if from.Game != to.Game || to.Empties() != from.Empties()-1 {
				return false, false
			}
			switch {
			case from.Player&^to.Opponent == 0:
				same = !same
			case from.Player&^to.Player == 0:
			default:
				return false, false
			}
		}
		return same, true
	}
	var out []SearchLabel
	for i := range samples {
		s := &samples[i]
		if _, searched := score[int32(i)]; searched || !r.Eligible(s) {
			continue
		}
	near:
		for d := 1; d <= k; d++ {
			for _, j := range [2]int{i + d, i - d} { // the later first
				if j < 0 || j >= len(samples) {
					continue
				}
				v, ok := score[int32(j)]
				if !ok {
					continue
				}
				same, ok := sameSide(i, j)
				if !ok {
					continue
				}
				if !same {
					v = -v
				}
				out = append(out, SearchLabel{Index: int32(i), Score: v})
				break near
			}
		}
	}
	return out
}

// Blend returns a copy of samples whose searched positions are labelled
// round(mix·search + (1−mix)·label). Labels of an index not in samples are
// an error (files of another sample set).
func Blend(samples []Sample, labels []SearchLabel, mix float64) ([]Sample, error) {
	out := make([]Sample, len(samples))
	copy(out, samples)
	for _, l := range labels {
		if l.Index < 0 || int(l.Index) >= len(out) {
			return nil, fmt.Errorf("search label of position %d: there are %d positions", l.Index, len(out))
		}
		s := &out[l.Index]
		v := math.Round(mix*float64(l.Score) + (1-mix)*float64(s.Score))
		s.Score = int8(max(-64, min(64, v)))
	}
	return out, nil
}

// searchLabelsFile holds 5-byte labels (index, score), saved whole after
// each checkpoint interval, so a killed run loses at most one interval.
var searchLabelsFile = keyedFile{magic: "OFSL", what: "search labels file", size: 5,
	otherKey: "made from other samples or search options"}

// SaveSearchLabels writes labels to path with key.
func SaveSearchLabels(path, key string, labels []SearchLabel) error {
	return searchLabelsFile.save(path, key, len(labels), func(b []byte, i int) []byte {
		b = binary.LittleEndian.AppendUint32(b, uint32(labels[i].Index))
		return append(b, byte(labels[i].Score))
	})
}

// LoadSearchLabels reads a search labels file written with the same key.
func LoadSearchLabels(path, key string) ([]SearchLabel, error) {
	b, n, err := searchLabelsFile.load(path, key)
	if err != nil {
		return nil, err
	}
	out := make([]SearchLabel, n)
	for i := range out {
		r := b[5*i:]
		out[i] = SearchLabel{Index: int32(binary.LittleEndian.Uint32(r)), Score: int8(r[4])}
	}
	return out, nil
}
