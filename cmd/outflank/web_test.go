package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/web"
)

// TestWebCommand starts "outflank web" on a free loopback port with the
// real engine and book, reads the address it prints, and asks for the page,
// a game and a shallow hint.
func TestWebCommand(t *testing.T) {
	cmd := outflank(t, "web", "--addr", "127.0.0.1:0", "--level", "2")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		first <- line
		io.Copy(io.Discard, out)
	}()
	var url string
	select {
	case line := <-first:
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[3], "http://localhost:") {
			t.Fatalf("first line %q: want the page's address", line)
		}
		url = f[3]
	case <-time.After(deadline):
		t.Fatal("outflank web printed no address")
	}
	get := func(method, path, body string) string {
		t.Helper()
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s %s: %d %s", method, path, r.StatusCode, b)
		}
		return string(b)
	}
	if page := get("GET", "", ""); !strings.Contains(page, "<title>Outflank</title>") {
		t.Errorf("page: %.200q", page)
	}
	if info := get("GET", "api/info", ""); !strings.Contains(info, `"level":2`) || !strings.Contains(info, `"book":true`) {
		t.Errorf("info %s", info)
	}
	hint := get("POST", "api/search", `{"mode":"hint","moves":["f5","f6","e6","f4"],"level":2}`)
	if !strings.Contains(hint, "event: done") || !strings.Contains(hint, `"moves":[`) {
		t.Errorf("hint stream: %s", hint)
	}
}

func TestWebBadCommandLine(t *testing.T) {
	for _, args := range [][]string{{"web", "--level", "0"}, {"web", "extra"}, {"web", "--addr", "no-such-host.invalid:x"}, {"web", "--hash", "0"}} {
		out, err := runWithDeadline(t, outflank(t, args...))
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out, "outflank: web:") {
			t.Errorf("%v: exit %v, output %q; want exit 1 and one error line", args, err, out)
		}
	}
}

// TestWebBeyondLoopback: on every interface, outflank web prints the
// page's address with a token and says what that exposes; requests without
// the token are refused, and the page opened from the printed address
// keeps it in a cookie for its own requests.
func TestWebBeyondLoopback(t *testing.T) {
	cmd := outflank(t, "web", "--addr", "0.0.0.0:0", "--level", "2", "--threads", "1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	text := make(chan string, 1)
	go func() {
		br := bufio.NewReader(out)
		var sb strings.Builder
		for !strings.Contains(sb.String(), "--allow-host") {
			l, err := br.ReadString('\n')
			sb.WriteString(l)
			if err != nil {
				break
			}
		}
		text <- sb.String()
		io.Copy(io.Discard, out)
	}()
	var printed string
	select {
	case printed = <-text:
	case <-time.After(deadline):
		t.Fatal("outflank web printed nothing")
	}
	f := strings.Fields(printed)
	if len(f) < 4 || !strings.Contains(f[3], "/?token=") {
		t.Fatalf("printed %q: want the page's address with its token", printed)
	}
	for _, want := range []string{"anyone on the network", "plain HTTP", "unencrypted"} {
		if !strings.Contains(printed, want) {
			t.Errorf("the warning lacks %q:\n%s", want, printed)
		}
	}
	url := f[3]
	base, _, _ := strings.Cut(url, "?")
	status := func(c *http.Client, u string) int {
		t.Helper()
		r, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
		return r.StatusCode
	}
	if s := status(http.DefaultClient, base+"api/info"); s != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", s)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar}
	if s := status(browser, url); s != http.StatusOK {
		t.Errorf("the printed address: %d", s)
	}
	if s := status(browser, base+"api/info"); s != http.StatusOK {
		t.Errorf("the page's own request after it: %d", s)
	}
}

// TestWebHelpStatesLimits: web --help states the server's connection
// caps and timeouts, from the constants the server uses.
func TestWebHelpStatesLimits(t *testing.T) {
	out, _, _ := runCmd(t, "web", "--help")
	for _, want := range []string{fmt.Sprintf("most %d connections at once, %d from one client address", web.MaxConns, web.MaxConnsPerClient),
		fmt.Sprintf("within %g s", web.ReadHeaderTimeout.Seconds()), fmt.Sprintf("idles at most %g s", web.IdleTimeout.Seconds())} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("web --help does not say %q:\n%s", want, out)
		}
	}
}
