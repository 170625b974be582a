package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"sync"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// result is a search result or progress report as the page reads it.
// Scores are final disc differences for the side to move (-64..64).
type result struct {
	Depth       int  `json:"depth"`
	Selectivity int  `json:"selectivity"`   // percent confidence of selective cuts; 100: none (as "18@95%")
	Exact       bool `json:"exact"`         // the score is proven
	WLD         bool `json:"wld,omitempty"` // proven only as win/draw/loss
	Score       int  `json:"score"`
	// Steady is the score with the odd-even swing of midgame depths taken
	// out (search.Info.Steady); the page shows it beside a midgame score.
	Steady float64     `json:"steady"`
	Best   string      `json:"best,omitempty"` // "" when the game is over; "PA" for a pass
	PV     []string    `json:"pv"`
	Moves  []moveScore `json:"moves,omitempty"` // hints: every legal move, best first
	// Values (hints): each move's one value, the book's or the search's,
	// whichever looked deeper, best first.
	Values  []hintValue `json:"values,omitempty"`
	Nodes   uint64      `json:"nodes"`
	Millis  int64       `json:"ms"`
	Book    bool        `json:"book,omitempty"`    // an opening-book move, not searched
	Stopped bool        `json:"stopped,omitempty"` // the page stopped the search before it finished
}

type moveScore struct {
	Move  string `json:"move"`
	Score int    `json:"score"`
}

// hintValue is a move's value as the page shows it on its square.
type hintValue struct {
	Move   string  `json:"move"`
	Score  float64 `json:"score"`
	Source string  `json:"source"` // "book 29@73%", "depth 12@73%", "exact"
	Book   bool    `json:"book,omitempty"`
	Exact  bool    `json:"exact,omitempty"`
}

type bookMove struct {
	Move  string  `json:"move"`
	Score float64 `json:"score"` // expected final disc difference for the side that plays it
	Games int     `json:"games"`
	Basis string  `json:"basis"` // what the score rests on: "depth 29@73%" or "137 games"
}

// searchRequest asks for a search of the game's last position: "move"
// (the engine's move), "hint" (every legal move scored), "solve" (the
// exact score and a best line) or "analyze" (every position of the game
// scored, for the evaluation graph).
type searchRequest struct {
	gameRequest
	Mode  string  `json:"mode"`
	Level int     `json:"level"` // 0: the server's default
	Time  float64 `json:"time"`  // seconds per move (move and hint); 0: play by level
	// Ponder (move): after answering, think on the player's time about
	// the position after the engine's move, until the next request.
	Ponder bool `json:"ponder"`
}

// startEvent opens every search stream.
type startEvent struct {
	Mode    string     `json:"mode"`
	Empties int        `json:"empties"`
	Book    []bookMove `json:"book,omitempty"`
}

// evalEvent is one position's score in an "analyze" stream, from Black's
// side as the graph draws it.
type evalEvent struct {
	Ply   int  `json:"ply"`
	Black int  `json:"black"`
	Exact bool `json:"exact"`
	Book  bool `json:"book,omitempty"` // the opening book's value (its search went deeper)
	Depth int  `json:"depth"`
}

var (
	errStopped    = errors.New("stopped by the page")
	errSuperseded = errors.New("another search started")
)

// running is a search that has been asked for.
type running struct{ cancel context.CancelCauseFunc }

// stopCurrent stops the running search, if any.
func (s *Server) stopCurrent(cause error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current != nil {
		s.current.cancel(cause)
	}
}

func (s *Server) stop(w http.ResponseWriter, r *http.Request) {
	s.stopCurrent(errStopped)
	w.WriteHeader(http.StatusNoContent)
}

// check validates the request and returns the game and its settings.
func (q searchRequest) check(defaultLevel int) (*bitboard.Game, settings, error) {
	switch q.Mode {
	case "move", "hint", "solve", "analyze":
	default:
		return nil, settings{}, fmt.Errorf("mode %q: want move, hint, solve or analyze", q.Mode)
	}
	if q.Ponder && q.Mode != "move" {
		return nil, settings{}, fmt.Errorf("ponder: only with mode move (mode %q)", q.Mode)
	}
	st := settings{Level: q.Level}
	if st.Level == 0 {
		st.Level = defaultLevel
	}
	if st.Level < 1 || st.Level > 60 {
		return nil, settings{}, fmt.Errorf("level %d: want 1 to 60", q.Level)
	}
	if !(q.Time >= 0 && q.Time <= 3600) { // NaN fails too
		return nil, settings{}, fmt.Errorf("time %v: want 0 to 3600 seconds", q.Time)
	}
	st.Time = time.Duration(q.Time * float64(time.Second))
	g, err := q.game()
	if err != nil {
		return nil, settings{}, err
	}
	if pos := g.Current(); pos.GameOver() && q.Mode != "analyze" {
		return nil, settings{}, fmt.Errorf("the game is over (%s): nothing to search", resultText(pos))
	}
	return g, st, nil
}

