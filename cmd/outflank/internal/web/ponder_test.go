package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
	"github.com/outflank-othello/outflank/search"
)

// recorder is a Slow searcher that notes each search's position and limits.
type recorder struct {
	playtest.Slow
	mu     sync.Mutex
	pos    []bitboard.Position
	limits []search.Limits
}

func (r *recorder) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	r.mu.Lock()
	r.pos, r.limits = append(r.pos, pos), append(r.limits, lim)
	r.mu.Unlock()
	return r.Slow.Search(ctx, pos, lim, report)
}

// waitPonders waits for srv's ponders to end.
func waitPonders(t *testing.T, srv *Server) {
	t.Helper()
	done := make(chan struct{})
	go func() { srv.pondering.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the ponder did not stop")
	}
}

// TestPonder: a move asked with ponder answers as any move does, then the
// engine thinks about the position after its move with no time limit,
// until the next search (which starts at once), a stop or a new game.
func TestPonder(t *testing.T) {
	rec := &recorder{Slow: playtest.Slow{Started: make(chan struct{}, 8)}}
	srv := New(Config{Searcher: rec})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	after := bitboard.Start().Play(sq("f5"))
	// ponder asks for the engine's move with ponder and returns the
	// position after it and the one pondered: the searches after the
	// move's own run until one has no time limit (play.Player.Ponder may
	// first pick the reply to expect by a short search).
	ponder := func() (answered, pondered bitboard.Position) {
		t.Helper()
		rec.mu.Lock()
		first := len(rec.pos)
		rec.mu.Unlock()
		_, done := collect(t, startSearch(t, context.Background(), ts, `{"mode":"move","moves":["f5"],"time":0.05,"ponder":true}`))
		if done.Stopped || !after.IsLegal(sq(done.Best)) {
			t.Fatalf("move: %+v", done)
		}
		waitStart(t, rec.Started) // the move's search
		for range 3 {
			waitStart(t, rec.Started)
			rec.mu.Lock()
			n := len(rec.pos)
			lim, pos := rec.limits[n-1], rec.pos[n-1]
			rec.mu.Unlock()
			if n > first+1 && lim.Time == 0 && lim.Soft == 0 {
				return after.Play(sq(done.Best)), pos
			}
		}
		t.Fatal("no search without a time limit after the move")
		return
	}
	// The engine ponders the position after a reply to its move.
	answered, got := ponder()
	reply := false
	for m := bitboard.Square(0); m < 64; m++ {
		reply = reply || answered.IsLegal(m) && answered.Play(m) == got
	}
	if !reply {
		t.Errorf("pondered %v, not a reply to the engine's move (%v)", got, answered)
	}
	// The next search takes the engine from the ponder at once.
	start := time.Now()
	ch := startSearch(t, context.Background(), ts, `{"mode":"hint","moves":["f5"]}`)
	waitStart(t, rec.Started)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the hint started %v after it was asked", d)
	}
	waitPonders(t, srv)
	post(t, ts, "/api/stop", "")
	if _, done := collect(t, ch); !done.Stopped {
		t.Errorf("hint: %+v", done)
	}

	// A stop ends a ponder; so does a new game.
	ponder()
	if code, b := post(t, ts, "/api/stop", ""); code != http.StatusNoContent {
		t.Fatalf("stop: %d %s", code, b)
	}
	waitPonders(t, srv)
	ponder()
	postState(t, ts, "/api/new", `{}`)
	waitPonders(t, srv)

	// Without ponder, nothing runs after the move.
	_, done := collect(t, startSearch(t, context.Background(), ts, `{"mode":"move","moves":["f5"],"time":0.05}`))
	waitStart(t, rec.Started)
	waitPonders(t, srv)
	select {
	case <-rec.Started:
		t.Errorf("a search started after a move without ponder (%+v)", done)
	case <-time.After(100 * time.Millisecond):
	}
	if code, _ := post(t, ts, "/api/search", `{"mode":"hint","ponder":true}`); code != http.StatusBadRequest {
		t.Errorf("ponder with a hint: %d, want 400", code)
	}
}
