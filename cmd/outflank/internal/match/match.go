package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// DefaultDepth is the depth of an engine given neither a depth nor a time.
const DefaultDepth = 8

// Config describes a match between Engines[0] ("A") and Engines[1] ("B").
type Config struct {
	Engines  [2]Spec
	Self     string    // path of this binary, which self engines run as "nboard"
	Openings []Opening // each is played twice, colours swapped
	Games    int       // number of games; 0 = every opening twice
	// Concurrency is the number of games played at once (at least 1).
	Concurrency int
	Seed        uint64 // order of the openings (a fixed seed gives a fixed order)
	// Depth and Time apply to an engine whose spec sets neither.
	Depth int
	Time  time.Duration
	// MoveTimeout and GameTimeout bound one move and one engine's thinking
	// time in one game; past them the engine loses. 0 picks them from the
	// limits (see limits). StartTimeout bounds the start of an engine up to
	// its first pong (0 = 30s).
	MoveTimeout, GameTimeout, StartTimeout time.Duration

	// Progress, if set, is called after every game with the running
	// summary.
	// Record, if set, receives each finished game in game order. Event, if
	// set, receives each forfeit as it happens. The three are called from
	// one goroutine, never at once.
	Progress func(Summary)
	Record   func(GameResult)
	Event    func(Event)
	// Log, if set, receives every protocol line sent and received.
	Log io.Writer
	// SPRT, if set, stops the match as soon as the test decides; the games
	// then in progress do not count.
	SPRT *SPRT
	// Shard, if set, plays only its share of the match's games.
	Shard Shard
	// Done are games of this match played before (FromRecord): they count
	// in the report and are not played again.
	Done []GameResult
}

// Pairing is one scheduled game: an opening and who plays black.
type Pairing struct {
	Index   int // 0-based; games 2k and 2k+1 share an opening, colours swapped
	Opening Opening
	Black   int // the engine (0 = A, 1 = B) that plays black
}

// Plan returns the games of the match in order: the openings shuffled by
// the seed, each played with A as black then with B as black.
func Plan(openings []Opening, games int, seed uint64) []Pairing {
	if len(openings) == 0 {
		return nil
	}
	if games <= 0 {
		games = 2 * len(openings)
	}
	perm := rand.New(rand.NewPCG(seed, 0x0f1a2c)).Perm(len(openings))
	out := make([]Pairing, games)
	for i := range out {
		out[i] = Pairing{Index: i, Opening: openings[perm[(i/2)%len(perm)]], Black: i % 2}
	}
	return out
}

// Schedule returns the games this run of the match plays, or has played
// before (Done): the plan's games in the shard.
func (cfg *Config) Schedule() []Pairing {
	return cfg.Shard.share(Plan(cfg.Openings, cfg.Games, cfg.Seed))
}

// GameResult is one finished game.
type GameResult struct {
	Index   int
	Opening string
	Black   int            // engine that played black (0 = A)
	Record  *bitboard.Game // the whole game, opening included, with RE set
	Score   float64        // for A: 1 win, 0.5 draw, 0 loss
	// Margin is A's discs minus B's at the end, empty squares to the
	// winner (the convention of GGS, WTHOR and solvers); 0 after a forfeit.
	Margin  int
	Forfeit *Forfeit // nil when the game was played out
	// NoNodes marks a game read back from its record (FromRecord), which
	// keeps the engines' times but not the nodes they reported.
	NoNodes bool
	// Per engine: moves answered, their time as the harness measured it,
	// and the nodes the engine reported for them ("nodestats").
	Moves [2]int
	Think [2]time.Duration
	Nodes [2]uint64
	// Per engine: the longest move, the moves that took longer than the
	// engine's time a move (none counted without one), and of those the
	// late ones, answered more than LateMargin after it. An engine that
	// spends its whole time a move is stopped at it and answers a moment
	// later, so Over counts those stops too; Late is what a GUI would see
	// as overrunning, and a time manager that misjudges a solve shows there
	// long before it loses a game on time.
	Longest [2]time.Duration
	Over    [2]int
	Late    [2]int
}

