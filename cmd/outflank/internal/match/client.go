package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// FaultKind classifies what an engine did wrong.
type FaultKind int

const (
	FaultStart    FaultKind = iota // could not be started or did not answer the first ping
	FaultCrash                     // exited, or closed its output
	FaultTimeout                   // no move within the limits
	FaultIllegal                   // answered a move that is not legal
	FaultProtocol                  // answered something that is not a move
	// FaultRecorded is a forfeit read back from a game record (a resumed
	// match), whose RE says who lost but not how, unless on time.
	FaultRecorded
)

var faultNames = [...]string{"start", "crash", "timeout", "illegal", "protocol", "recorded"}

func (k FaultKind) String() string { return faultNames[k] }

// Fault is an engine's misbehaviour; the engine loses the game it was
// playing and its process is replaced.
type Fault struct {
	Kind   FaultKind
	Detail string
}

func (f *Fault) Error() string { return f.Kind.String() + ": " + f.Detail }

// Limits bound one "go". At Soft (if set) the client sends a ping, which a
// NBoard engine must answer by stopping its search; a move that arrives
// before the pong is taken. At Hard the engine loses on time.
type Limits struct {
	Soft, Hard time.Time
}

// Client drives one engine process through the NBoard protocol, as a GUI
// does: it keeps the engine's game in step with "move" or "set game", and
// asks for moves with "ping"/"go". Unlike the NBoard GUI it reads stderr
// apart from stdout, so that a partial line on stderr cannot corrupt a
// reply; stderr lines are only kept to explain a crash.
type Client struct {
	cmd      *exec.Cmd
	in       *os.File
	out, err *os.File
	lines    chan string
	exited   chan struct{} // closed after the process has been waited for
	waitErr  error
	readDone chan struct{} // closed when both readers have finished
	stop     chan struct{}
	stopOnce sync.Once
	log      func(sent bool, line string)
	tailMu   sync.Mutex

	// Nodes is the sum of the node counts the engine reported ("nodestats")
	// for the moves it answered.
	Nodes uint64

	name  string   // from "set myname"
	tail  []string // the last lines that were not protocol replies (stderr)
	ping  int
	known *bitboard.Game // the game as the engine knows it; nil before the first sync
}

// Start starts an engine. log, if not nil, receives every line sent and
// received (for --log).
func Start(argv []string, dir string, log func(sent bool, line string)) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty command")
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin = inR
	cmd.Stdout = outW
	cmd.Stderr = errW
	isolate(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		errR.Close()
		return nil, err
	}
	c := &Client{
		cmd:      cmd,
		in:       inW,
		out:      outR,
		err:      errR,
		lines:    make(chan string, 64),
		exited:   make(chan struct{}),
		readDone: make(chan struct{}),
		stop:     make(chan struct{}),
		log:      log,
	}
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	var readers sync.WaitGroup
	readers.Go(func() {
		defer close(c.lines)
		readLines(c.out, func(line string) bool {
			if c.log != nil {
				c.log(false, line)
			}
			select {
			case c.lines <- line:
				return true
			case <-c.stop:
				return false
			}
		})
	})
	readers.Go(func() {
		readLines(c.err, func(line string) bool {
			if c.log != nil {
				c.log(false, "[stderr] "+line)
			}
			c.keep(line)
			return true
		})
	})
	go func() { readers.Wait(); close(c.readDone) }()
	return c, nil
}

// maxLine caps the length of one line from an engine; longer lines are cut.
const maxLine = 64 << 10

