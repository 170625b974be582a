package match

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
)

// ProgressLine is the one-line running score shown while a match plays.
// With an SPRT it also shows the test's LLR.
func ProgressLine(s Summary, planned int, t *SPRT) string {
	line := fmt.Sprintf("%d/%d games  A %+d =%d -%d  score %s  Elo %s",
		s.Games, planned, s.Wins, s.Draws, s.Losses, pct(s.Score, s.ScoreErr), eloRange(s))
	if t != nil {
		lo, hi := t.Bounds()
		line += fmt.Sprintf("  LLR %.2f [%.2f, %.2f]", t.LLR(s.Pentanomial), lo, hi)
	}
	if s.Forfeits[0]+s.Forfeits[1] > 0 {
		line += fmt.Sprintf("  forfeits A %d B %d", s.Forfeits[0], s.Forfeits[1])
	}
	return line
}

func pct(s, err float64) string {
	if math.IsNaN(s) {
		return "?"
	}
	switch {
	case math.IsNaN(err):
		return fmt.Sprintf("%.1f%%", 100*s)
	case s == 0:
		return fmt.Sprintf("0.0%% (up to %.1f%%)", 100*err)
	case s == 1:
		return fmt.Sprintf("100.0%% (down to %.1f%%)", 100*(1-err))
	}
	return fmt.Sprintf("%.1f%% ± %.1f", 100*s, 100*err)
}

