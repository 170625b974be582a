package web

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
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
