// Package selfplay generates training games for the evaluation by
// self-play and keeps them in a compact, versioned, checked file format.
//
// A game starts from an opening of a list (the XOT openings in the
// command), plays a few uniformly random moves, then midgame moves drawn by
// a softmax over an engine's scores of every root move, and from a given
// number of empties on (20 by default in the command) the solver's perfect
// play. Its final score is therefore the exact value of every position from
// the solve point on, and the label of the earlier ones (the WTHOR
// convention). Game i of a run depends only on the run's seed, i and the
// settings (Config), so runs resume from their file, split into shards, and
// merge.
//
// Reading, for training:
//
//	h, games, err := selfplay.ReadFile("games.sp") // or games.sp.gz
//	for _, g := range games {
//		samples, _ := g.Samples() // one per move: position, move, final score
//		for _, s := range samples {
//			// s.Pos, s.Score (side to move's view), s.Exact (at or after the solve point)
//		}
//	}
//
// ReadFile (and the streaming NewReader/Next) check everything: the magic
// and version, the header's and every block's CRC-32C, the game counts, that
// every game replays legally to its end with the stored score, that indices
// increase and belong to the file's set, and the end record. A damaged or
// truncated file gives an error naming the block and byte offset; a file
// without its end record (a run still going or stopped) gives the games read
// and an error wrapping ErrUnfinished.
package selfplay
