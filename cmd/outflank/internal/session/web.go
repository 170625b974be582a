package session

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os/exec"
	"runtime"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/web"
)

// WebOptions are the web board's settings beside the engine's.
type WebOptions struct {
	Addr       string   // address to listen on
	AllowHosts []string // beyond loopback: host names people use to reach this machine
	Open       bool     // open the page in the default browser
	Level      int      // the page's default level
}

// Web serves the web board until the listener fails.
func Web(e *cli.Env, st engine.Setup, o WebOptions) error {
	ln, err := net.Listen("tcp", o.Addr)
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
	fmt.Fprintf(e.Stdout, "Outflank board at %s (Ctrl-C stops the server)\n", url)
	if token == "" {
		fmt.Fprintln(e.Stdout, "Only this machine can connect. To let others in, run with --addr 0.0.0.0:8080.")
	} else {
		fmt.Fprintf(e.Stdout, "Listening beyond this machine: anyone on the network who can reach port %d and has the\n"+
			"token (in the address above) can play and run searches that use %d threads of this machine.\n"+
			"The connection is plain HTTP: the token and the games cross the network unencrypted, so share\n"+
			"it only on a network you trust. Other machines open http://THIS-MACHINE'S-ADDRESS:%d/?token=%s\n"+
			"(a name instead of an address must be given with --allow-host).\n", tcp.Port, st.Opts.Threads, tcp.Port, token)
	}
	if o.Open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(e.Stderr, "outflank: web: could not open a browser (%v); open %s yourself\n", err, url)
		}
	}
	srv := web.New(web.Config{Searcher: engine.NewSearcher(st.Opts), Book: st.Book, Level: o.Level, Name: Name, Version: cli.Version(), Threads: st.Opts.Threads,
		Token: token, AllowHosts: o.AllowHosts})
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
