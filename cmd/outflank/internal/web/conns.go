package web

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// The server's limits, stated in "outflank web --help". A board page keeps
// a handful of connections open (the page, its API calls, one search
// stream); the caps leave room for many pages and stay far below a
// process's usual 1,024 open files.
const (
	// MaxConns caps the connections open at once; MaxConnsPerClient those
	// from one client address.
	MaxConns          = 256
	MaxConnsPerClient = 64
	// ReadHeaderTimeout bounds the wait for a request's headers, ReadTimeout
	// for the whole request (bodies are at most 64 KiB), WriteTimeout for
	// writing an answer (a search stream is given it again for each
	// event), IdleTimeout how long a kept-alive connection may wait for its
	// next request.
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 15 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 60 * time.Second
)

// connLimiter keeps the connections within MaxConns and MaxConnsPerClient.
// At a cap a new connection is not refused: the oldest connection that is
// not in the middle of a request (one that has sent nothing yet, or sits
// idle between requests) is closed to make room, from the same client
// when that client's cap is reached. So connections that idle clients open
// and leave, with or without the token, cannot keep out a page that is in
// use; a connection is refused only when every slot is busy answering.
type connLimiter struct {
	max, perClient int

	mu      sync.Mutex
	conns   map[net.Conn]*connInfo
	seq     uint64
	evicted int // connections closed to make room
	refused int // connections closed because every slot was busy
}

type connInfo struct {
	client string
	busy   bool   // a request is being read or answered
	served bool   // it has answered a request: a client in use keeps it alive
	since  uint64 // order of arrival or of the last request's end
}

func newConnLimiter(max, perClient int) *connLimiter {
	return &connLimiter{max: max, perClient: perClient, conns: map[net.Conn]*connInfo{}}
}

func clientOf(c net.Conn) string {
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return a.IP.String()
	}
	return c.RemoteAddr().String()
}

// admit records c, making room at a cap; false means c must be closed
// (every slot is busy).
func (l *connLimiter) admit(c net.Conn) bool {
	client := clientOf(c)
	l.mu.Lock()
	defer l.mu.Unlock()
	fromClient := 0
	for _, ci := range l.conns {
		if ci.client == client {
			fromClient++
		}
	}
	switch {
	case fromClient >= l.perClient:
		if !l.evictLocked(client) {
			return false
		}
	case len(l.conns) >= l.max:
		if !l.evictLocked("") {
			return false
		}
	}
	l.seq++
	l.conns[c] = &connInfo{client: client, since: l.seq}
	return true
}

// evictLocked closes the oldest connection not in a request (of client,
// if given) and reports whether there was one: first among those that
// never sent a whole request (idle or slow openers), then among kept-alive
// ones between requests, whose client reconnects when it needs them.
func (l *connLimiter) evictLocked(client string) bool {
	var oldest net.Conn
	var at uint64
	var served bool
	for c, ci := range l.conns {
		if ci.busy || (client != "" && ci.client != client) {
			continue
		}
		if oldest == nil || served && !ci.served || served == ci.served && ci.since < at {
			oldest, at, served = c, ci.since, ci.served
		}
	}
	if oldest == nil {
		l.refused++
		return false
	}
	delete(l.conns, oldest)
	l.evicted++
	oldest.Close() // the server sees the close and drops it
	return true
}

// counts returns the connections open, evicted and refused so far.
func (l *connLimiter) counts() (open, evicted, refused int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns), l.evicted, l.refused
}

// state follows the server's view of each connection (http.Server's
// ConnState hook).
func (l *connLimiter) state(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	ci, ok := l.conns[c]
	if !ok {
		return
	}
	switch st {
	case http.StateActive:
		ci.busy = true
	case http.StateIdle:
		ci.busy, ci.served = false, true
		l.seq++
		ci.since = l.seq
	case http.StateHijacked, http.StateClosed:
		delete(l.conns, c)
	}
}

// limitedListener admits each accepted connection through a connLimiter.
type limitedListener struct {
	net.Listener
	l *connLimiter
}

func (ln limitedListener) Accept() (net.Conn, error) {
	for {
		c, err := ln.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if ln.l.admit(c) {
			return c, nil
		}
		c.Close()
	}
}
