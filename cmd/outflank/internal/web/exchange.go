package web

import (
	"bytes"
	"context"
	"net/http"
	"sync"
)

// This file serves the page's API without a network, for the browser
// build (package web/wasm): there the engine runs in a Web Worker, and the
// page's requests arrive as messages. Each is served by the same handler
// as over HTTP, and its answer goes back in the parts the page's fetch
// stand-in rebuilds a Response from: the status, the body's chunks as
// the handler flushes them (a search's events), the end.

// Sink receives one response in parts.
type Sink interface {
	Head(status int, contentType string)
	Chunk(p []byte)
	End()
}

// Exchange serves requests given as values to a Handler, usually a
// *Server; requests may run at once, each on its own goroutine.
type Exchange struct {
	h       http.Handler
	mu      sync.Mutex
	cancels map[int]context.CancelFunc
}

// NewExchange returns an Exchange that serves with h.
func NewExchange(h http.Handler) *Exchange {
	return &Exchange{h: h, cancels: map[int]context.CancelFunc{}}
}

// Serve serves one request (id names it for Cancel) and returns when its
// response has ended. path is the page's relative path ("api/search").
func (x *Exchange) Serve(id int, method, path string, body []byte, sink Sink) {
	ctx, cancel := context.WithCancel(context.Background())
	x.mu.Lock()
	x.cancels[id] = cancel
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		delete(x.cancels, id)
		x.mu.Unlock()
		cancel()
	}()
	w := &sinkWriter{sink: sink, header: http.Header{}}
	defer w.end()
	r, err := http.NewRequestWithContext(ctx, method, "http://worker/"+path, bytes.NewReader(body))
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	if len(body) > 0 {
		r.Header.Set("Content-Type", "application/json")
	}
	x.h.ServeHTTP(w, r)
}

// Cancel ends request id as a closed connection would: a search stops.
func (x *Exchange) Cancel(id int) {
	x.mu.Lock()
	cancel := x.cancels[id]
	x.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// sinkWriter is the http.ResponseWriter (and Flusher) of an Exchange
// request: the body is passed on at each flush and at the end.
type sinkWriter struct {
	sink   Sink
	header http.Header
	headed bool
	buf    bytes.Buffer
}

func (w *sinkWriter) Header() http.Header { return w.header }

func (w *sinkWriter) WriteHeader(status int) {
	if w.headed {
		return
	}
	w.headed = true
	w.sink.Head(status, w.header.Get("Content-Type"))
}

func (w *sinkWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.buf.Write(p)
}

func (w *sinkWriter) Flush() {
	w.WriteHeader(http.StatusOK)
	if w.buf.Len() > 0 {
		w.sink.Chunk(bytes.Clone(w.buf.Bytes()))
		w.buf.Reset()
	}
}

func (w *sinkWriter) end() {
	w.Flush()
	w.sink.End()
}
