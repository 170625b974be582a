package match

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// The test binary doubles as a fake NBoard engine when started as
// "TESTBINARY fakeengine MODE [N]" (or as "TESTBINARY nboard ..." for self
// specs), the os/exec TestHelperProcess idiom: no separate program to build.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && (os.Args[1] == "fakeengine" || os.Args[1] == "nboard") {
		mode, after := "first", 0
		if os.Args[1] == "fakeengine" && len(os.Args) > 2 {
			mode = os.Args[2]
		}
		if len(os.Args) > 3 {
			after, _ = strconv.Atoi(os.Args[3])
		}
		if os.Args[1] == "nboard" {
			// Started as a self engine: show the flags in the protocol log.
			fmt.Fprintln(os.Stderr, "fake engine flags:", strings.Join(os.Args[2:], " "))
		}
		os.Exit(fakeEngine(mode, after))
	}
	os.Exit(m.Run())
}

// fakeEngine speaks NBoard and plays the first legal move. After `after`
// good moves it misbehaves as mode says:
//
//	first    never misbehaves
//	illegal  answers an occupied square
//	pass     answers PA though it has moves
//	garbage  answers "=== ZZ9"
//	crash    writes to stderr and exits with status 3
//	silent   stops answering anything
//	nopong   never answers a ping (not even the first)
//	stopper  thinks until a ping comes, then answers before the pong (time mode)
//	deaf     like stopper but answers the stopping ping without a move
//	laggard  like stopper but takes 150 ms to answer the stopping ping
//	edaxstyle  plays well but answers as Edax 4.4 does ("=== f5 1.00 0.0")
//	chaos    plays well after a burst of junk lines
func fakeEngine(mode string, after int) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64*1024), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	game := &bitboard.Game{Start: bitboard.Start()}
	moves := 0
	silent := false
	pending := false // a "go" waits for a ping (stopper, deaf)
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		word, rest, _ := strings.Cut(line, " ")
		if silent {
			continue
		}
		switch word {
		case "quit":
			return 0
		case "nboard":
			if mode == "edaxstyle" && rest != "1" {
				fmt.Fprintln(os.Stderr, `Error: Edax expected "nboard 1" protocol`)
			}
		case "set":
			k, v, _ := strings.Cut(rest, " ")
			switch k {
			case "depth":
				say("set myname Fake%s", v)
			case "game":
				g, err := bitboard.ParseGGF(v)
				if err != nil {
					fmt.Fprintln(os.Stderr, "fake engine: bad set game:", err)
					return 2
				}
				game = g
			}
		case "move":
			m, err := bitboard.ParseGameMove(rest)
			if err == nil {
				err = game.Append(m)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "fake engine: bad move:", err)
				return 2
			}
		case "ping":
			if mode == "nopong" {
				continue
			}
			if pending {
				pending = false
				if mode == "laggard" {
					time.Sleep(150 * time.Millisecond)
				}
				if mode == "stopper" || mode == "laggard" {
					say("=== %s", first(game))
				}
			}
			say("pong %s", rest)
		case "go":
			if mode == "edaxstyle" {
				// Edax 4.4: blanks in the answer, status lines around it.
				say("status Edax is thinking")
				say("nodestats 1000 0.00")
				say("=== %s 1.00 0.0", strings.ToLower(first(game)))
				say("status Edax is waiting")
				continue
			}
			if mode == "chaos" {
				// Noise a GUI must survive before the real answer: blank
				// and unknown lines, stale-looking pongs, a 100 KB line,
				// bytes that are not text, a partial line on stderr (which
				// would spoil the answer if stderr were merged with stdout).
				say("")
				say("pong")
				say("pong 999999")
				say("set myname")
				say("search")
				say("nodestats x y")
				say("%s", strings.Repeat("x", 100<<10))
				say("\x00\xff\xfe garbage ===")
				fmt.Fprint(os.Stderr, "partial stderr line ")
				say("=== %s", first(game))
				moves++
				continue
			}
			bad := mode != "first" && moves >= after
			moves++
			if !bad {
				say("search %s +0.00 0 1", first(game))
				say("nodestats 500 0.001")
				say("nodestats 1000 0.002")
				say("=== %s/0.00/0.0", first(game))
				continue
			}
			switch mode {
			case "illegal":
				say("=== D4")
			case "pass":
				say("=== PA")
			case "garbage":
				say("=== ZZ9")
			case "crash":
				fmt.Fprintln(os.Stderr, "fake engine: crashing on purpose")
				return 3
			case "silent":
				silent = true
			case "stopper", "deaf", "laggard":
				pending = true
			}
		}
	}
	return 0
}

func first(g *bitboard.Game) string {
	p := g.Current()
	if p.Moves() == 0 {
		return "PA"
	}
	return bitboard.FirstSquare(p.Moves()).Upper()
}