// readLines calls emit with each line of f (without its end of line) until
// the end of f or until emit returns false.
func readLines(f *os.File, emit func(string) bool) {
	r := bufio.NewReaderSize(f, 4096)
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) <= maxLine {
			buf = append(buf, chunk...)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(buf) > 0 {
			line := strings.TrimRight(string(buf), "\r\n")
			buf = buf[:0]
			if !emit(line) {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// keep remembers one of the engine's last non-protocol lines.
func (c *Client) keep(line string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	c.tailMu.Lock()
	defer c.tailMu.Unlock()
	c.tail = append(c.tail, clipLine(line))
	if len(c.tail) > 4 {
		c.tail = c.tail[1:]
	}
}

// Name is the engine's "set myname", or "" if it sent none.
func (c *Client) Name() string { return c.name }

func (c *Client) send(format string, args ...any) error {
	line := fmt.Sprintf(format, args...)
	if c.log != nil {
		c.log(true, line)
	}
	// A deadline, so that an engine that stops reading cannot block us.
	_ = c.in.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, err := io.WriteString(c.in, line+"\n")
	if err != nil {
		return c.crash("writing to the engine: " + err.Error())
	}
	return nil
}

// crash describes the end of the process, with its last stderr lines.
func (c *Client) crash(what string) *Fault {
	select {
	case <-c.exited:
		what = "exited"
		if c.waitErr != nil {
			what = "exited: " + c.waitErr.Error()
		}
	case <-time.After(200 * time.Millisecond):
	}
	// Its last words may still be unread.
	for drained := false; !drained; {
		select {
		case line, ok := <-c.lines:
			if !ok {
				drained = true
				break
			}
			c.handle(line)
		default:
			drained = true
		}
	}
	// Give the stderr reader a moment to take the last words.
	select {
	case <-c.readDone:
	case <-time.After(100 * time.Millisecond):
	}
	c.tailMu.Lock()
	if len(c.tail) > 0 {
		what += " (last output: " + strings.Join(c.tail, " | ") + ")"
	}
	c.tailMu.Unlock()
	return &Fault{Kind: FaultCrash, Detail: what}
}

var errDeadline = errors.New("deadline")

// next returns the next line, errDeadline at the deadline, ctx.Err() when
// the match is stopped, or a crash fault when the output ends or the
// process is gone.
func (c *Client) next(ctx context.Context, deadline time.Time) (string, error) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	exited := c.exited
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return "", c.crash("closed its output")
			}
			return line, nil
		case <-exited:
			// Lines written just before exiting may still be in the pipe:
			// read on briefly before calling it a crash.
			exited = nil
			if time.Until(deadline) > 300*time.Millisecond {
				t.Reset(300 * time.Millisecond)
			}
		case <-t.C:
			select {
			case <-c.exited:
				return "", c.crash("exited")
			default:
			}
			return "", errDeadline
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// handle notes the lines that need no reply: the engine's name, and the
// non-protocol lines kept for crash reports. It returns the line's first
// word and the rest.
func (c *Client) handle(line string) (word, rest string) {
	line = strings.TrimSpace(line)
	word, rest, _ = strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch word {
	case "set":
		if k, v, _ := strings.Cut(rest, " "); k == "myname" && strings.TrimSpace(v) != "" {
			c.name = strings.Fields(v)[0]
		}
	case "pong", "===", "search", "book", "status", "nodestats", "learned", "analysis":
	default:
		c.keep(line)
	}
	return word, rest
}

func clipLine(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// Handshake starts the protocol: "nboard 2", "set depth N", then a ping
// that must be answered by the deadline.
func (c *Client) Handshake(ctx context.Context, depth int, deadline time.Time) error {
	if err := c.send("nboard 2"); err != nil {
		return err
	}
	if err := c.send("set depth %d", depth); err != nil {
		return err
	}
	c.ping++
	if err := c.send("ping %d", c.ping); err != nil {
		return err
	}
	for {
		line, err := c.next(ctx, deadline)
		if err == errDeadline {
			return &Fault{Kind: FaultStart, Detail: fmt.Sprintf("no answer to \"ping %d\"", c.ping)}
		}
		if f, ok := err.(*Fault); ok {
			f.Kind = FaultStart
			return f
		}
		if err != nil {
			return err
		}
		if w, rest := c.handle(line); w == "pong" && rest == strconv.Itoa(c.ping) {
			return nil
		}
	}
}

// Sync brings the engine's game up to date the way a GUI does: "move X"
// when the game grew by exactly one move, nothing when it is unchanged,
// otherwise "set game" with the whole record (ggf, made on demand).
func (c *Client) Sync(g *bitboard.Game, ggf func() string) error {
	k := c.known
	if k != nil && k.Start == g.Start && len(g.Moves) >= len(k.Moves) && len(g.Moves) <= len(k.Moves)+1 && samePrefix(k.Moves, g.Moves) {
		if len(g.Moves) == len(k.Moves) {
			return nil
		}
		m := g.Moves[len(g.Moves)-1]
		if err := c.send("move %s", m); err != nil {
			return err
		}
		k.Moves = append(k.Moves, m)
		return nil
	}
	if err := c.send("set game %s", ggf()); err != nil {
		return err
	}
	c.known = &bitboard.Game{Start: g.Start, Moves: append([]bitboard.GameMove(nil), g.Moves...)}
	return nil
}

func samePrefix(a, b []bitboard.GameMove) bool {
	for i := range a {
		if a[i].Square != b[i].Square {
			return false
		}
	}
	return true
}

// Go asks for a move in the game g (after Sync): "ping K", "go", then waits
// for "pong K" and the "===" answer. The move is not checked for legality
// here; the elapsed time is returned with it.
func (c *Client) Go(ctx context.Context, lim Limits) (bitboard.GameMove, time.Duration, error) {
	c.ping++
	want := c.ping
	if err := c.send("ping %d", want); err != nil {
		return bitboard.GameMove{}, 0, err
	}
	if err := c.send("go"); err != nil {
		return bitboard.GameMove{}, 0, err
	}
	t0 := time.Now()
	synced := false
	var nodes uint64 // from the last "nodestats" of this search
	stopPing := 0    // the ping sent at the soft limit, 0 before
	for {
		deadline := lim.Hard
		if stopPing == 0 && !lim.Soft.IsZero() && lim.Soft.Before(deadline) {
			deadline = lim.Soft
		}
		line, err := c.next(ctx, deadline)
		if err == errDeadline {
			if deadline.Equal(lim.Soft) && stopPing == 0 {
				c.ping++
				stopPing = c.ping
				if err := c.send("ping %d", stopPing); err != nil {
					return bitboard.GameMove{}, 0, err
				}
				continue
			}
			return bitboard.GameMove{}, 0, &Fault{Kind: FaultTimeout,
				Detail: fmt.Sprintf("no move after %s", time.Since(t0).Round(time.Millisecond))}
		}
		if err != nil {
			return bitboard.GameMove{}, 0, err
		}
		word, rest := c.handle(line)
		switch word {
		case "pong":
			n, _ := strconv.Atoi(rest)
			if n == want {
				synced = true
			}
			if stopPing != 0 && n == stopPing {
				return bitboard.GameMove{}, 0, &Fault{Kind: FaultTimeout,
					Detail: fmt.Sprintf("stopped by \"ping %d\" at the time limit (%s) without a move", stopPing, time.Since(t0).Round(time.Millisecond))}
			}
		case "nodestats":
			// "nodestats <nodes> <seconds>" of the current search; the last
			// one before the answer counts.
			if f := strings.Fields(rest); synced && len(f) >= 1 {
				if n, err := strconv.ParseFloat(f[0], 64); err == nil && n >= 0 {
					nodes = uint64(n)
				}
			}
		case "===":
			if !synced {
				continue // the answer to an older command
			}
			c.Nodes += nodes
			m, err := parseAnswer(rest)
			if err != nil {
				return bitboard.GameMove{}, 0, &Fault{Kind: FaultProtocol, Detail: fmt.Sprintf("answered %q: %v", clipLine(line), err)}
			}
			return m, time.Since(t0), nil
		}
	}
}

// parseAnswer reads the move of a "===" line: "F5", "F5/-1.00/0.5", and
// also the form with blanks that Edax 4.4 writes, "F5 -1.00 0.5".
func parseAnswer(s string) (bitboard.GameMove, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return bitboard.GameMove{}, errors.New("no move")
	}
	m, err := bitboard.ParseGameMove(f[0])
	if err != nil {
		return m, err
	}
	if len(f) > 1 && !m.HasEval {
		if v, err := strconv.ParseFloat(f[1], 64); err == nil {
			m.Eval, m.HasEval = v, true
		}
	}
	return m, nil
}

// Close ends the engine politely ("quit"), killing it if it has not gone
// within a second, and waits for the reader to finish.
func (c *Client) Close() {
	select {
	case <-c.exited:
	default:
		_ = c.send("quit")
		select {
		case <-c.exited:
		case <-time.After(time.Second):
		}
	}
	c.Kill()
}

// Kill ends the engine (and what it started) at once.
func (c *Client) Kill() {
	select {
	case <-c.exited:
	default:
		killGroup(c.cmd)
		<-c.exited
	}
	c.in.Close()
	c.stopOnce.Do(func() { close(c.stop) })
	// Closing our ends unblocks the readers if a grandchild still holds
	// the pipes.
	c.out.Close()
	c.err.Close()
	<-c.readDone
}
