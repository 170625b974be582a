package search

import (
	"testing"
	"time"

	"github.com/outflank-othello/outflank/bitboard"
)

// TestClockLimitsGame plays out games against the clock: spending the hard
// limit on every move never runs out of time, and spending the soft limit
// uses most of the clock by the time the position is solved.
func TestClockLimitsGame(t *testing.T) {
	for _, total := range []time.Duration{3 * time.Second, time.Minute, 15 * time.Minute} {
		for _, inc := range []time.Duration{0, time.Second} {
			for _, spend := range []string{"hard", "soft"} {
				left := total
				used := time.Duration(0)
				for empties := 52; empties >= 1; empties -= 2 {
					soft, hard := Clock{Left: left, Increment: inc}.Limits(empties)
					if soft <= 0 || soft > hard {
						t.Fatalf("%v+%v, %d empties, %v left: soft %v hard %v", total, inc, empties, left, soft, hard)
					}
					if hard > clockMinimum && hard > left {
						t.Fatalf("%v+%v, %d empties: hard %v past the %v left", total, inc, empties, hard, left)
					}
					d := hard
					if spend == "soft" {
						d = soft
						if empties <= clockSolveEmpties {
							d = 0 // solved: the rest is free
						}
					}
					left += inc - d - clockOverhead
					used += d
				}
				if left < 0 {
					t.Errorf("%v+%v spending %s: ran out of time (%v left)", total, inc, spend, left)
				}
				// At 0.1 s a move the overhead kept back per move is a
				// fifth of the time.
				share := time.Duration(80)
				if total < 10*time.Second {
					share = 60
				}
				// The increments of the solved moves cannot be spent.
				if budget := total + time.Duration(26-(clockSolveEmpties+1)/2)*inc; spend == "soft" && used < budget*share/100 {
					t.Errorf("%v+%v spending soft: used %v of %v", total, inc, used, budget)
				}
			}
		}
	}
}

// A player that ponders aims at clockPonderPercent of the soft limit, and
// still never runs out of time when no hit saves it any (every move spends
// its soft limit, the solved ones too).
func TestClockLimitsPonder(t *testing.T) {
	for _, total := range []time.Duration{3 * time.Second, 10 * time.Second, time.Minute} {
		plain, _ := Clock{Left: total}.Limits(52)
		aim, hard := Clock{Left: total, Ponder: true}.Limits(52)
		if want := min(plain*time.Duration(clockPonderPercent)/100, hard); aim < want-time.Microsecond || aim > want+time.Microsecond {
			t.Errorf("%v: a ponderer's first soft limit %v, want %v (%d%% of %v)", total, aim, want, clockPonderPercent, plain)
		}
		left := total
		for empties := 52; empties >= 1; empties -= 2 {
			soft, hard := Clock{Left: left, Ponder: true}.Limits(empties)
			if soft <= 0 || soft > hard {
				t.Fatalf("%v, %d empties, %v left: soft %v hard %v", total, empties, left, soft, hard)
			}
			left -= soft + clockOverhead
		}
		if left < 0 {
			t.Errorf("%v spending a ponderer's soft limit on every move: ran out of time (%v left)", total, left)
		}
	}
}

func TestClockLimitsEdges(t *testing.T) {
	// Over time: the least time a move is given.
	if soft, hard := (Clock{Left: -time.Second}).Limits(30); soft != clockMinimum || hard != clockMinimum {
		t.Errorf("over time: %v %v", soft, hard)
	}
	// A byo-yomi period of 5 moves in 10 s: no move takes the next ones' time.
	if soft, hard := (Clock{Left: 10 * time.Second, Moves: 5}).Limits(40); hard > 2*time.Second || soft < time.Second {
		t.Errorf("period: %v %v", soft, hard)
	}
	// Main time nearly spent, byo-yomi of 3 s a move to follow: use it.
	if soft, _ := (Clock{Left: time.Second, ByoYomi: 3 * time.Second}).Limits(40); soft < 2*time.Second {
		t.Errorf("byo-yomi to follow: soft %v", soft)
	}
	// Fewer moves left, same time: no less time a move.
	prev := time.Duration(0)
	for empties := 60; empties >= 1; empties-- {
		soft, _ := Clock{Left: 10 * time.Minute}.Limits(empties)
		if soft < prev {
			t.Errorf("%d empties: soft %v shrinks from %v with the same time left", empties, soft, prev)
		}
		prev = soft
	}
}

