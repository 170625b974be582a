//go:build js && wasm

// Command wasm is Outflank's engine for the browser build of the web board
// (go run ./cmd/release site): compiled to WebAssembly, it runs in a Web
// Worker (site/worker.js), which fetches the weights and the book as files
// of their own and hands them over before starting it. The page's API
// requests arrive as messages and are served by package web's handler,
// as "outflank web" serves them over HTTP (web.Exchange).
package main

import (
	"fmt"
	"syscall/js"
	"time"

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
	if err := start(g); err != nil {
		g.Call("outflankFailed", err.Error())
		return
	}
	select {} // serve requests for as long as the worker lives
}

func start(g js.Value) error {
	t0 := time.Now()
	ev, err := eval.Parse(bytesOf(g.Get("outflankWeights")))
	if err != nil {
		return fmt.Errorf("the weights: %w", err)
	}
	t1 := time.Now()
	var bk play.Book
	if data := bytesOf(g.Get("outflankBook")); len(data) > 0 {
		b, err := book.Read(data)
		if err != nil {
			return fmt.Errorf("the book: %w", err)
		}
		bk = engine.BookOf(b, ev, 0)
	}
	t2 := time.Now()
	g.Delete("outflankWeights")
	g.Delete("outflankBook")
	srv := web.New(web.Config{Searcher: engine.NewSearcher(search.Options{HashMB: hashMB, Threads: 1, Eval: ev}), Book: bk,
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
	g.Call("outflankReady", map[string]any{"weights": t1.Sub(t0).Milliseconds(), "book": t2.Sub(t1).Milliseconds()})
	return nil
}

func bytesOf(v js.Value) []byte {
	if v.IsUndefined() || v.IsNull() {
		return nil
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
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
