package solvedset

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/selfplay"
)

// A picked position: where it comes from, before it is solved.
type picked struct {
	id   int
	pos  bitboard.Position
	game uint64
	ply  int
}

// width is the number of empties counts a set may hold: the step of the
// ids of one count (see pick).
const width = MaxEmpties - MinEmpties + 1

// idOf is the id of the position of rank r (0 first) at n empties.
func idOf(n, r int) int { return r*width + n - MinEmpties }

// pick chooses the set's positions: counts[n] positions at n empties, each
// from a game of its own, the side to move with at least two legal moves
// (a forced move tells nothing about an engine). The games are taken in an
// order shuffled by seed, the k-th of them serving only for the empties
// count MinEmpties + k mod width: so the positions at n empties do not
// depend on the counts of the others, and a set with larger counts holds
// every position of one with smaller (a set grows; a sample is part of the
// whole). The r-th position at n empties has id idOf(n, r): the ids, the
// scorer's order, interleave the empties counts, so a prefix of the set or
// a shard spreads over the whole range.
func pick(games []selfplay.Game, seed uint64, counts Counts) []picked {
	order := make([]int, len(games))
	for i := range order {
		order[i] = i
	}
	rand.New(rand.NewPCG(seed, 0x50_4c_56_44)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var out []picked
	for n := MinEmpties; n <= MaxEmpties; n++ {
		r := 0
		for k := n - MinEmpties; k < len(order) && r < counts[n]; k += width {
			g := games[order[k]]
			ps, err := g.Positions()
			if err != nil {
				continue
			}
			for ply, p := range ps {
				if p.Empties() == n && bitboard.Count(p.Moves()) >= 2 {
					out = append(out, picked{id: idOf(n, r), pos: p, game: g.Index, ply: ply})
					r++
					break
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b picked) int { return a.id - b.id })
	return out
}

// solveGrowth is how many times the nodes of a solve grow with each empty
// square, fitted on 19 self-play positions at 24-31 empties (README.md):
// the cost model that deals positions to shards.
const solveGrowth = 2.08

// shards deals the ids of counts to n shards so that they take about the
// same time: by estimated cost, dearest first, each to the shard with the
// least so far (ties to the lower id and shard). A position at 36 empties
// costs as much as a few hundred at 24, so dealing ids in turn would leave
// one shard hours behind the other. It depends on the counts and n alone,
// so merge can check it. shards[id] is the id's shard, 1..n.
func shards(counts Counts, n int) map[int]int {
	type item struct {
		id   int
		cost float64
	}
	var items []item
	for e, c := range counts {
		for r := range c {
			items = append(items, item{idOf(e, r), math.Pow(solveGrowth, float64(e-MinEmpties))})
		}
	}
	slices.SortFunc(items, func(a, b item) int {
		if a.cost != b.cost {
			return cmp.Compare(b.cost, a.cost)
		}
		return a.id - b.id
	})
	load := make([]float64, n)
	out := make(map[int]int, len(items))
	for _, it := range items {
		k := 0
		for j := range load {
			if load[j] < load[k] {
				k = j
			}
		}
		load[k] += it.cost
		out[it.id] = k + 1
	}
	return out
}
