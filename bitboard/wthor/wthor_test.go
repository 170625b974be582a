package wthor

import (
	"os"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// One year of the database is in the repository's testdata (with credit to
// the FFO); the whole database lives beside the repository where the shared
// data is present, or where WTHOR_DIR points.
const (
	repoDir = "../../testdata/wthor"
	dataDir = "../../../shared/data/wthor"
)

// TestReplayWTHOR replays every game of the database legally and checks
// that every finished game's stored score is black's final disc count with
// the empties given to the winner.
func TestReplayWTHOR(t *testing.T) {
	dir := os.Getenv("WTHOR_DIR")
	if dir == "" {
		dir = dataDir
	}
	full := true
	files, err := Files(dir)
	if err != nil || testing.Short() {
		t.Logf("full database not used (%v); replaying testdata/wthor only", err)
		full = false
		if files, err = Files(repoDir); err != nil {
			t.Fatal(err)
		}
	}
	var total, finished, unfinished, coincide int
	for _, f := range files {
		_, games, bad, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bad {
			t.Error(b)
		}
		for i := range games {
			g := &games[i]
			total++
			_, pos, err := g.Replay()
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			last := pos[len(pos)-1]
			if !last.GameOver() {
				unfinished++
				if last.BlackScoreEmptiesToWinner() == g.BlackScore {
					coincide++
				}
				continue
			}
			finished++
			if got := last.BlackScoreEmptiesToWinner(); got != g.BlackScore {
				t.Errorf("%s record %d: stored black score %d, replay gives %d", f, g.Record, g.BlackScore, got)
			}
		}
	}
	t.Logf("%d games, %d finished, %d unfinished (%d of them with a stored score equal to the disc count)", total, finished, unfinished, coincide)
	// The database README counts 137,166 "finished" games: the 137,135 games
	// that really end (neither side can move) plus 31 unfinished records whose
	// official result happens to equal the disc count with empties to the
	// winner. A replay that disagrees with either figure is a rules bug.
	if full && (total != 137548 || finished != 137135 || finished+coincide != 137166) {
		t.Errorf("got %d games, %d finished, %d coinciding; want 137548, 137135, 137166-137135", total, finished, coincide)
	}
}

func TestParseErrors(t *testing.T) {
	if _, _, _, err := Parse(make([]byte, 5)); err == nil {
		t.Error("short header accepted")
	}
	// A header announcing one game, followed by half a record.
	data := make([]byte, headerSize+recordSize/2)
	data[4] = 1
	if _, games, _, err := Parse(data); err == nil || len(games) != 0 {
		t.Errorf("truncated record: err %v, %d games", err, len(games))
	}
	// One record with a bad square byte.
	data = make([]byte, headerSize+recordSize)
	data[4] = 1
	data[headerSize+8] = 56 // f5
	data[headerSize+9] = 99 // not a square
	_, games, bad, err := Parse(data)
	if err != nil || len(games) != 0 || len(bad) != 1 {
		t.Errorf("bad square: err %v, %d games, bad %v", err, len(games), bad)
	}
	// An illegal move is caught by Replay.
	g := Game{Record: 7, Moves: []bitboard.Square{bitboard.SquareAt(0, 0)}}
	if _, _, err := g.Replay(); err == nil {
		t.Error("illegal first move a1 accepted")
	}
}

func FuzzParse(f *testing.F) {
	f.Add(make([]byte, headerSize+recordSize))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, games, _, _ := Parse(data)
		for i := range games {
			games[i].Replay() // must not panic
		}
	})
}
