package selfplay

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/outflank-othello/outflank/bitboard"
)

// sampleGames are whole games: random legal play from two starts, with
// the score each ends with.
func sampleGames(t testing.TB, n int) []Game {
	var out []Game
	rng := newRand(99, 0)
	other, err := bitboard.ParseBoard("--------" + "--------" + "---XO---" + "--XXXO--" + "---OXX--" + "----O---" + "--------" + "-------- X")
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		start := bitboard.Start()
		if i%3 == 2 {
			start = other
		}
		g := Game{Index: uint64(3*i + 1), Start: start}
		p := start
		for !p.GameOver() {
			if p.MustPass() {
				p = p.Pass()
				continue
			}
			m := p.Moves()
			for k := rng.intn(uint64(bitboard.Count(m))); k > 0; k-- {
				m &= m - 1
			}
			sq := bitboard.FirstSquare(m)
			g.Moves = append(g.Moves, sq)
			p = p.Play(sq)
		}
		g.Opening, g.Random, g.Solved = min(2, len(g.Moves)), min(1, len(g.Moves)), min(5, len(g.Moves))
		g.Score = 2*p.BlackScoreEmptiesToWinner() - 64
		if i%2 == 0 && g.Solved == 5 { // some games carry their 2 searched moves' evaluations
			g.Evals = []MoveEval{{Best: int8(i % 5), Played: int8(i%5 - i%3)}, {Best: -4, Played: -7}}
		}
		out = append(out, g)
	}
	return out
}

func encodeFile(t testing.TB, h Header, blocks ...[]Game) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if err := w.WriteBlock(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var testHeader = Header{Seed: 5, First: 0, Count: 40, Params: "k=v"} // partial: any indices below 40

func TestRoundTrip(t *testing.T) {
	games := sampleGames(t, 9)
	data := encodeFile(t, testHeader, games[:4], games[4:5], games[5:])
	h, got, err := ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if h != testHeader || !reflect.DeepEqual(got, games) {
		t.Errorf("read back %+v and %d games, want %+v and %d", h, len(got), testHeader, len(games))
	}
	// The same through gzip, as the repository keeps data.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(data)
	zw.Close()
	if _, got, err := ReadAll(&z); err != nil || !reflect.DeepEqual(got, games) {
		t.Errorf("gzip: %d games, %v", len(got), err)
	}
	per := float64(len(data)) / float64(len(games))
	moves := 0
	for _, g := range games {
		moves += len(g.Moves)
	}
	if max := 1.2*float64(moves)/float64(len(games)) + 40; per > max {
		t.Errorf("%.1f bytes per game for %.1f moves per game", per, float64(moves)/float64(len(games)))
	}
}

// Corrected labels give each searched move's regret back to the side that
// made it, from the position before that move backwards; the search value
// is the best score of the position's own move.
func TestCorrectedLabels(t *testing.T) {
	g := sampleGames(t, 1)[0]
	g.Evals = []MoveEval{{Best: 5, Played: 3}, {Best: -1, Played: -4}} // moves 3 and 4: regrets 2 and 3
	ss, err := g.Samples()
	if err != nil {
		t.Fatal(err)
	}
	pos, _ := g.Positions()
	sign := func(i int) int { // +1 where black is to move at position i
		if pos[i].ToMove == bitboard.Black {
			return 1
		}
		return -1
	}
	// Black's view of the correction from position i on.
	gain := []int{2*sign(3) + 3*sign(4), 2*sign(3) + 3*sign(4), 2*sign(3) + 3*sign(4), 2*sign(3) + 3*sign(4), 3 * sign(4)}
	for i, s := range ss {
		want, fix := g.Score*sign(i), 0
		if i < len(gain) {
			fix = gain[i]
		}
		if s.Score != want {
			t.Errorf("ply %d: score %+d, want %+d", i, s.Score, want)
		}
		if c := max(-64, min(64, g.Score+fix)) * sign(i); s.Corrected != c {
			t.Errorf("ply %d: corrected %+d, want %+d", i, s.Corrected, c)
		}
		searched := i == 3 || i == 4
		if s.Searched != searched || (i == 3 && s.Search != 5) || (i == 4 && s.Search != -1) {
			t.Errorf("ply %d: searched %v, search %+d", i, s.Searched, s.Search)
		}
	}
	// Without evaluations the correction is nothing.
	g.Evals = nil
	ss, _ = g.Samples()
	for i, s := range ss {
		if s.Corrected != s.Score || s.Searched {
			t.Errorf("no evals, ply %d: corrected %+d, score %+d, searched %v", i, s.Corrected, s.Score, s.Searched)
		}
	}
}

// Every truncation is reported: as ErrUnfinished exactly at a block
// boundary, as damage elsewhere; never as a sound file.
func TestTruncation(t *testing.T) {
	games := sampleGames(t, 4)
	data := encodeFile(t, testHeader, games[:2], games[2:])
	boundaries := map[int]bool{}
	for n := 0; n < len(data); n++ {
		_, got, err := ReadAll(bytes.NewReader(data[:n]))
		if err == nil {
			t.Fatalf("truncated to %d of %d bytes: read without error", n, len(data))
		}
		if errors.Is(err, ErrUnfinished) {
			boundaries[n] = true
			if len(got) != 0 && len(got) != 2 && len(got) != 4 {
				t.Errorf("unfinished at %d: %d games", n, len(got))
			}
		}
	}
	if len(boundaries) != 3 { // after the header, after block 1, after block 2
		t.Errorf("unfinished at %v, want the 3 block boundaries", boundaries)
	}
}

// Every single corrupted byte is reported.
func TestCorruption(t *testing.T) {
	games := sampleGames(t, 3)
	data := encodeFile(t, testHeader, games)
	for i := range data {
		for _, x := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[i] ^= x
			if _, _, err := ReadAll(bytes.NewReader(bad)); err == nil {
				t.Fatalf("byte %d ^ %#x: read without error", i, x)
			}
		}
	}
	if _, _, err := ReadAll(bytes.NewReader(append(bytes.Clone(data), 0))); err == nil || !strings.Contains(err.Error(), "after the end record") {
		t.Errorf("trailing byte: %v", err)
	}
}

