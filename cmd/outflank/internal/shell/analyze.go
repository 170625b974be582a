package shell

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/play"
	"github.com/outflank-othello/outflank/search"
)

// moveLoss is what a move of the game cost its player: the value of the
// position before it (the best move's) minus the value after it, both for
// the player, in discs.
type moveLoss struct {
	ply        int // index of the move in the game
	player     bitboard.Color
	move, best bitboard.Square
	before     int    // value of the best move
	after      int    // value of the move played
	how        string // "exact", or the depth of the search ("depth 12@73%")
}

// loss is 0 for the best move itself: its two values come from two
// searches (of the position before and of the one after), which may
// differ by a disc or two, and the best move is no mistake however they
// differ.
func (m moveLoss) loss() int {
	if m.move == m.best {
		return 0
	}
	return max(0, m.before-m.after)
}

// analyze searches every position of the game, the last first, and lists
// each move with its loss against the best move: exact where the search
// solved the position (from the endgame setting's empties), selective at
// the shell's depth before; then the worst mistakes.
func (s *shell) analyze(args []string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected %q: analyze takes no argument", args[0])
	}
	g := s.hist.Game()
	if len(g.Moves) == 0 {
		return errors.New("no moves to analyse: play a game first")
	}
	positions := s.hist.Positions()
	infos := make([]search.Info, len(positions))
	done := make([]bool, len(positions))
	stopped := s.search(func(ctx context.Context, progress func(search.Info)) {
		s.player.Analyze(ctx, positions, func(i int, in search.Info) {
			infos[i], done[i] = in, true
			if progress != nil {
				progress(in)
			}
		})
	})
	var losses []moveLoss
	for i, m := range g.Moves {
		if m.Square == bitboard.PassMove || !done[i] || !done[i+1] {
			continue
		}
		pos, next := positions[i], positions[i+1]
		after := infos[i+1].Score
		if next.ToMove != pos.ToMove {
			after = -after
		}
		losses = append(losses, moveLoss{ply: i, player: pos.ToMove, move: m.Square, best: infos[i].Best,
			before: infos[i].Score, after: after, how: howFound(infos[i], infos[i+1])})
	}
	if stopped {
		s.out.Printf("Stopped: %d of %d moves analysed (from the end).", len(losses), len(g.Moves))
	}
	s.out.Printf("Each move's value for its player against the best move's (%s):", s.analysisDepth())
	for _, l := range losses {
		note := ""
		if l.loss() > 0 {
			note = fmt.Sprintf("  loses %d (best %s %+d)", l.loss(), l.best, l.before)
		}
		s.out.Println(strings.TrimRight(fmt.Sprintf("%3d. %-5s %-3s %+4d  %-13s%s", l.ply+1, l.player, l.move, l.after, l.how, note), " "))
	}
	worst := slices.Clone(losses)
	slices.SortStableFunc(worst, func(a, b moveLoss) int { return cmp.Compare(b.loss(), a.loss()) })
	var lines []string
	for _, l := range worst {
		if l.loss() == 0 || len(lines) == 3 {
			break
		}
		lines = append(lines, fmt.Sprintf("move %d, %s %s: loses %d (best %s)", l.ply+1, l.player, l.move, l.loss(), l.best))
	}
	if len(lines) == 0 {
		s.out.Println("No mistakes found at this depth.")
		return nil
	}
	s.out.Println("Worst mistakes:")
	for _, l := range lines {
		s.out.Println("  " + l)
	}
	return nil
}

// howFound says how sure a move's loss is: exact when both positions were
// solved, else the shallower search's depth.
func howFound(before, after search.Info) string {
	switch {
	case before.Exact && after.Exact:
		return "exact"
	case !before.Exact && (after.Exact || before.Depth <= after.Depth):
		return "depth " + play.DepthText(before.Depth, before.Selectivity)
	}
	return "depth " + play.DepthText(after.Depth, after.Selectivity)
}

// analysisDepth says how deep the analysis searches.
func (s *shell) analysisDepth() string {
	set := s.player.Settings
	return fmt.Sprintf("depth %d, exact from %d empties", set.Depth, set.Endgame)
}
