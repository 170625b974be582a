package main

import (
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
It listens on 127.0.0.1 (this machine only) unless --addr says otherwise.`,
		run: runWeb,
	})
}

func runWeb(e *env, args []string) error {
	c := findCommand("web")
	fs := c.flags(e)
	ef := addEngineFlags(fs)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (0.0.0.0:8080: every interface; see the caveat it prints)")
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
	url := pageURL(ln.Addr().(*net.TCPAddr))
	fmt.Fprintf(e.stdout, "Outflank board at %s (Ctrl-C stops the server)\n", url)
	if ip := ln.Addr().(*net.TCPAddr).IP; ip.IsLoopback() {
		fmt.Fprintln(e.stdout, "Only this machine can connect. To let others in, run with --addr 0.0.0.0:8080;\n"+
			"then anyone who can reach the port can use the engine (and its CPU): there is no password.")
	} else {
		fmt.Fprintln(e.stdout, "Listening beyond this machine: anyone who can reach the port can use the engine (and its CPU); there is no password.")
	}
	if *open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(e.stderr, "outflank: web: could not open a browser (%v); open %s yourself\n", err, url)
		}
	}
	srv := web.New(web.Config{Searcher: newSearcher(st.opts), Book: st.book, Level: *level, Name: "Outflank", Version: version(), Threads: st.opts.Threads})
	return fmt.Errorf("web: %w", srv.Serve(ln))
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