// fakeClock is a timeManager's elapsed time under a test's control.
type fakeClock time.Duration

func (c *fakeClock) elapsed() time.Duration { return time.Duration(*c) }

func TestTimeManagerIterations(t *testing.T) {
	var now fakeClock
	tm := newTimeManager(Limits{Time: time.Second, Soft: 300 * time.Millisecond}, time.Now())
	tm.elapsed = now.elapsed
	step := func(d time.Duration, best int, score int) {
		now += fakeClock(d)
		tm.iterated(Info{Depth: tm.best.Depth + 1, Best: bitboard.Square(best), Score: score}, 1000)
	}
	step(10*time.Millisecond, 19, 0)
	step(30*time.Millisecond, 19, 0) // growth 3: next 90 ms, ends at 130 ms
	if !tm.another() {
		t.Error("an iteration that fits was not started")
	}
	step(90*time.Millisecond, 19, 0) // at 130 ms; next 270 ms: 130+0.4×270 > 300... fits only in part
	if got, want := tm.another(), 130+timeIterationFitPercent*270/100 <= 300; got != want {
		t.Errorf("another at 130 ms: %v, want %v", got, want)
	}
	step(270*time.Millisecond, 19, 0) // at 400 ms, past soft
	if tm.another() {
		t.Error("an iteration started past the soft limit")
	}
	// The best move changes: the budget stretches, never past hard.
	now = fakeClock(350 * time.Millisecond)
	tm.last, tm.prev = 10*time.Millisecond, 10*time.Millisecond
	step(10*time.Millisecond, 20, 0)
	if !tm.unstable || !tm.another() {
		t.Error("a changed best move did not extend the budget")
	}
	if b := tm.budget(); b > tm.hard || b <= tm.soft {
		t.Errorf("budget %v: want between soft %v and hard %v", b, tm.soft, tm.hard)
	}
	step(10*time.Millisecond, 20, -6) // score drop
	if !tm.unstable {
		t.Error("a score drop did not extend the budget")
	}
	step(10*time.Millisecond, 20, -6)
	if tm.unstable {
		t.Error("a stable iteration kept the budget extended")
	}
}

func TestTimeManagerSolve(t *testing.T) {
	var now fakeClock
	tm := newTimeManager(Limits{Time: time.Second}, time.Now())
	tm.elapsed = now.elapsed
	if tm.solveFits(20) {
		t.Error("a solve predicted with no speed measured")
	}
	now = fakeClock(100 * time.Millisecond)
	tm.iterated(Info{Depth: 1}, 100_000) // 1M nodes a second
	if tm.solveFits(30) || !tm.solveFits(10) {
		t.Error("solve predictions: want 30 empties not to fit in a second, 10 to fit")
	}
	if !newTimeManager(Limits{}, time.Now()).solveFits(40) {
		t.Error("without a time limit the solve does not fit")
	}
}

// TestStoppedIterationKeepsProvenMove: a root move proven better than the
// first one in an iteration that is then stopped is the one to play.
func TestStoppedIterationKeepsProvenMove(t *testing.T) {
	r := &rootSearch{pos: bitboard.Start(), s: &searcher{}}
	var moves []rootMove
	p, o := r.pos.Player, r.pos.Opponent
	for mm := bitboard.Moves(p, o); mm != 0; mm &= mm - 1 {
		sq := bitboard.FirstSquare(mm)
		moves = append(moves, rootMove{sq: sq, flips: flips(p, o, int(sq))})
	}
	if len(moves) != 4 {
		t.Fatalf("%d root moves", len(moves))
	}
	// The first move scores 0, the second +5 (proven better), the third
	// stops the search.
	calls := 0
	child := func(np, no uint64, a, b int) int {
		calls++
		switch calls {
		case 1:
			return 0
		case 2, 3: // the null-window test fails high, the re-search gives +5
			return -5
		}
		panic(abortSignal{})
	}
	r.found.sq = bitboard.NoSquare
	second := moves[1].sq
	func() {
		defer func() {
			if rec := recover(); rec == nil {
				t.Fatal("the search was not stopped")
			}
		}()
		r.searchMoves(moves, -inf, inf, false, child)
	}()
	if r.found.sq != second || r.found.score != 5 {
		t.Errorf("found %v %d, want %v +5", r.found.sq, r.found.score, second)
	}
}