// LateMargin is how long after its time a move an answer counts as late:
// a tenth of the time, at least 50 ms (a stop's latency through a pipe
// and a search unwinding).
func LateMargin(moveTime time.Duration) time.Duration {
	return max(50*time.Millisecond, moveTime/10)
}

// Forfeit says which engine lost a game by misbehaving, and how.
type Forfeit struct {
	Engine int // 0 = A, 1 = B
	Fault  Fault
	Ply    int // moves in the record when it happened
}

// Event is something the match reports as it happens: a forfeit.
type Event struct {
	Game   int
	Engine int
	Text   string
}

// EngineInfo describes an engine in the report.
type EngineInfo struct {
	Spec  string
	Label string
	Name  string // "set myname" of its first process
	Depth int
	Time  time.Duration
	Clock time.Duration // time for the game (clock=), 0 for none
}

// Report is the outcome of a match.
type Report struct {
	Engines  [2]EngineInfo
	Planned  int
	Openings int // distinct openings used
	Results  []GameResult
	Summary  Summary
	Events   []Event
	SPRT     *SPRT // the test, if one was run
	Shard    Shard // the share of the match played (Config.Shard)
}

// limits returns an engine's depth and time per move.
func (cfg *Config) limits(i int) (depth int, t time.Duration) {
	sp := cfg.Engines[i]
	if sp.Clock > 0 {
		return 60, 0 // the clock decides
	}
	depth, t = sp.Depth, sp.Time
	if depth == 0 && t == 0 {
		depth, t = cfg.Depth, cfg.Time
	}
	if depth == 0 {
		depth = 60 // time decides
		if t == 0 {
			depth = DefaultDepth
		}
	}
	return depth, t
}

// grace is how far past its time per move an engine may answer before it
// loses on time: process and pipe latency on a busy machine. The harness
// asks it to stop (ping) at the time itself, not after the grace: an engine
// that plays by a GGF clock (NTest with "m") would otherwise think on into
// the grace whenever its clock allowed, while a self engine stops at its
// --time, and the match would no longer be at equal time (with the stop
// after the grace, NTest averaged 0.55-0.65 s at 20-36 empties in "0.5 s"
// games, Outflank 0.46 s).
func grace(t time.Duration) time.Duration { return 50*time.Millisecond + t/10 }

// clockGrace is how far past its game clock an engine may go before it
// loses on time: the pipe latency the harness measures and the engine
// does not.
const clockGrace = 250 * time.Millisecond

func (cfg *Config) moveTimeout(i int) time.Duration {
	if cfg.MoveTimeout > 0 {
		return cfg.MoveTimeout
	}
	if c := cfg.Engines[i].Clock; c > 0 {
		return wholeSeconds(c) + clockGrace // the clock it was sent
	}
	if _, t := cfg.limits(i); t > 0 {
		return 2*t + grace(t) + 2*time.Second
	}
	return 10 * time.Minute
}

func (cfg *Config) gameTimeout(i int) time.Duration {
	if cfg.GameTimeout > 0 {
		return cfg.GameTimeout
	}
	if c := cfg.Engines[i].Clock; c > 0 {
		return wholeSeconds(c) + clockGrace // the clock it was sent
	}
	if _, t := cfg.limits(i); t > 0 {
		return 40*(t+grace(t)) + 30*time.Second
	}
	return time.Hour
}

func (cfg *Config) startTimeout() time.Duration {
	if cfg.StartTimeout > 0 {
		return cfg.StartTimeout
	}
	return 30 * time.Second
}

