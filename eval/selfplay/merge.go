package selfplay

import (
	"errors"
	"fmt"
	"io"
	"sort"
)

// Part is one input of Merge: a checked file's header and games.
type Part struct {
	Name   string
	Header Header
	Games  []Game
}

// Merge writes the games of parts, sorted by index, as one file of blocks
// of block games. The parts must come from one job (equal Seed and Params)
// and hold no game twice. The output's set is the smallest range covering
// the parts, shard 1/1, if they hold every game of it; otherwise Merge
// fails unless partial, and then marks the set partial (Shards 0).
func Merge(w io.Writer, parts []Part, block int, partial bool) (Header, uint64, error) {
	if len(parts) == 0 {
		return Header{}, 0, errors.New("nothing to merge")
	}
	if block < 1 {
		block = 8
	}
	h := parts[0].Header
	end := h.First + h.Count
	type src struct {
		g    Game
		part int
	}
	var all []src
	for i, p := range parts {
		o := p.Header
		if o.Seed != h.Seed || o.Params != h.Params {
			d := Header{Seed: o.Seed, Params: o.Params}.Diff(Header{Seed: h.Seed, Params: h.Params})
			return Header{}, 0, fmt.Errorf("%s and %s are not from one job: %s", p.Name, parts[0].Name, d)
		}
		h.First = min(h.First, o.First)
		end = max(end, o.First+o.Count)
		for _, g := range p.Games {
			all = append(all, src{g, i})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].g.Index < all[j].g.Index })
	for i := 1; i < len(all); i++ {
		if all[i].g.Index == all[i-1].g.Index {
			return Header{}, 0, fmt.Errorf("game %d is in both %s and %s (overlapping shards or runs)", all[i].g.Index, parts[all[i-1].part].Name, parts[all[i].part].Name)
		}
	}
	h.Count = end - h.First
	h.Shard, h.Shards = 1, 1
	if uint64(len(all)) != h.Count {
		if !partial {
			missing := h.First
			for _, s := range all {
				if s.g.Index != missing {
					break
				}
				missing++
			}
			return Header{}, 0, fmt.Errorf("the inputs hold %d of the %d games [%d,%d) (game %d is missing); add the missing shards or merge with --partial", len(all), h.Count, h.First, end, missing)
		}
		h.Shard, h.Shards = 0, 0
	}
	wr, err := NewWriter(w, h)
	if err != nil {
		return Header{}, 0, err
	}
	games := make([]Game, 0, block)
	for i, s := range all {
		games = append(games, s.g)
		if len(games) == block || i == len(all)-1 {
			if err := wr.WriteBlock(games); err != nil {
				return Header{}, 0, err
			}
			games = games[:0]
		}
	}
	return h, wr.games, wr.Finish()
}