func elo(x float64) string {
	switch {
	case math.IsNaN(x):
		return "?"
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	r := math.Round(x)
	if r == 0 {
		r = 0 // no "-0"
	}
	return fmt.Sprintf("%+.0f", r)
}

func eloRange(s Summary) string {
	switch {
	case math.IsNaN(s.EloLow):
		return elo(s.Elo)
	case math.IsInf(s.Elo, -1):
		return "below " + elo(s.EloHigh) // a shutout: only a bound is known
	case math.IsInf(s.Elo, 1):
		return "above " + elo(s.EloLow)
	}
	return fmt.Sprintf("%s [%s, %s]", elo(s.Elo), elo(s.EloLow), elo(s.EloHigh))
}

func limitText(e EngineInfo) string {
	var parts []string
	if e.Clock > 0 {
		return fmt.Sprintf("%s a game", e.Clock)
	}
	if e.Depth > 0 && e.Depth < 60 || e.Time == 0 {
		parts = append(parts, fmt.Sprintf("depth %d", e.Depth))
	}
	if e.Time > 0 {
		parts = append(parts, fmt.Sprintf("%s a move", e.Time))
	}
	return strings.Join(parts, ", ")
}

// WriteTable writes the final result as a table for people.
func (r *Report) WriteTable(w io.Writer) {
	s := r.Summary
	shard := ""
	if r.Shard.N > 1 {
		shard = fmt.Sprintf(" (shard %d/%d of the match)", r.Shard.K, r.Shard.N)
	}
	fmt.Fprintf(w, "Match: %d of %d games played%s, %s\n", s.Games, r.Planned, shard, openingsText(r.Planned, r.Openings))
	for i, e := range r.Engines {
		name := ""
		if e.Name != "" {
			name = " (" + e.Name + ")"
		}
		fmt.Fprintf(w, "  %c  %s%s, %s\n", "AB"[i], e.Label, name, limitText(e))
	}
	fmt.Fprintf(w, "\n  %-12s %6s %6s %6s %6s   %s\n", "", "games", "wins", "draws", "losses", "score")
	row := func(name string, x WDL, err float64, note string) {
		n := x.Wins + x.Draws + x.Losses
		sc := math.NaN()
		if n > 0 {
			sc = (float64(x.Wins) + float64(x.Draws)/2) / float64(n)
		}
		fmt.Fprintf(w, "  %-12s %6d %6d %6d %6d   %s%s\n", name, n, x.Wins, x.Draws, x.Losses, pct(sc, err), note)
	}
	row("A as black", s.AsBlack, math.NaN(), "")
	row("A as white", s.AsWhite, math.NaN(), "")
	note := "  (95%, per game)"
	if s.Paired {
		note = "  (95%, per opening pair)"
	}
	if math.IsNaN(s.ScoreErr) {
		note = ""
	}
	row("A total", s.WDL, s.ScoreErr, note)
	fmt.Fprintf(w, "\n  Elo A - B: %s (95%%)\n", eloRange(s))
	if p := s.Pentanomial; p != [5]int{} {
		fmt.Fprintf(w, "  Opening pairs by A's points 0, 1/2, 1, 3/2, 2: %d %d %d %d %d\n", p[0], p[1], p[2], p[3], p[4])
	}
	if r.SPRT != nil {
		fmt.Fprintf(w, "  %s: %s\n", r.SPRT, r.SPRT.Status(s.Pentanomial))
	}
	if s.MarginGames > 0 {
		m := fmt.Sprintf("%+.2f", s.Margin)
		if !math.IsNaN(s.MarginErr) {
			m += fmt.Sprintf(" ± %.2f", s.MarginErr)
		}
		fmt.Fprintf(w, "  Mean disc margin A - B: %s over %d games played out\n", m, s.MarginGames)
	}
	for i := range 2 {
		if s.Moves[i] == 0 {
			continue
		}
		line := fmt.Sprintf("  %c: %d moves, %.3f s a move", "AB"[i], s.Moves[i], s.Think[i].Seconds()/float64(s.Moves[i]))
		if s.Nodes[i] > 0 && s.NodeThink[i] > 0 {
			line += fmt.Sprintf(", %d nodes a move, %.2f Mnodes/s", s.Nodes[i]/uint64(s.NodeMoves[i]), float64(s.Nodes[i])/s.NodeThink[i].Seconds()/1e6)
			if s.NodeMoves[i] < s.Moves[i] {
				line += fmt.Sprintf(" (over the %d moves played in this run)", s.NodeMoves[i])
			}
		}
		line += fmt.Sprintf(", longest %.3f s", s.Longest[i].Seconds())
		if t := r.Engines[i].Time; t > 0 && r.Engines[i].Clock == 0 {
			line += fmt.Sprintf(", %d over %s (%d late: past %s)", s.Over[i], t, s.Late[i], t+LateMargin(t))
		}
		fmt.Fprintln(w, line)
	}
	if s.Forfeits[0]+s.Forfeits[1] > 0 {
		fmt.Fprintf(w, "  Forfeits: A %d%s, B %d%s\n", s.Forfeits[0], faultText(s.Faults[0]), s.Forfeits[1], faultText(s.Faults[1]))
	}
}

func faultText(f [len(faultNames)]int) string {
	var parts []string
	for k, n := range f {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", FaultKind(k), n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// num is a float for JSON: null when NaN or infinite.
func num(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

type jsonEngine struct {
	Spec  string  `json:"spec"`
	Label string  `json:"label"`
	Name  string  `json:"name,omitempty"`
	Depth int     `json:"depth"`
	Time  float64 `json:"time_per_move_s,omitempty"`
	Clock float64 `json:"time_per_game_s,omitempty"`
	Moves int     `json:"moves"`
	Think float64 `json:"think_s"`
	Nodes uint64  `json:"nodes"`
	// The longest move, the moves longer than time_per_move_s, and those
	// later than LateMargin past it.
	Longest float64 `json:"longest_move_s"`
	Over    int     `json:"moves_over_time"`
	Late    int     `json:"moves_late"`
}

type jsonWDL struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

type jsonForfeit struct {
	Engine string `json:"engine"`
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	Ply    int    `json:"ply"`
}

type jsonGame struct {
	Game    int          `json:"game"`
	Opening string       `json:"opening"`
	Black   string       `json:"black"`
	Score   float64      `json:"score"`
	Margin  int          `json:"margin"`
	Forfeit *jsonForfeit `json:"forfeit,omitempty"`
}

type jsonReport struct {
	Engines     [2]jsonEngine `json:"engines"`
	Planned     int           `json:"planned"`
	Games       int           `json:"games"`
	Openings    int           `json:"openings"`
	Total       jsonWDL       `json:"total"`
	AsBlack     jsonWDL       `json:"a_as_black"`
	AsWhite     jsonWDL       `json:"a_as_white"`
	Score       *float64      `json:"score"`
	ScoreErr    *float64      `json:"score_err95"`
	Paired      bool          `json:"paired"`
	Elo         *float64      `json:"elo"`
	EloLow      *float64      `json:"elo_low"`
	EloHigh     *float64      `json:"elo_high"`
	Margin      *float64      `json:"margin"`
	MarginErr   *float64      `json:"margin_err95"`
	MarginGames int           `json:"margin_games"`
	Forfeits    [2]int        `json:"forfeits"`
	Pentanomial [5]int        `json:"pentanomial"`
	SPRT        *jsonSPRT     `json:"sprt,omitempty"`
	Results     []jsonGame    `json:"results"`
}

type jsonSPRT struct {
	Elo0    float64 `json:"elo0"`
	Elo1    float64 `json:"elo1"`
	Alpha   float64 `json:"alpha"`
	Beta    float64 `json:"beta"`
	LLR     float64 `json:"llr"`
	Lower   float64 `json:"lower"`
	Upper   float64 `json:"upper"`
	Verdict string  `json:"verdict"` // "H1", "H0" or "" while undecided
}

func toJSONWDL(x WDL) jsonWDL { return jsonWDL{x.Wins, x.Draws, x.Losses} }

// WriteJSON writes the report as one JSON object (scores from A's side;
// values that do not exist, such as an infinite Elo, are null).
func (r *Report) WriteJSON(w io.Writer) error {
	s := r.Summary
	j := jsonReport{
		Planned: r.Planned, Games: s.Games, Openings: r.Openings,
		Total: toJSONWDL(s.WDL), AsBlack: toJSONWDL(s.AsBlack), AsWhite: toJSONWDL(s.AsWhite),
		Score: num(s.Score), ScoreErr: num(s.ScoreErr), Paired: s.Paired,
		Elo: num(s.Elo), EloLow: num(s.EloLow), EloHigh: num(s.EloHigh),
		Margin: num(s.Margin), MarginErr: num(s.MarginErr), MarginGames: s.MarginGames,
		Forfeits: s.Forfeits, Pentanomial: s.Pentanomial, Results: []jsonGame{},
	}
	if t := r.SPRT; t != nil {
		lo, hi := t.Bounds()
		j.SPRT = &jsonSPRT{Elo0: t.Elo0, Elo1: t.Elo1, Alpha: t.Alpha, Beta: t.Beta, LLR: t.LLR(s.Pentanomial), Lower: lo, Upper: hi,
			Verdict: [3]string{"H0", "", "H1"}[t.Verdict(s.Pentanomial)+1]}
	}
	for i, e := range r.Engines {
		j.Engines[i] = jsonEngine{Spec: e.Spec, Label: e.Label, Name: e.Name, Depth: e.Depth, Time: e.Time.Seconds(), Clock: e.Clock.Seconds(),
			Moves: s.Moves[i], Think: s.Think[i].Seconds(), Nodes: s.Nodes[i], Longest: s.Longest[i].Seconds(), Over: s.Over[i], Late: s.Late[i]}
	}
	for _, g := range r.Results {
		jg := jsonGame{Game: g.Index + 1, Opening: g.Opening, Black: letter(g.Black), Score: g.Score, Margin: g.Margin}
		if f := g.Forfeit; f != nil {
			jg.Forfeit = &jsonForfeit{Engine: letter(f.Engine), Kind: f.Fault.Kind.String(), Detail: f.Fault.Detail, Ply: f.Ply}
		}
		j.Results = append(j.Results, jg)
	}
	if j.Results == nil {
		j.Results = []jsonGame{} // [] in JSON, not null
	}
	// One line: every --json of outflank writes JSON Lines (README).
	return json.NewEncoder(w).Encode(j)
}

// openingsText says how the planned games use the openings: each opening
// twice, colours swapped, and an odd game count's last opening once, with
// A as black.
func openingsText(planned, openings int) string {
	pairs := planned / 2
	text := fmt.Sprintf("%d openings each with both colours", pairs)
	if pairs == 1 {
		text = "1 opening with both colours"
	}
	if planned%2 == 1 {
		text += ", 1 with A as black only"
	}
	if planned > 2*openings {
		text += fmt.Sprintf(" (the %d openings repeat)", openings)
	}
	return text
}
