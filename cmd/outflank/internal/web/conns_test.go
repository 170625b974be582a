package web

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/play/playtest"
)

// serveLimited serves s beyond loopback (so that the token is asked) with
// small limits, and returns the address to reach it on 127.0.0.1.
func serveLimited(t *testing.T, s *Server, lim limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Skipf("no listener on every interface: %v", err)
	}
	s.limits = lim
	go s.Serve(ln)
	t.Cleanup(func() { ln.Close() })
	return fmt.Sprintf("127.0.0.1:%d", ln.Addr().(*net.TCPAddr).Port)
}

// TestIdleClientsCannotLockOut: more connections than the cap, some that
// never send a request and some that sent one without the token and stay
// open, do not keep a client with the token out: it is served within a
// second (the reproduction locked a server with 1,014 such connections).
func TestIdleClientsCannotLockOut(t *testing.T) {
	s := New(Config{Searcher: &playtest.Greedy{}, Token: "s3cret"})
	addr := serveLimited(t, s, limits{maxConns: 16, perClient: 12, readHeader: 5 * time.Second,
		read: 5 * time.Second, write: 5 * time.Second, idle: time.Minute})
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
			time.Sleep(time.Millisecond) // about 1,000 connections a second each
		}
	}()
	for i := range 60 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		idle = append(idle, c)
		if i%2 == 0 {
			fmt.Fprintf(c, "GET /api/info HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		}
	}
	client := &http.Client{Timeout: time.Second}
	t0 := time.Now()
	req, _ := http.NewRequest("GET", "http://"+addr+"/api/info", nil)
	req.Header.Set("Authorization", "token s3cret")
	r, err := client.Do(req)
	if err != nil {
		t.Fatalf("the token holder was not served within a second: %v", err)
	}
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("token holder: %d", r.StatusCode)
	}
	t.Logf("served in %v beside 60 idle connections (cap 16)", time.Since(t0))
	// The server closed all but a few of the idle connections (the 401s
	// with their answer), so it holds no more than the cap.
	open := 0
	for i, c := range idle {
		c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		b, err := io.ReadAll(c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			open++
		}
		if i%2 == 0 && len(b) > 0 && !strings.Contains(string(b), "401 Unauthorized") {
			t.Errorf("the tokenless request got %q", b[:min(len(b), 80)])
		}
	}
	if open > 15 {
		t.Errorf("%d idle connections still open, want at most the cap less the token holder's (15)", open)
	}
}

// TestSearchOutlivesTimeouts: a search stream runs longer than the read and
// write timeouts (each event renews the write deadline; net/http clears
// the read deadline once the body is read) and still ends with its result.
func TestSearchOutlivesTimeouts(t *testing.T) {
	slow := &playtest.Slow{Started: make(chan struct{}, 4)}
	s := New(Config{Searcher: slow})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	s.limits = limits{maxConns: 16, perClient: 16, readHeader: 200 * time.Millisecond,
		read: 200 * time.Millisecond, write: 300 * time.Millisecond, idle: time.Second}
	go s.Serve(ln)
	defer ln.Close()
	base := "http://" + ln.Addr().String()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", base+"/api/search", strings.NewReader(`{"mode":"hint"}`))
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	ch := events(t, r.Body)
	waitStart(t, slow.Started)
	time.Sleep(time.Second) // past every timeout
	sr, err := http.Post(base+"/api/stop", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	sr.Body.Close()
	_, done := collect(t, ch)
	if !done.Stopped || done.Best == "" {
		t.Errorf("the long search ended %+v", done)
	}
}

// soakRequests is how many requests TestSoak makes. The long run:
//
//	go test -run TestSoak ./cmd/outflank/internal/web -soak-requests 100000
var soakRequests = flag.Int("soak-requests", 400, "requests TestSoak makes")

// TestSoak: well-behaved clients make soakRequests requests (games, bad
// bodies, searches) over loopback while others connect and idle, send
// headers a byte at a time, or send half a request and hang up. The
// well-behaved requests are answered (at most one in a thousand lost to a
// connection closed to make room), and the memory at the end is reported
// beside the memory at the start.
func TestSoak(t *testing.T) {
	s := New(Config{Searcher: &playtest.Greedy{}, Token: "s3cret"})
	addr := serveLimited(t, s, limits{maxConns: 64, perClient: 48, readHeader: 300 * time.Millisecond,
		read: time.Second, write: 2 * time.Second, idle: 500 * time.Millisecond})
	before := playtest.Memory()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	rude := func(kind int) {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			c, err := net.Dial("tcp", addr)
			if err != nil {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			switch kind {
			case 0: // idle: connects and says nothing
				time.Sleep(200 * time.Millisecond)
			case 1: // slow: headers a byte at a time
				for _, b := range []byte("GET /api/info HTTP/1.1\r\nHost: " + addr + "\r\n") {
					if _, err := c.Write([]byte{b}); err != nil {
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
			case 2: // abrupt: half a request, then gone
				fmt.Fprintf(c, "POST /api/game?token=s3cret HTTP/1.1\r\nHost: %s\r\nContent-Length: 500\r\n\r\n{\"moves\":[", addr)
			}
			c.Close()
			time.Sleep(time.Millisecond) // about 1,000 connections a second each
		}
	}
	for kind := range 3 {
		for range 4 {
			wg.Add(1)
			go rude(kind)
		}
	}
	bodies := []struct{ path, body string }{
		{"/api/game", `{"moves":["f5","d6","c3"]}`},
		{"/api/game", `{"moves":["f5","f5"]}`},
		{"/api/parse", `{"text":"f5d6c3d3c4"}`},
		{"/api/game", `{"start":"garbage"}`},
		{"/api/search", `{"mode":"hint"}`},
		{"/api/search", `{"moves":["f5"],"mode":"move","level":2}`},
		{"/api/new", `{}`},
	}
	client := &http.Client{Timeout: 10 * time.Second}
	var failed, answered atomic.Int64
	var next atomic.Int64
	var cw sync.WaitGroup
	for range 6 {
		cw.Add(1)
		go func() {
			defer cw.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(*soakRequests) {
					return
				}
				b := bodies[i%int64(len(bodies))]
				req, _ := http.NewRequest("POST", "http://"+addr+b.path, strings.NewReader(b.body))
				req.Header.Set("Authorization", "token s3cret")
				r, err := client.Do(req)
				if err != nil {
					failed.Add(1)
					t.Logf("request %d (%s): %v", i, b.path, err)
					continue
				}
				io.Copy(io.Discard, r.Body)
				r.Body.Close()
				if r.StatusCode >= 500 {
					failed.Add(1)
					t.Logf("request %d (%s): %d", i, b.path, r.StatusCode)
				}
				answered.Add(1)
			}
		}()
	}
	cw.Wait()
	close(stop)
	wg.Wait()
	open, evicted, refused := s.conns.Load().counts()
	t.Logf("%d requests answered, %d failed, beside 12 idle, slow and abrupt clients (%d connections closed to make room, %d refused, %d open at the end); %s before, %s after",
		answered.Load(), failed.Load(), evicted, refused, open, before, playtest.Memory())
	// Under this flood a kept-alive or new connection of a well-behaved
	// client is now and then the oldest one not in a request and is
	// closed to make room (19 of 100,000 with the flood unpaced); a
	// browser retries those. More than one in a thousand is a fault.
	if failed.Load()*1000 > answered.Load() {
		t.Errorf("%d of %d well-behaved requests failed", failed.Load(), answered.Load())
	}
}
