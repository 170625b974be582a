package selfplay

import (
	"errors"
	"fmt"
	"io"
)

// Input is one file to merge: its name (for messages) and its reader.
type Input struct {
	Name string
	*Reader
}

// MergeOptions relax Merge's checks.
type MergeOptions struct {
	Block      int  // games per output block (0: 8)
	Partial    bool // the inputs need not hold every game of their range: the output's set is then marked partial
	Unfinished bool // take the games of inputs without their end record (runs stopped early)
}

// Merge streams the games of inputs into w in index order, as one file,
// holding one game of each input in memory at a time. The inputs must come
// from one job (equal Seed and Params) and hold no game twice. The output's
// set is the smallest range covering the inputs' sets, shard 1/1, when they
// hold every game of it; otherwise Merge fails unless opt.Partial, and
// marks the set partial (Shards 0). w is rewound to fix the header at the
// end (Shards), hence the Seeker. On an error w holds garbage.
func Merge(w io.WriteSeeker, inputs []Input, opt MergeOptions) (Header, uint64, error) {
	if len(inputs) == 0 {
		return Header{}, 0, errors.New("nothing to merge")
	}
	if opt.Block < 1 {
		opt.Block = 8
	}
	h := inputs[0].Header
	end := h.First + h.Count
	for _, in := range inputs {
		o := in.Header
		if o.Seed != h.Seed || o.Params != h.Params {
			d := Header{Seed: o.Seed, Params: o.Params}.Diff(Header{Seed: h.Seed, Params: h.Params})
			return Header{}, 0, fmt.Errorf("%s and %s are not from one job: %s", in.Name, inputs[0].Name, d)
		}
		h.First = min(h.First, o.First)
		end = max(end, o.First+o.Count)
	}
	h.Count = end - h.First
	h.Shard, h.Shards = 1, 1
	wr, err := NewWriter(w, h)
	if err != nil {
		return Header{}, 0, err
	}

	// heads[i] is input i's next game; ok[i] false once it is used up.
	heads := make([]Game, len(inputs))
	ok := make([]bool, len(inputs))
	advance := func(i int) error {
		g, err := inputs[i].Next()
		switch {
		case err == nil:
			heads[i], ok[i] = g, true
			return nil
		case err == io.EOF || (opt.Unfinished && errors.Is(err, ErrUnfinished)):
			ok[i] = false
			return nil
		}
		return fmt.Errorf("%s: %w", inputs[i].Name, err)
	}
	for i := range inputs {
		if err := advance(i); err != nil {
			return Header{}, 0, err
		}
	}
	want, missing := h.First, false // the next index a whole set would hold
	games := make([]Game, 0, opt.Block)
	for {
		m := -1
		for i := range inputs {
			if !ok[i] {
				continue
			}
			if m >= 0 && heads[i].Index == heads[m].Index {
				return Header{}, 0, fmt.Errorf("game %d is in both %s and %s (overlapping shards or runs)", heads[i].Index, inputs[m].Name, inputs[i].Name)
			}
			if m < 0 || heads[i].Index < heads[m].Index {
				m = i
			}
		}
		if m < 0 {
			break
		}
		g := heads[m]
		if g.Index != want && !missing {
			if !opt.Partial {
				return Header{}, 0, fmt.Errorf("game %d is in none of the inputs, which cover games [%d,%d); add the missing shards or merge with --partial", want, h.First, end)
			}
			missing = true
		}
		want = g.Index + 1
		games = append(games, g)
		if len(games) == opt.Block {
			if err := wr.WriteBlock(games); err != nil {
				return Header{}, 0, err
			}
			games = games[:0]
		}
		if err := advance(m); err != nil {
			return Header{}, 0, err
		}
	}
	if err := wr.WriteBlock(games); err != nil {
		return Header{}, 0, err
	}
	if want != end && !missing {
		if !opt.Partial {
			return Header{}, 0, fmt.Errorf("game %d is in none of the inputs, which cover games [%d,%d); add the missing shards or merge with --partial", want, h.First, end)
		}
		missing = true
	}
	if err := wr.Finish(); err != nil {
		return Header{}, 0, err
	}
	if missing {
		h.Shard, h.Shards = 0, 0
		if _, err := w.Seek(0, io.SeekStart); err != nil {
			return Header{}, 0, err
		}
		if _, err := w.Write(h.encode()); err != nil { // same length: only shard fields change
			return Header{}, 0, err
		}
	}
	return h, wr.games, nil
}
