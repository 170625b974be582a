package play

import (
	"cmp"
	"context"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/search"
)

// Think searches pos with s and returns a result whose Best is always a
// legal move of pos: a board move, PassMove when the side to move must pass
// (the searcher searches after the pass), or NoSquare when the game is over
// (then Score is the final score, empties to the winner, and Exact is set).
// Reports and the result have their PVs cut at the first illegal move, so
// that a front end never shows or plays one. Go, Hint, Solve and Analyze
// search through it.
func Think(ctx context.Context, s Searcher, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	if report == nil {
		report = func(search.Info) {}
	}
	if pos.GameOver() {
		info := search.Info{Selectivity: 100, Exact: true, WLD: lim.WLD, Score: pos.FinalScore(), Best: bitboard.NoSquare}
		if lim.WLD {
			info.Score = cmp.Compare(info.Score, 0) // -1, 0, +1: loss, draw, win
		}
		report(info)
		return info
	}
	start := time.Now()
	info := sanitize(pos, s.Search(ctx, pos, lim, func(in search.Info) { report(sanitize(pos, in)) }))
	if !pos.IsLegal(info.Best) {
		// A search stopped before it finished its first move has no move:
		// fall back on the best-scored move it did see, or any legal move.
		info.Best = bitboard.NoSquare
		for _, m := range info.Moves {
			if pos.IsLegal(m.Move) {
				info.Best, info.Score = m.Move, m.Score
				break
			}
		}
		if info.Best == bitboard.NoSquare {
			info.Best = bitboard.PassMove
			if !pos.MustPass() {
				info.Best = bitboard.FirstSquare(pos.Moves())
			}
		}
		info.PV = []bitboard.Square{info.Best}
	}
	if info.Time == 0 {
		info.Time = time.Since(start)
	}
	return endsGame(pos, info, lim.WLD)
}

// endsGame gives a best move that ends the game its result as the value:
// a search with nothing left to search may report an evaluation instead
// (the last move of a game was shown as "+24, depth 0" in a game that
// ended +28), and every front end shows what Think returns.
func endsGame(pos bitboard.Position, info search.Info, wld bool) search.Info {
	if info.Exact || info.Best == bitboard.PassMove || !pos.IsLegal(info.Best) {
		return info
	}
	next := pos.Play(info.Best)
	if !next.GameOver() {
		return info
	}
	score := -next.FinalScore() // next's side to move is the opponent
	if wld {
		score = cmp.Compare(score, 0)
	}
	info.Score, info.Exact, info.WLD = score, true, wld
	info.Depth, info.Selectivity = pos.Empties(), 100
	info.PV = []bitboard.Square{info.Best}
	for i := range info.Moves {
		if info.Moves[i].Move == info.Best {
			info.Moves[i].Score = score
		}
	}
	return info
}

// sanitize returns in with its PV cut before the first move that is not
// legal in sequence from pos (implied passes are made explicit), its Best
// cleared if illegal, and its Moves list kept to legal moves.
func sanitize(pos bitboard.Position, in search.Info) search.Info {
	out := in
	out.PV = nil
	p := pos
	for _, m := range in.PV {
		if m != bitboard.PassMove && p.MustPass() {
			out.PV = append(out.PV, bitboard.PassMove)
			p = p.Pass()
		}
		if !p.IsLegal(m) {
			break
		}
		out.PV = append(out.PV, m)
		if m == bitboard.PassMove {
			p = p.Pass()
		} else {
			p = p.Play(m)
		}
	}
	if !pos.IsLegal(out.Best) {
		out.Best = bitboard.NoSquare
		if len(out.PV) > 0 {
			out.Best = out.PV[0]
		}
	}
	if len(out.PV) > 0 && out.PV[0] != out.Best && pos.IsLegal(out.Best) {
		out.PV = []bitboard.Square{out.Best}
	}
	if len(out.PV) == 0 && out.Best != bitboard.NoSquare {
		out.PV = []bitboard.Square{out.Best}
	}
	if len(in.Moves) > 0 {
		out.Moves = make([]search.MoveScore, 0, len(in.Moves))
		for _, m := range in.Moves {
			if pos.IsLegal(m.Move) {
				out.Moves = append(out.Moves, m)
			}
		}
	}
	return out
}

// FormatPV writes a principal variation as NBoard and GGS show it, moves in
// upper case joined by '-' ("F5-D6-C3", passes "PA").
func FormatPV(pv []bitboard.Square) string {
	b := make([]byte, 0, 3*len(pv))
	for i, m := range pv {
		if i > 0 {
			b = append(b, '-')
		}
		b = append(b, m.Upper()...)
	}
	return string(b)
}