// search streams a search as server-sent events: "start", then "info" as
// the search deepens ("eval" per position when analysing), "tick" every
// half second so the page can show the time, and "done" with the result.
// The search stops when the page calls /api/stop (done says stopped), when
// another search starts, or when the page goes away (the request's
// context).
func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	var q searchRequest
	if !decode(w, r, &q) {
		return
	}
	g, st, err := q.check(s.cfg.Level)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	ctx, cancel := context.WithCancelCause(r.Context())
	defer cancel(nil)
	run := &running{cancel: cancel}
	s.mu.Lock()
	if s.current != nil {
		s.current.cancel(errSuperseded)
	}
	s.current = run
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if s.current == run {
			s.current = nil
		}
		s.mu.Unlock()
	}()

	ev := newStream(w, cancel, s.limits.write)
	pos := g.Current()
	ev.send("start", startEvent{Mode: q.Mode, Empties: pos.Empties(), Book: s.a.bookMoves(pos)})

	// Wait for the engine: the search this one replaces stops within
	// milliseconds of its cancel.
	select {
	case s.engineFree <- struct{}{}:
		defer func() { <-s.engineFree }()
	case <-ctx.Done():
		ev.send("done", result{Stopped: true})
		return
	}
	stopTicks := ev.ticks(500 * time.Millisecond)
	report := func(res result) { ev.send("info", res) }
	var res result
	switch q.Mode {
	case "move":
		res = s.a.engineMove(ctx, pos, st, report)
	case "hint":
		res = s.a.hint(ctx, pos, st, report)
	case "solve":
		res = s.a.solve(ctx, pos, report)
	case "analyze":
		res = s.analyze(ctx, g, st, ev)
	}
	stopTicks()
	res.Stopped = ctx.Err() != nil
	ev.send("done", res)
	if q.Ponder && !res.Stopped && res.Best != "" {
		if sq, err := bitboard.ParseSquare(res.Best); err == nil && sq.IsBoard() {
			s.ponder(run, pos.Play(sq), st)
		}
	}
}

// ponderLimit bounds thinking on the player's time, so that a page left
// open with the player to move stops costing a core.
const ponderLimit = 3 * time.Minute

// ponder thinks about pos, the position after the engine's answer, on the
// player's time (play.Player.Ponder: the reply the answer expects, which
// the next move goes on from if the player makes it), in place of the search run that
// answered: it waits for the engine that run releases, and stops as any
// search does, at once, when the next request starts a search or a new
// game, or on /api/stop; or after ponderLimit.
func (s *Server) ponder(after *running, pos bitboard.Position, st settings) {
	ctx, cancel := context.WithCancelCause(context.Background())
	run := &running{cancel: cancel}
	s.mu.Lock()
	if s.current != after { // a newer request came first
		s.mu.Unlock()
		cancel(nil)
		return
	}
	s.current = run
	s.mu.Unlock()
	s.pondering.Add(1)
	go func() {
		defer s.pondering.Done()
		defer cancel(nil)
		defer func() {
			s.mu.Lock()
			if s.current == run {
				s.current = nil
			}
			s.mu.Unlock()
		}()
		select {
		case s.engineFree <- struct{}{}:
			defer func() { <-s.engineFree }()
		case <-ctx.Done():
			return
		}
		tctx, stop := context.WithTimeout(ctx, ponderLimit)
		defer stop()
		s.a.moverFor(st).Ponder(tctx, pos)
	}()
}

// analyze scores every position of g from the last to the first (the
// later positions are quicker and fill the table for the earlier ones),
// sending one "eval" event each; the result is that of the first position.
func (s *Server) analyze(ctx context.Context, g *bitboard.Game, st settings, ev *stream) result {
	var res result
	positions := g.Positions()
	s.a.analyze(ctx, positions, st, func(i int, r result) {
		res = r
		black := r.Score
		if positions[i].ToMove == bitboard.White {
			black = -black
		}
		ev.send("eval", evalEvent{Ply: i, Black: black, Exact: r.Exact, Book: r.Book, Depth: r.Depth})
	})
	return res
}

// stream writes server-sent events; reports may come from the search's
// goroutine and ticks from their own, so writes are serialised. A failed
// write (the page went away) cancels the search.
type stream struct {
	mu     sync.Mutex
	w      http.ResponseWriter
	rc     *http.ResponseController
	cancel context.CancelCauseFunc
	start  time.Time
	write  time.Duration // each event's write deadline
}

func newStream(w http.ResponseWriter, cancel context.CancelCauseFunc, write time.Duration) *stream {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // proxies must not hold events back
	w.WriteHeader(http.StatusOK)
	return &stream{w: w, rc: http.NewResponseController(w), cancel: cancel, start: time.Now(), write: write}
}

func (e *stream) send(event string, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // our own types always marshal
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	// A stream outlives the server's WriteTimeout; each event gets it
	// afresh, so a page that stops reading is still cut off.
	e.rc.SetWriteDeadline(time.Now().Add(e.write))
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, b); err == nil {
		err = e.rc.Flush()
	}
	if err != nil {
		e.cancel(fmt.Errorf("page went away: %w", err))
	}
}

// ticks sends the time elapsed every d until the returned function is
// called; it returns after the last tick is written.
func (e *stream) ticks(d time.Duration) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				e.send("tick", map[string]int64{"ms": time.Since(e.start).Milliseconds()})
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// roundScore keeps book scores readable on the page (and JSON-safe: a
// damaged book's NaN becomes 0).
func roundScore(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return math.Round(v*100) / 100
}
