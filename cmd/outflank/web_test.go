package main

import (
	"bufio"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
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
