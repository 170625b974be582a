package main

import (
	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/matchrun"
)

// matchDetails is the help text of "outflank match".
const matchDetails = `An engine is this program with options, or any program that speaks the
NBoard protocol, driven exactly as a GUI drives it:

  self                        this binary ("outflank nboard"), default limits
  self:depth=8                midgame depth 8 (sent as "set depth 8")
  self:time=1s,eval=FILE      1 second a move, other weights; other keys become
                              "outflank nboard" flags (hash=64 → --hash=64)
  self:clock=1m               one minute for the whole game (a GGF clock)
  nboard:CMD ARGS...          an external engine, e.g. 'nboard:./edax -nboard'
  nboard,depth=12,dir=D:CMD   the same with options (depth, time, clock, name, dir)

A self engine runs with the defaults of "outflank nboard" (its opening book)
but on one thread (threads=N to change, the same for both sides keeps the
match fair); self:depth=8,no-book,hash=16 changes them. Both kinds also take
name=NAME for the reports. An engine given neither a
depth nor a time uses --depth/--time (depth 8 if neither). On time, each
engine gets a GGF clock worth its time per move for each move it has left
(TI, or TB/TW; whole seconds, rounded up), and is stopped with "ping" at its time per move, the
same for every engine; a move answered before the "pong" counts. Unless --move-timeout/--game-timeout say
otherwise, an engine loses after 10 minutes on one move or an hour of
thinking in one game on depth, and after 2×time+2s on a move or 40×time+30s
in a game on time. On a clock (clock=), the engine gets that clock (TI, or
TB/TW; whole seconds, rounded up) for the moves after the opening and is never stopped; thinking past
it (by more than 0.25 s of pipe latency) loses on time.

With --sprt ELO0,ELO1 the match stops as soon as a sequential probability
ratio test (on the opening pairs, α = β = 0.05 unless given) accepts
"A − B >= ELO1" or "A − B <= ELO0"; --games is then the most it plays.

A long match runs in parts: --games-out FILE keeps every game as it ends
(one GGF record a line, numbered GN[n] in the match), and the same command
with --resume counts the games FILE holds and plays only the others (a
record cut off by a kill is dropped and played again). --shard K/N plays
the opening pairs K, K+N, K+2N, ... only, so that N machines or the tasks
of a job array share a match; "cat" their files into one and run the
command with --resume on it for the whole match's report.

Each opening is played twice, colours swapped (an odd --games plays its last
opening once, with A as black, and the error bar then comes from single
games). The score is A's: wins plus
half the draws over games, with a 95% error bar from the spread of the
opening pairs' scores, and the Elo difference it implies. The disc margin
counts the empty squares for the winner. An engine that crashes, stops
answering or answers an illegal move loses that game (GGF RE ±64 with :t for
time, :r otherwise); the event is printed and the match goes on. Per
engine the summary gives its moves, its mean and longest time a move (as
the harness measured it), how many moves took longer than its time a move
(an engine that spends all of it is stopped there and answers a moment
later), how many of those were late (more than a tenth of the time, at
least 50 ms, past it: what a GUI sees as overrunning), and the nodes it
reported.

The built-in openings are the XOT list of 10,784 balanced 8-move openings by
Matthias Berg (berg.earthlingz.de/xot).`

func init() {
	register(&cli.Command{
		Name:    "match",
		Args:    "ENGINE_A ENGINE_B [flags]",
		Summary: "Play two engines against each other from balanced openings; report the score and Elo.",
		Details: matchDetails,
		Run:     runMatch,
	})
}

func runMatch(e *cli.Env, args []string) error {
	fs := flagSet(e, "match")
	f := matchrun.AddFlags(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	return matchrun.Run(e, f, fs.Args())
}
