package web

import (
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
)

//go:embed static
var static embed.FS

// maxBody caps every request body: a GGF record of a whole game is about
// 2 KiB, so 64 KiB leaves room for comments and clocks while a runaway
// upload is refused before it is read.
const maxBody = 64 << 10

// Server serves the page and its API. One engine serves every page: a new
// search stops the one running (the newest request is what the person
// looks at), and searches run one at a time.
type Server struct {
	cfg Config
	a   analyst
	mux *http.ServeMux

	engineFree chan struct{} // holds a token while a search uses the engine

	mu      sync.Mutex // guards current
	current *running   // the search (or ponder) running or waiting for the engine
	// pondering counts the ponders running (tests wait for them to end).
	pondering sync.WaitGroup

	// listenIP is the address Serve listens on (nil when the server is
	// used as a handler only). Requests must name it, localhost or one of
	// Config.AllowHosts in their Host header, which defeats DNS rebinding
	// (another site's name resolved to this machine's address, so that the
	// visitor's browser treats the engine as that site's).
	listenIP net.IP

	limits limits // the constants of conns.go; tests shorten them
	conns  atomic.Pointer[connLimiter]
}

type limits struct {
	maxConns, perClient           int
	readHeader, read, write, idle time.Duration
}

// New returns a server for cfg.
func New(cfg Config) *Server {
	if cfg.Level < 1 || cfg.Level > 60 {
		cfg.Level = 12
	}
	if cfg.Name == "" {
		cfg.Name = "Outflank"
	}
	s := &Server{cfg: cfg, a: analyst{s: cfg.Searcher, book: cfg.Book, mover: &play.Player{Engine: cfg.Searcher, Book: cfg.Book}}, mux: http.NewServeMux(),
		engineFree: make(chan struct{}, 1),
		limits:     limits{MaxConns, MaxConnsPerClient, ReadHeaderTimeout, ReadTimeout, WriteTimeout, IdleTimeout}}
	files, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	s.mux.Handle("GET /{$}", http.FileServerFS(files))
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(files)))
	routes := map[string]struct {
		method string
		h      http.HandlerFunc
	}{
		"/api/info":   {"GET", s.info},
		"/api/game":   {"POST", s.game},
		"/api/parse":  {"POST", s.parse},
		"/api/new":    {"POST", s.newGame},
		"/api/search": {"POST", s.search},
		"/api/stop":   {"POST", s.stop},
	}
	for path, rt := range routes {
		s.mux.HandleFunc(rt.method+" "+path, rt.h)
	}
	s.mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if rt, ok := routes[r.URL.Path]; ok {
			w.Header().Set("Allow", rt.method)
			fail(w, http.StatusMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, rt.method)
			return
		}
		fail(w, http.StatusNotFound, "no API route %s %s", r.Method, r.URL.Path)
	})
	return s
}

// ServeHTTP checks where a request comes from, then routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.hostAllowed(r.Host) {
		w.Header().Set("Connection", "close")
		if s.listenIP.IsLoopback() {
			fail(w, http.StatusForbidden, "host %q is not this machine's loopback name; use http://localhost or http://127.0.0.1", r.Host)
		} else {
			fail(w, http.StatusForbidden, "host %q is not an address of this server; name it with outflank web --allow-host", r.Host)
		}
		return
	}
	if err := checkOrigin(r); err != nil {
		w.Header().Set("Connection", "close")
		fail(w, http.StatusForbidden, "%v", err)
		return
	}
	if !s.authorized(w, r) {
		// A client without the token gets its answer and the connection
		// closed, so that it holds no slot afterwards.
		w.Header().Set("Connection", "close")
		fail(w, http.StatusUnauthorized, "missing or wrong token: open the address outflank web printed, which ends in ?token=...")
		return
	}
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

// checkOrigin refuses requests that a web page from another site makes
// (its Origin names another host): without it any site the person visits
// could drive the engine. A request without Origin (curl, same-origin
// GET) is fine.
func checkOrigin(r *http.Request) error {
	o := r.Header.Get("Origin")
	if o == "" {
		return nil
	}
	host := strings.TrimPrefix(strings.TrimPrefix(o, "http://"), "https://")
	if host != r.Host {
		return fmt.Errorf("request from the page of another site (%s); open the board at http://%s/", o, r.Host)
	}
	return nil
}

// hostAllowed reports whether a request's Host header names this server:
// on a loopback listener a loopback name; beyond it also the listen address
// (any address of this machine when it listens on all of them: an address
// cannot be rebound to another site) or a name of Config.AllowHosts.
func (s *Server) hostAllowed(hostport string) bool {
	if s.listenIP == nil || loopbackHost(hostport) {
		return true
	}
	if s.listenIP.IsLoopback() {
		return false
	}
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	h = strings.Trim(h, "[]")
	for _, a := range s.cfg.AllowHosts {
		if strings.EqualFold(a, h) {
			return true
		}
	}
	ip := net.ParseIP(h)
	return ip != nil && (s.listenIP.IsUnspecified() || ip.Equal(s.listenIP))
}

