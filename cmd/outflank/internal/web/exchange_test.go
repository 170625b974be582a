package web

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// recordSink keeps a response's parts in order.
type recordSink struct {
	mu     sync.Mutex
	status int
	ctype  string
	chunks []string
	parts  []string // "head", "chunk", "end"
	first  chan struct{}
}

func newRecordSink() *recordSink { return &recordSink{first: make(chan struct{})} }

func (s *recordSink) Head(status int, ctype string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.ctype = status, ctype
	s.parts = append(s.parts, "head")
}

func (s *recordSink) Chunk(p []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.chunks) == 0 {
		close(s.first)
	}
	s.chunks = append(s.chunks, string(p))
	s.parts = append(s.parts, "chunk")
}

func (s *recordSink) End() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parts = append(s.parts, "end")
}

func (s *recordSink) body() string { return strings.Join(s.chunks, "") }

// TestExchange serves the page's API as the browser build's worker does:
// answers and errors arrive whole with their status, a search's events as
// separate chunks as they happen, and Cancel stops a search at once.
func TestExchange(t *testing.T) {
	x := NewExchange(New(Config{Searcher: search.New(search.Options{HashMB: 4, Eval: eval.Simple{}}), Level: 4, Version: "test"}))

	s := newRecordSink()
	x.Serve(1, "GET", "api/info", nil, s)
	if s.status != 200 || s.ctype != "application/json" || !strings.Contains(s.body(), `"version":"test"`) || strings.Join(s.parts, " ") != "head chunk end" {
		t.Errorf("api/info: %d %q %q, parts %v", s.status, s.ctype, s.body(), s.parts)
	}

	s = newRecordSink()
	x.Serve(2, "POST", "api/game", []byte(`{"moves":["f5","a1"]}`), s)
	if s.status != 400 || !strings.Contains(s.body(), `"error":"move 2 (a1) illegal`) {
		t.Errorf("an illegal move: %d %q", s.status, s.body())
	}

	// FFO #1, 14 empties: black's best is g8, +18.
	s = newRecordSink()
	x.Serve(3, "POST", "api/search", []byte(`{"start":"`+ffo1[:64]+` X","mode":"solve"}`), s)
	body := s.body()
	if s.status != 200 || s.ctype != "text/event-stream" || len(s.chunks) < 2 ||
		!strings.HasPrefix(s.chunks[0], "event: start\n") || !strings.Contains(s.chunks[len(s.chunks)-1], "event: done\n") ||
		!strings.Contains(body, `"exact":true,"score":18`) || !strings.Contains(body, `"best":"g8"`) {
		t.Errorf("solve: %d %q, %d chunks: %q", s.status, s.ctype, len(s.chunks), body)
	}

	// A search that would run for minutes, cancelled after its start.
	s = newRecordSink()
	done := make(chan struct{})
	go func() {
		x.Serve(4, "POST", "api/search", []byte(`{"mode":"hint","level":60}`), s)
		close(done)
	}()
	<-s.first
	start := time.Now()
	x.Cancel(4)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled search still runs after 10 s")
	}
	if !strings.Contains(s.body(), `"stopped":true`) || s.parts[len(s.parts)-1] != "end" {
		t.Errorf("cancelled search: %q, parts %v", s.body(), s.parts)
	}
	t.Logf("stopped %v after the cancel", time.Since(start))
	x.Cancel(99) // unknown: nothing happens
}