// Run plays the match. It returns the report of the games finished; when
// ctx is cancelled it stops the games in progress (they do not count) and
// returns what it has with ctx's error. It fails at once if an engine
// cannot be started at all; later faults are forfeits.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	plan := cfg.Schedule()
	if len(plan) == 0 {
		return nil, errors.New("no openings")
	}
	rep := newReport(&cfg, plan)
	col := &collector{cfg: &cfg, rep: rep, planned: len(plan), pending: map[int]GameResult{}, half: map[int]float64{}}
	done := map[int]bool{}
	for _, p := range plan {
		done[p.Index] = false
	}
	for _, r := range cfg.Done {
		if was, ok := done[r.Index]; !ok || was {
			return nil, fmt.Errorf("game %d: not a game of this match (or its shard), or there twice", r.Index+1)
		}
		done[r.Index] = true
		col.all = append(col.all, r)
		col.pair(r)
	}
	var todo []Pairing
	for _, p := range plan {
		if !done[p.Index] {
			todo = append(todo, p)
			col.order = append(col.order, p.Index)
		}
	}
	if len(todo) == 0 {
		rep.Results = sortResults(col.all)
		rep.Summary = Summarize(rep.Results)
		return rep, nil
	}
	var logMu sync.Mutex
	ws := make([]*worker, max(1, min(cfg.Concurrency, len(todo))))
	for i := range ws {
		ws[i] = &worker{cfg: &cfg, logMu: &logMu}
	}
	defer func() {
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Go(w.close)
		}
		wg.Wait()
	}()
	// Start one process of each engine before anything else, so that a
	// wrong command or flag fails the match with a clear message.
	for i := range 2 {
		c, err := ws[0].start(ctx, i)
		if err != nil {
			return nil, fmt.Errorf("engine %s (%s): %w", letter(i), cfg.Engines[i].Text, err)
		}
		ws[0].clients[i] = c
		rep.Engines[i].Name = c.Name()
	}

	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := schedule(ctx, ws, todo)
	for d := range results {
		if col.add(d) {
			break
		}
	}
	col.flush()
	cancel()
	for range results {
	}
	rep.Results = sortResults(col.all)
	rep.Summary = Summarize(rep.Results)
	if len(col.all) < len(plan) && (cfg.SPRT == nil || cfg.SPRT.Verdict(rep.Summary.Pentanomial) == 0) {
		if err := parent.Err(); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// newReport starts the report of a match: what is planned and the engines.
func newReport(cfg *Config, plan []Pairing) *Report {
	rep := &Report{Planned: len(plan), SPRT: cfg.SPRT, Shard: cfg.Shard}
	seen := map[string]bool{}
	for _, p := range plan {
		seen[p.Opening.Name+"|"+p.Opening.Start.String()] = true
	}
	rep.Openings = len(seen)
	for i := range 2 {
		depth, t := cfg.limits(i)
		rep.Engines[i] = EngineInfo{Spec: cfg.Engines[i].Text, Label: cfg.Engines[i].Label(), Depth: depth, Time: t, Clock: cfg.Engines[i].Clock}
	}
	return rep
}

// played is a game as a worker hands it back: its result and events, or
// the error of a game abandoned when the match was stopped.
type played struct {
	res    GameResult
	events []Event
	err    error
}

// schedule plays the plan's games on the workers, each worker one game at
// a time, and sends the games as they finish; the channel is closed when
// every worker has stopped.
func schedule(ctx context.Context, ws []*worker, plan []Pairing) <-chan played {
	jobs := make(chan Pairing)
	results := make(chan played)
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Go(func() {
			for p := range jobs {
				res, events, err := w.play(ctx, p)
				select {
				case results <- played{res, events, err}:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, p := range plan {
			select {
			case jobs <- p:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	return results
}

// collector takes the finished games in the order they finish: it reports
// events and progress, hands the games to Record in game order, and runs
// the SPRT on the opening pairs.
type collector struct {
	cfg     *Config
	rep     *Report
	planned int
	all     []GameResult       // the games played before (Config.Done) and those finished
	order   []int              // the indices of the games to play, in order
	pending map[int]GameResult // finished, waiting for an earlier game to go to Record
	next    int                // the next game for Record: order[next]
	penta   [5]int             // complete pairs, for the SPRT
	half    map[int]float64    // scores of games whose twin is not in
}

// add takes one finished game; it returns true when the match is over (all
// played, or the SPRT decided).
func (c *collector) add(d played) (over bool) {
	cfg := c.cfg
	if d.err != nil {
		return false // abandoned when the match was stopped
	}
	for _, ev := range d.events {
		c.rep.Events = append(c.rep.Events, ev)
		if cfg.Event != nil {
			cfg.Event(ev)
		}
	}
	c.all = append(c.all, d.res)
	c.pending[d.res.Index] = d.res
	for c.next < len(c.order) {
		r, ok := c.pending[c.order[c.next]]
		if !ok {
			break
		}
		delete(c.pending, r.Index)
		c.next++
		if cfg.Record != nil {
			cfg.Record(r)
		}
	}
	if cfg.Progress != nil {
		cfg.Progress(Summarize(c.all))
	}
	if len(c.all) == c.planned {
		return true
	}
	if cfg.SPRT == nil || !c.pair(d.res) || cfg.SPRT.Verdict(c.penta) == 0 {
		return false
	}
	if cfg.Progress != nil {
		cfg.Progress(Summarize(c.all))
	}
	return true
}

// pair counts a game for the SPRT: it returns true when the game completes
// its opening pair.
func (c *collector) pair(r GameResult) bool {
	p := r.Index / 2
	other, ok := c.half[p]
	if !ok {
		c.half[p] = r.Score
		return false
	}
	delete(c.half, p)
	c.penta[int(math.Round(2*(other+r.Score)))]++
	return true
}

// flush hands the games finished beyond a gap (after a stop) to Record.
func (c *collector) flush() {
	for _, i := range c.order[c.next:] {
		if r, ok := c.pending[i]; ok {
			delete(c.pending, i)
			if c.cfg.Record != nil {
				c.cfg.Record(r)
			}
		}
	}
}

func sortResults(rs []GameResult) []GameResult {
	out := slices.Clone(rs)
	slices.SortFunc(out, func(a, b GameResult) int { return a.Index - b.Index })
	return out
}

// letter names engine i in reports: A or B.
func letter(i int) string { return "AB"[i : i+1] }

// worker plays games one after another with its own pair of engine
// processes, kept between games and replaced after a fault.
type worker struct {
	cfg     *Config
	clients [2]*Client
	logMu   *sync.Mutex
	game    atomic.Int64 // game being played, for the protocol log
}

func (w *worker) close() {
	for i, c := range w.clients {
		if c != nil {
			c.Close()
			w.clients[i] = nil
		}
	}
}

// start launches engine i and completes the handshake.
func (w *worker) start(ctx context.Context, i int) (*Client, error) {
	cfg := w.cfg
	sp := cfg.Engines[i]
	var log func(bool, string)
	if cfg.Log != nil {
		log = func(sent bool, line string) {
			dir := "<"
			if sent {
				dir = ">"
			}
			w.logMu.Lock()
			fmt.Fprintf(cfg.Log, "game %d %s%s %s\n", w.game.Load()+1, letter(i), dir, line)
			w.logMu.Unlock()
		}
	}
	argv := sp.Argv(cfg.Self)
	depth, t := cfg.limits(i)
	if sp.Self && t > 0 && !hasFlag(sp.Flags, "--time") {
		// Besides the clock, cap every move at the time: "outflank nboard
		// --time" is such a cap.
		argv = append(argv, "--time="+t.String())
	}
	if sp.Self && !hasFlag(sp.Flags, "--threads") {
		// "outflank nboard" searches on every core unless told otherwise;
		// in a match each self engine gets one thread, so that both sides
		// have equal resources and concurrent games do not crowd the cores.
		argv = append(argv, "--threads=1")
	}
	c, err := Start(argv, sp.Dir, log)
	if err != nil {
		return nil, &Fault{Kind: FaultStart, Detail: err.Error()}
	}
	if err := c.Handshake(ctx, depth, time.Now().Add(cfg.startTimeout())); err != nil {
		c.Kill()
		return nil, err
	}
	return c, nil
}

// play plays one game. A forfeit is a result; an error means the game was
// abandoned because the match was stopped.
func (w *worker) play(ctx context.Context, p Pairing) (GameResult, []Event, error) {
	cfg := w.cfg
	w.game.Store(int64(p.Index))
	g := &bitboard.Game{Start: p.Opening.Start}
	for _, m := range p.Opening.Moves {
		g.Moves = append(g.Moves, bitboard.GameMove{Square: m})
	}
	color := [2]int{p.Black, 1 - p.Black} // engine playing black, white
	label := func(i int) string { return ggfValue(cfg.Engines[i].Label()) }
	g.Props = []bitboard.Prop{
		{Key: "PC", Value: "outflank match"},
		{Key: "DT", Value: time.Now().UTC().Format("2006-01-02 15:04:05 MST")},
		{Key: "PB", Value: label(color[0])},
		{Key: "PW", Value: label(color[1])},
		{Key: "RE", Value: "?"},
		{Key: "TY", Value: "8"},
		{Key: GameKey, Value: fmt.Sprint(p.Index + 1)},
	}
	w.setClocks(g, color)
	res := GameResult{Index: p.Index, Opening: p.Opening.Name, Black: p.Black, Record: g}
	var events []Event

	forfeit := func(i int, err error) (GameResult, []Event, error) {
		f, ok := err.(*Fault)
		if !ok {
			return res, nil, err // the match was stopped
		}
		if c := w.clients[i]; c != nil {
			c.Kill()
			w.clients[i] = nil
		}
		res.Forfeit = &Forfeit{Engine: i, Fault: *f, Ply: len(g.Moves)}
		res.Score = float64(i) // A forfeits: 0; B forfeits: 1
		blackLost := color[0] == i
		flag := ":r"
		if f.Kind == FaultTimeout {
			flag = ":t"
		}
		if blackLost {
			g.SetProp("RE", "-64.000"+flag)
		} else {
			g.SetProp("RE", "+64.000"+flag)
		}
		events = append(events, Event{Game: p.Index, Engine: i, Text: fmt.Sprintf(
			"game %d (opening %s, %s black): engine %s (%s) loses after %d moves: %v",
			p.Index+1, p.Opening.Name, letter(color[0]), letter(i), cfg.Engines[i].Label(), len(g.Moves), f)})
		return res, events, nil
	}

	for i := range 2 {
		if w.clients[i] == nil {
			c, err := w.start(ctx, i)
			if err != nil {
				return forfeit(i, err)
			}
			w.clients[i] = c
		}
	}
	var used [2]time.Duration
	syncAll := func() (int, error) {
		for i, c := range w.clients {
			// RE is "?" until the end, so the record is what "set game" sends.
			if err := c.Sync(g, g.GGF); err != nil {
				return i, err
			}
		}
		return 0, nil
	}
	if i, err := syncAll(); err != nil {
		return forfeit(i, err)
	}
	for {
		pos := g.Current()
		if pos.GameOver() {
			break
		}
		if pos.MustPass() {
			// The GUI passes for an engine that has no move.
			g.Moves = append(g.Moves, bitboard.GameMove{Square: bitboard.PassMove})
			if i, err := syncAll(); err != nil {
				return forfeit(i, err)
			}
			continue
		}
		side := color[pos.ToMove]
		now := time.Now()
		var lim Limits
		lim.Hard = now.Add(min(cfg.moveTimeout(side), cfg.gameTimeout(side)-used[side]))
		_, moveTime := cfg.limits(side)
		if moveTime > 0 {
			lim.Soft = now.Add(moveTime)
		}
		nodes := w.clients[side].Nodes
		m, dt, err := w.clients[side].Go(ctx, lim)
		used[side] += dt
		if f, ok := err.(*Fault); ok && f.Kind == FaultTimeout && cfg.Engines[side].Clock > 0 {
			f.Detail += fmt.Sprintf(" (over its %s clock: %s used before this move)", cfg.Engines[side].Clock, used[side].Round(time.Millisecond))
		} else if f, ok := err.(*Fault); ok && f.Kind == FaultTimeout && lim.Soft.IsZero() {
			f.Detail += fmt.Sprintf(" (limits: %s a move, %s a game, %s of it used)",
				cfg.moveTimeout(side), cfg.gameTimeout(side), used[side].Round(time.Millisecond))
		}
		if err != nil {
			return forfeit(side, err)
		}
		if err := checkAnswer(pos, m.Square); err != nil {
			return forfeit(side, err)
		}
		res.Moves[side]++
		res.Think[side] += dt
		res.Longest[side] = max(res.Longest[side], dt)
		if moveTime > 0 && dt > moveTime {
			res.Over[side]++
			if dt > moveTime+LateMargin(moveTime) {
				res.Late[side]++
			}
		}
		res.Nodes[side] += w.clients[side].Nodes - nodes
		m.Time, m.HasTime = dt.Seconds(), true
		g.Moves = append(g.Moves, m)
		if i, err := syncAll(); err != nil {
			return forfeit(i, err)
		}
	}
	blackMargin := 2*g.Current().BlackScoreEmptiesToWinner() - 64
	g.SetProp("RE", fmt.Sprintf("%+.3f", float64(blackMargin)))
	res.Margin = blackMargin
	if p.Black == 1 {
		res.Margin = -blackMargin
	}
	switch {
	case res.Margin > 0:
		res.Score = 1
	case res.Margin == 0:
		res.Score = 0.5
	}
	return res, events, nil
}

// checkAnswer returns the fault of an engine that answered sq in pos: a
// pass, or a square that is not a legal move (nil if it is one).
func checkAnswer(pos bitboard.Position, sq bitboard.Square) error {
	if sq == bitboard.PassMove || !pos.IsLegal(sq) {
		return &Fault{Kind: FaultIllegal, Detail: fmt.Sprintf("answered %s; legal moves: %s", sq.Upper(), bitboard.SquaresString(pos.Moves()))}
	}
	return nil
}

// setClocks gives each engine that plays on time a GGF clock for the game:
// its clock= time, or its time per move for each move it can have left; TI
// when both engines have the same, else TB and TW. NBoard engines budget their moves from
// this clock and the times of the moves played, which the harness puts in
// every "move" and "set game" it sends, as a GUI does.
func (w *worker) setClocks(g *bitboard.Game, color [2]int) {
	movesLeft := time.Duration(g.Current().Empties()+1) / 2
	var ti [2]string
	for c, i := range color {
		if _, t := w.cfg.limits(i); t > 0 {
			ti[c] = clock(movesLeft * t)
		}
		if t := w.cfg.Engines[i].Clock; t > 0 {
			ti[c] = clock(t)
		}
	}
	switch {
	case ti[0] != "" && ti[0] == ti[1]:
		g.SetProp("TI", ti[0])
	default:
		if ti[0] != "" {
			g.SetProp("TB", ti[0])
		}
		if ti[1] != "" {
			g.SetProp("TW", ti[1])
		}
	}
}

// clock writes a duration as a GGF clock, "m:ss": whole seconds, rounded
// up (wholeSeconds). GGF clocks hold whole seconds, and engines read a
// fraction otherwise: NTest took "0:03.250" for 430 s. An engine on a time
// per move is still held to that time by the harness's own stop (ping at
// its time), whatever the rounding adds to its clock.
func clock(d time.Duration) string {
	s := int64(wholeSeconds(d) / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// wholeSeconds rounds d up to whole seconds: the clock an engine is sent,
// and so the one it is held to (clock=).
func wholeSeconds(d time.Duration) time.Duration {
	return (d + time.Second - 1) / time.Second * time.Second
}

func hasFlag(flags []string, name string) bool {
	for _, f := range flags {
		if f == name || strings.HasPrefix(f, name+"=") {
			return true
		}
	}
	return false
}

// ggfValue makes s safe inside a GGF property (no ']').
func ggfValue(s string) string {
	return strings.NewReplacer("]", ")", "[", "(", "\n", " ").Replace(s)
}
