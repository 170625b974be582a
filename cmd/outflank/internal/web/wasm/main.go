//go:build js && wasm

// Command wasm is Outflank's engine for the browser build of the web board
// (go run ./cmd/release site): compiled to WebAssembly, it runs in a Web
// Worker (site/worker.js), which fetches the weights and the book as files
// of their own while it starts: it waits for them (await), the book first,
// and serves the page once the book is read. The page's API
// requests arrive as messages and are served by package web's handler,
// as "outflank web" serves them over HTTP (web.Exchange).
package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"syscall/js"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/book"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/web"
	"github.com/outflank-othello/outflank/eval"
	"github.com/outflank-othello/outflank/search"
)

// hashMB is the transposition table's size: a phone's browser gives a
// page a few hundred MiB at most.
const hashMB = 64

func main() {
	g := js.Global()
	st := stamps{g.Get("performance"), map[string]any{}}
	st.stamp("main")
	if err := start(g, st); err != nil {
		g.Call("outflankFailed", err.Error())
		return
	}
	select {} // serve requests for as long as the worker lives
}

// stamps records when each step of the engine's start ended, on the
// worker's clock (performance.now), for worker.js to report.
type stamps struct {
	perf js.Value
	m    map[string]any
}

func (s stamps) stamp(name string) { s.m[name] = s.perf.Call("now").Int() }

func start(g js.Value, st stamps) error {
	// The start allocates the weights' tables and the book, about 100 MB
	// that all stay: collecting garbage while the heap grows to them would
	// only mark them again and again.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	// The book first: the page is served as soon as it is read, so that
	// the book's moves (the first ones of every game from the start) are
	// played while the weights are still on their way; a search waits
	// for them (lateSearcher).
	var bk play.Book
	data, err := await(g.Get("outflankBook"))
	if err != nil {
		return fmt.Errorf("the book: %w", err)
	}
	if len(data) > 0 {
		b, err := book.Read(data)
		if err != nil {
			return fmt.Errorf("the book: %w", err)
		}
		// No evaluation: the web board never learns into its book
		// (learning is NBoard's), the one use a book has for it.
		bk = engine.BookOf(b, nil, 0)
	}
	st.stamp("book")
	g.Delete("outflankBook")
	searcher := &lateSearcher{ready: make(chan struct{})}
	srv := web.New(web.Config{Searcher: searcher, Book: bk,
		Level: 12, Name: "Outflank", Version: cli.Version() + " (WebAssembly)", Threads: 1})
	x := web.NewExchange(srv)
	g.Set("outflankServe", js.FuncOf(func(this js.Value, args []js.Value) any {
		id, method, path, body := args[0].Int(), args[1].String(), args[2].String(), args[3].String()
		// The handler must not run here: a JavaScript callback that
		// blocks would keep the worker from its next message.
		go x.Serve(id, method, path, []byte(body), poster{g, id})
		return nil
	}))
	g.Set("outflankCancel", js.FuncOf(func(this js.Value, args []js.Value) any {
		x.Cancel(args[0].Int())
		return nil
	}))
	st.stamp("served")
	g.Call("outflankReady", st.m)

	wb, err := await(g.Get("outflankWeights"))
	if err != nil {
		return fmt.Errorf("the weights: %w", err)
	}
	ev, err := eval.Parse(wb)
	if err != nil {
		return fmt.Errorf("the weights: %w", err)
	}
	g.Delete("outflankWeights")
	st.stamp("weights")
	searcher.set(engine.NewSearcher(search.Options{HashMB: hashMB, Threads: 1, Eval: ev}))
	st.stamp("engine")
	g.Call("outflankLoaded", st.m)
	return nil
}

// lateSearcher is the engine's searcher once the weights are read: the
// page is served before, and a search asked for meanwhile waits for
// them (a second or so). If the weights fail, the page is told
// (outflankFailed) and no search ever starts.
type lateSearcher struct {
	ready chan struct{} // closed when s is set
	s     play.Searcher
}

func (l *lateSearcher) set(s play.Searcher) {
	l.s = s
	close(l.ready)
}

// Search waits for the engine even when ctx is done already, so that the
// result is always the engine's own (a legal move, or none).
func (l *lateSearcher) Search(ctx context.Context, pos bitboard.Position, lim search.Limits, report func(search.Info)) search.Info {
	<-l.ready
	return l.s.Search(ctx, pos, lim, report)
}

// Clear has nothing to forget before the engine exists: its table starts
// empty.
func (l *lateSearcher) Clear() {
	select {
	case <-l.ready:
		l.s.Clear()
	default:
	}
}

// await waits for the promise p of a Uint8Array (worker.js fetches the
// data while the engine starts) and returns a copy of its bytes.
func await(p js.Value) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	then := js.FuncOf(func(this js.Value, args []js.Value) any {
		b := make([]byte, args[0].Get("length").Int())
		js.CopyBytesToGo(b, args[0])
		done <- result{b: b}
		return nil
	})
	defer then.Release()
	fail := js.FuncOf(func(this js.Value, args []js.Value) any {
		done <- result{err: errors.New(js.Global().Get("String").Invoke(args[0]).String())}
		return nil
	})
	defer fail.Release()
	p.Call("then", then, fail)
	r := <-done
	return r.b, r.err
}

// poster sends a response's parts to the page.
type poster struct {
	g  js.Value
	id int
}

func (p poster) Head(status int, contentType string) {
	p.g.Call("postMessage", map[string]any{"id": p.id, "type": "head", "status": status, "contentType": contentType})
}

func (p poster) Chunk(b []byte) {
	p.g.Call("postMessage", map[string]any{"id": p.id, "type": "chunk", "data": string(b)})
}

func (p poster) End() {
	p.g.Call("postMessage", map[string]any{"id": p.id, "type": "end"})
}
