package match

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// GameKey is the GGF property in which the match writes each game's number
// in the whole match (1-based, "GN[17]"): with it a stopped match goes on
// where it was (Config.Done) and the records of shards played apart merge
// into one match.
const GameKey = "GN"

// Shard is the share of a match that one run plays: the opening pairs whose
// number (game index / 2) is K-1 modulo N, both colours of each, so that N
// runs (machines, or the tasks of a job array) play the whole match between
// them and the games keep their numbers in it. The zero Shard is the whole
// match.
type Shard struct{ K, N int }

// Holds reports whether the game with this index is in the shard.
func (s Shard) Holds(index int) bool {
	return s.N <= 1 || (index/2)%s.N == s.K-1
}

// share returns the games of the plan that the shard plays.
func (s Shard) share(plan []Pairing) []Pairing {
	if s.N <= 1 {
		return plan
	}
	var out []Pairing
	for _, p := range plan {
		if s.Holds(p.Index) {
			out = append(out, p)
		}
	}
	return out
}

// FromRecord rebuilds the result of a game that this match played before
// from its record (as Record received it and "--games-out" wrote it), so
// that a stopped match can go on without playing it again. The record must
// be this match's game of its number: the same opening, the same engines
// (their labels in PB and PW) and a result. The nodes the engines reported
// are not in a record; the result says so (NoNodes).
func (cfg *Config) FromRecord(g *bitboard.Game) (GameResult, error) {
	plan := Plan(cfg.Openings, cfg.Games, cfg.Seed)
	num, ok := g.Prop(GameKey)
	if !ok {
		return GameResult{}, fmt.Errorf("no game number (%s): not a record of \"outflank match\"", GameKey)
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || n > len(plan) {
		return GameResult{}, fmt.Errorf("%s[%s]: want a game number from 1 to %d", GameKey, num, len(plan))
	}
	p := plan[n-1]
	res := GameResult{Index: p.Index, Opening: p.Opening.Name, Black: p.Black, Record: g, NoNodes: true}
	if g.Start != p.Opening.Start || len(g.Moves) < len(p.Opening.Moves) {
		return res, fmt.Errorf("game %d: another start than this match's (were --openings, --games or --seed changed?)", n)
	}
	for i, m := range p.Opening.Moves {
		if g.Moves[i].Square != m {
			return res, fmt.Errorf("game %d: another opening than this match's (were --openings, --games or --seed changed?)", n)
		}
	}
	color := [2]int{p.Black, 1 - p.Black} // engine playing black, white
	for c, key := range []string{"PB", "PW"} {
		want := ggfValue(cfg.Engines[color[c]].Label())
		if got, _ := g.Prop(key); got != want {
			return res, fmt.Errorf("game %d: %s[%s], but this match's engine %s is %q", n, key, got, letter(color[c]), want)
		}
	}
	re, _ := g.Prop("RE")
	value, flag, _ := strings.Cut(re, ":")
	black, err := strconv.ParseFloat(value, 64)
	if err != nil || black != float64(int(black)) || black < -64 || black > 64 {
		return res, fmt.Errorf("game %d: RE[%s]: want the result, like +12.000 or -64.000:t", n, re)
	}
	res.Margin = int(black)
	if p.Black == 1 {
		res.Margin = -res.Margin
	}
	switch {
	case res.Margin > 0:
		res.Score = 1
	case res.Margin == 0:
		res.Score = 0.5
	}
	if flag != "" {
		kind := FaultRecorded
		if flag == "t" {
			kind = FaultTimeout
		}
		loser := color[0]
		if black > 0 {
			loser = color[1]
		}
		res.Forfeit = &Forfeit{Engine: loser, Fault: Fault{Kind: kind, Detail: "RE[" + re + "]"}, Ply: len(g.Moves)}
		res.Score, res.Margin = float64(loser), 0
	} else if !g.Current().GameOver() {
		return res, fmt.Errorf("game %d: RE[%s] but the game is not over", n, re)
	}
	// The engines' moves are those after the opening with a time; the
	// passes the harness plays for an engine have none.
	for i, m := range g.Moves {
		side := color[(int(p.Opening.Start.ToMove)+i)%2] // passes are in the record
		if i >= len(p.Opening.Moves) && m.Square != bitboard.PassMove && m.HasTime {
			dt := time.Duration(m.Time * float64(time.Second))
			res.Moves[side]++
			res.Think[side] += dt
			res.Longest[side] = max(res.Longest[side], dt)
			if _, t := cfg.limits(side); t > 0 && dt > t {
				res.Over[side]++
				if dt > t+LateMargin(t) {
					res.Late[side]++
				}
			}
		}
	}
	return res, nil
}
