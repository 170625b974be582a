package main

import (
	"fmt"
	"time"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/engine"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/session"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/web"
)

func init() {
	register(&cli.Command{
		Name:    "web",
		Args:    "[--addr HOST:PORT] [--open] [flags]",
		Summary: "Serve a board in the browser: play, analyse, solve (nothing else to install).",
		Details: `Serves a page, embedded in the binary, on which you play against the engine
(either colour, by level or time per move, with corner handicaps), paste or set
up positions (GGF, board strings, transcripts; an edit mode), read every move's
value, solve positions exactly and browse a game with its evaluation graph.
It listens on 127.0.0.1 (this machine only) unless --addr says otherwise.
Beyond loopback (--addr 0.0.0.0:8080) every request needs the token printed
in the page's address (kept in a cookie once the page is open), and must
name this machine by an address or a --allow-host name, so that another
site's page cannot drive the engine.` + "\n\n" + webLimits(),
		Run: runWeb,
	})
}

func runWeb(e *cli.Env, args []string) error {
	fs := flagSet(e, "web")
	ef := engine.AddFlags(fs)
	var o session.WebOptions
	fs.StringVar(&o.Addr, "addr", "127.0.0.1:8080", "address to listen on (0.0.0.0:8080: every interface; see the caveat it prints)")
	fs.StringSliceVar(&o.AllowHosts, "allow-host", nil, "beyond loopback: a host name people use to reach this machine (repeatable); requests naming other names are refused")
	fs.BoolVar(&o.Open, "open", false, "open the page in the default browser")
	fs.IntVar(&o.Level, "level", 12, "the page's default level: midgame depth N, exact endgame from 2N empties (up to 24)")
	cli.Bound(fs, "level", 1, 60)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	st, err := ef.Setup("web")
	if err != nil {
		return err
	}
	return session.Web(e, st, o)
}

// webLimits states the server's limits, from the constants it uses.
func webLimits() string {
	return fmt.Sprintf(`Limits, so that idle or hostile clients cannot lock out a page in use: at
most %d connections at once, %d from one client address; at the cap the
oldest connection that is not in a request is closed to make room. A
request's headers must arrive within %s and the whole request within %s;
an answer is written within %s (a search's stream, each event); a
kept-alive connection idles at most %s. Request bodies are at most 64 KiB.`,
		web.MaxConns, web.MaxConnsPerClient, secs(web.ReadHeaderTimeout), secs(web.ReadTimeout), secs(web.WriteTimeout), secs(web.IdleTimeout))
}

func secs(d time.Duration) string { return fmt.Sprintf("%g s", d.Seconds()) }
