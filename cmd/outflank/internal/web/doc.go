// Package web is Outflank's board in the browser: an HTTP server, started
// by "outflank web", that serves one page (embedded in the binary, no
// network needed) on which a person plays against the engine, sets up and
// imports positions, reads hints and exact solves, and walks through a game
// with its evaluation graph.
//
// The page keeps the game (a start board and the moves); the server keeps
// no game state. Every request carries the game: POST /api/game checks it
// and returns every position, /api/parse reads a pasted GGF record, board
// string or transcript, /api/new sets up a (handicap) start, and
// /api/search streams a search as server-sent events until it finishes,
// /api/stop stops it, or the page closes the request. Rules, parsing and
// searching are the engine's own (package bitboard and the play layer), so
// the JavaScript only draws.
//
// The browser build (go run ./cmd/release site) serves the same page with
// no server: its engine, package web/wasm, runs this handler in a Web
// Worker and passes it the page's requests as messages (Exchange).
//
// Errors are a 4xx status with {"error": "..."}; request bodies are capped;
// the server answers only requests naming its own address (on loopback a
// loopback name; beyond it the listen address or Config.AllowHosts), which
// defeats DNS rebinding, refuses requests made by other sites' pages, and
// beyond loopback asks every request for Config.Token.
package web