// tokenCookie names the cookie that carries the token after the first
// request; the port is in the name because cookies are shared across ports.
func (s *Server) tokenCookie(r *http.Request) string {
	_, port, _ := net.SplitHostPort(r.Host)
	return "outflank-token-" + port
}

// authorized checks the token when one is set: in the query (then it is
// kept in a cookie for the page's later requests), the cookie, or an
// Authorization header, compared in constant time.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.cfg.Token == "" {
		return true
	}
	same := func(t string) bool { return subtle.ConstantTimeCompare([]byte(t), []byte(s.cfg.Token)) == 1 }
	if t := r.URL.Query().Get("token"); t != "" {
		if !same(t) {
			return false
		}
		http.SetCookie(w, &http.Cookie{Name: s.tokenCookie(r), Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	if c, err := r.Cookie(s.tokenCookie(r)); err == nil && same(c.Value) {
		return true
	}
	if t, ok := strings.CutPrefix(r.Header.Get("Authorization"), "token "); ok && same(strings.TrimSpace(t)) {
		return true
	}
	return false
}

// loopbackHost reports whether a Host header names this machine's
// loopback interface.
func loopbackHost(hostport string) bool {
	h, _, err := net.SplitHostPort(hostport)
	if err != nil {
		h = hostport
	}
	h = strings.Trim(h, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Serve serves on ln until it fails. Only requests that name ln's address
// (see hostAllowed) are answered.
func (s *Server) Serve(ln net.Listener) error {
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		s.listenIP = a.IP
	}
	lim := newConnLimiter(s.limits.maxConns, s.limits.perClient)
	s.conns.Store(lim)
	srv := &http.Server{Handler: s, MaxHeaderBytes: 64 << 10, ConnState: lim.state,
		ReadHeaderTimeout: s.limits.readHeader, ReadTimeout: s.limits.read, WriteTimeout: s.limits.write, IdleTimeout: s.limits.idle}
	return srv.Serve(limitedListener{ln, lim})
}

// errorBody is every error's JSON.
type errorBody struct {
	Error string `json:"error"`
}

func fail(w http.ResponseWriter, code int, format string, args ...any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(errorBody{Error: fmt.Sprintf(format, args...)})
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(v)
}

// decode reads a JSON body into v, answering 413 or 400 itself when it
// cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		fail(w, http.StatusRequestEntityTooLarge, "request body over %d KiB", maxBody>>10)
		return false
	case err != nil:
		fail(w, http.StatusBadRequest, "bad request body: %v", err)
		return false
	}
	return true
}

type infoReply struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Threads int    `json:"threads"`
	Level   int    `json:"level"`
	Book    bool   `json:"book"`
}

func (s *Server) info(w http.ResponseWriter, r *http.Request) {
	reply(w, infoReply{Name: s.cfg.Name, Version: s.cfg.Version, Threads: s.cfg.Threads, Level: s.cfg.Level, Book: s.cfg.Book != nil})
}

// game checks a game and returns every position of it.
func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	var q gameRequest
	if !decode(w, r, &q) {
		return
	}
	g, err := q.game()
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	reply(w, stateOf(g))
}

// parse reads pasted or uploaded text (GGF, board string, transcript).
func (s *Server) parse(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Text string `json:"text"`
	}
	if !decode(w, r, &q) {
		return
	}
	g, err := parseText(q.Text)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	reply(w, stateOf(g))
}

// newGame starts a game, with a corner handicap if asked, and makes the
// engine forget the last one.
func (s *Server) newGame(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Handicap int    `json:"handicap"`
		Weaker   string `json:"weaker"`
		Black    string `json:"black"` // the players' names for the record
		White    string `json:"white"`
	}
	if !decode(w, r, &q) {
		return
	}
	if q.Handicap < 0 || q.Handicap > 4 {
		fail(w, http.StatusBadRequest, "handicap %d: want 0 to 4 corners", q.Handicap)
		return
	}
	weaker := bitboard.Black
	switch q.Weaker {
	case "", "black":
	case "white":
		weaker = bitboard.White
	default:
		fail(w, http.StatusBadRequest, "weaker side %q: want black or white", q.Weaker)
		return
	}
	s.stopCurrent(errSuperseded)
	select {
	case s.engineFree <- struct{}{}:
		s.a.newGame()
		<-s.engineFree
	case <-r.Context().Done():
		return
	}
	ps := []prop{{"PC", "Outflank web"}, {"DT", time.Now().UTC().Format("2006.01.02_15:04:05.UTC")}}
	if q.Black != "" {
		ps = append(ps, prop{"PB", q.Black})
	}
	if q.White != "" {
		ps = append(ps, prop{"PW", q.White})
	}
	props, err := checkProps(ps)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	g := &bitboard.Game{Start: bitboard.Handicap(q.Handicap, weaker), Props: props}
	reply(w, stateOf(g))
}