// A damaged gzip file is an error or (a byte gzip does not check, like its
// time stamp) the same games: never other games.
func TestGzipCorruption(t *testing.T) {
	games := sampleGames(t, 3)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(encodeFile(t, testHeader, games))
	zw.Close()
	for i := range z.Len() {
		bad := bytes.Clone(z.Bytes())
		bad[i] ^= 0x10
		if _, got, err := ReadAll(bytes.NewReader(bad)); err == nil && !reflect.DeepEqual(got, games) {
			t.Fatalf("gzip byte %d damaged: read other games without error", i)
		}
	}
	// A truncated gzip file is never read as whole.
	for n := 0; n < z.Len(); n++ {
		if _, _, err := ReadAll(bytes.NewReader(z.Bytes()[:n])); err == nil {
			t.Fatalf("gzip truncated to %d of %d bytes: read without error", n, z.Len())
		}
	}
}

// Blocks with sound CRCs but wrong content are refused with what is wrong.
func TestBadContent(t *testing.T) {
	games := sampleGames(t, 3)
	illegal := games[0]
	illegal.Moves = append([]bitboard.Square{illegal.Moves[1]}, illegal.Moves[1:]...)
	short := games[0]
	short.Moves = short.Moves[:len(short.Moves)-1]
	short.Solved = min(short.Solved, len(short.Moves))
	wrongScore := games[0]
	wrongScore.Score += 2
	foreign := games[0]
	foreign.Index = 40
	badEval := games[0]
	badEval.Evals = []MoveEval{{Best: 1, Played: 2}, {Best: 0, Played: 0}} // played above best
	sharded := testHeader
	sharded.Shard, sharded.Shards = 2, 3 // holds 1, 4, 7, ...
	for _, c := range []struct {
		name string
		h    Header
		gs   []Game
		want string
	}{
		{"illegal", testHeader, []Game{illegal}, "illegal"},
		{"unfinished game", testHeader, []Game{short}, "not over"},
		{"score", testHeader, []Game{wrongScore}, "stored score"},
		{"outside", testHeader, []Game{foreign}, "not in the file's set"},
		{"other shard", sharded, []Game{games[0], games[1]}, "not in the file's set"}, // indices 1, 4: 4 is shard 2/3 → fine; see below
		{"evaluation", testHeader, []Game{badEval}, "evaluation best"},
		{"duplicate", testHeader, []Game{games[0], games[0]}, "duplicate"},
		{"order", testHeader, []Game{games[1], games[0]}, "out of order"},
		{"count", Header{Count: 40, Shard: 1, Shards: 2}, nil, "has 20"},
	} {
		if c.name == "other shard" {
			c.gs = []Game{games[0], games[1], games[2]} // 1, 4, 7 in shard 2/3; the end record then wants 13 games
			c.want = "has 13"
		}
		data := encodeFile(t, c.h, c.gs)
		_, _, err := ReadAll(bytes.NewReader(data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	if _, _, err := ReadAll(strings.NewReader("PK\x03\x04 not ours at all, but long enough for a header")); err == nil || !strings.Contains(err.Error(), "not a self-play file") {
		t.Errorf("foreign file: %v", err)
	}
	v2 := encodeFile(t, testHeader)
	v2[4] = 2
	if _, _, err := ReadAll(bytes.NewReader(v2)); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("version 2: %v", err)
	}
}

func FuzzReader(f *testing.F) {
	games := sampleGames(f, 3)
	f.Add(encodeFile(f, testHeader, games[:1], games[1:]))
	f.Add(encodeFile(f, Header{Count: 9, Shards: 0}, games))
	f.Add([]byte(fileMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		h, got, err := ReadAll(bytes.NewReader(data))
		if err != nil {
			return
		}
		// What reads as sound is sound, and writes back to the same bytes
		// when re-blocked the way it was (one block per block read).
		for _, g := range got {
			if err := g.check(); err != nil {
				t.Fatalf("game %d read as sound: %v", g.Index, err)
			}
			if !h.Holds(g.Index) {
				t.Fatalf("game %d outside %+v", g.Index, h)
			}
		}
		_ = fmt.Sprint(h)
	})
}

// The repository's self-play data reads as sound: every block, game and
// score checked.
func TestCommittedData(t *testing.T) {
	h, games, err := ReadFile("../../../../testdata/selfplay/games-seed20261122.sp.gz")
	if err != nil {
		t.Fatal(err)
	}
	if h.Seed != 20261122 || len(games) < 200 || !strings.Contains(h.Params, "solve=24") {
		t.Errorf("header %+v, %d games", h, len(games))
	}
}
