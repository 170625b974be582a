package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os/exec"
	"runtime"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/web"
)

func init() {
	register(&command{
		name:    "web",
		args:    "[--addr HOST:PORT] [--open] [flags]",
		summary: "Serve a board in the browser: play, analyse, solve (nothing else to install).",
		details: `Serves a page, embedded in the binary, on which you play against the engine
(either colour, by level or time per move, with corner handicaps), paste or set
up positions (GGF, board strings, transcripts; an edit mode), read every move's
value, solve positions exactly and browse a game with its evaluation graph.
It listens on 127.0.0.1 (this machine only) unless --addr says otherwise.
Beyond loopback (--addr 0.0.0.0:8080) every request needs the token printed
in the page's address (kept in a cookie once the page is open), and must
name this machine by an address or a --allow-host name, so that another
site's page cannot drive the engine.`,
		run: runWeb,
	})
}

func runWeb(e *env, args []string) error {
	c := findCommand("web")
	fs := c.flags(e)
	ef := addEngineFlags(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (0.0.0.0:8080: every interface; see the caveat it prints)")
	allowHosts := fs.StringSlice("allow-host", nil, "beyond loopback: a host name people use to reach this machine (repeatable); requests naming other names are refused")
	open := fs.Bool("open", false, "open the page in the default browser")
	level := fs.Int("level", 12, "the page's default level: midgame depth N, exact endgame from 2N empties (up to 24)")
	if ok, err := parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("web: unexpected argument %q", fs.Arg(0))
	}
	if *level < 1 || *level > 60 {
		return fmt.Errorf("web: --level %d: want 1 to 60", *level)
	}
	st, err := ef.setup("web")
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("web: %w", err)
	}
	defer ln.Close()
	tcp := ln.Addr().(*net.TCPAddr)
	url, token := pageURL(tcp), ""
	if !tcp.IP.IsLoopback() {
		if token, err = newToken(); err != nil {
			return fmt.Errorf("web: %w", err)
		}
		url += "?token=" + token
	}
	fmt.Fprintf(e.stdout, "Outflank board at %s (Ctrl-C stops the server)\n", url)
	if token == "" {
		fmt.Fprintln(e.stdout, "Only this machine can connect. To let others in, run with --addr 0.0.0.0:8080.")
	} else {
		fmt.Fprintf(e.stdout, "Listening beyond this machine: anyone on the network who can reach port %d and has the\n"+
			"token (in the address above) can play and run searches that use %d threads of this machine.\n"+
			"The connection is plain HTTP: the token and the games cross the network unencrypted, so share\n"+
			"it only on a network you trust. Other machines open http://THIS-MACHINE'S-ADDRESS:%d/?token=%s\n"+
			"(a name instead of an address must be given with --allow-host).\n", tcp.Port, st.opts.Threads, tcp.Port, token)
	}
	if *open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(e.stderr, "outflank: web: could not open a browser (%v); open %s yourself\n", err, url)
		}
	}
	srv := web.New(web.Config{Searcher: newSearcher(st.opts), Book: st.book, Level: *level, Name: "Outflank", Version: version(), Threads: st.opts.Threads,
		Token: token, AllowHosts: *allowHosts})
	return fmt.Errorf("web: %w", srv.Serve(ln))
}

// newToken returns a random token for a server beyond loopback, as
// Jupyter's: 128 bits, in hex.
func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// pageURL is the address a browser on this machine opens for a listener:
// a wildcard address is reached through localhost.
func pageURL(a *net.TCPAddr) string {
	host := a.IP.String()
	switch {
	case a.IP.IsUnspecified() || a.IP.IsLoopback():
		host = "localhost"
	case a.IP.To4() == nil:
		host = "[" + host + "]"
	}
	return fmt.Sprintf("http://%s:%d/", host, a.Port)
}

// openBrowser starts the system's browser on url without waiting for it.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	case "darwin":
		cmd = exec.Command("open", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait() // reap it
	return nil
}
