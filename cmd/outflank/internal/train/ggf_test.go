package train

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Self-play records (as "outflank match --games-out" writes them) become
// games labelled by their final score; bad records are reported and skipped.
func TestReadGGF(t *testing.T) {
	const shortest = "(;GM[Othello]PB[a]PW[b]RE[+64.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)"
	recs := []string{
		shortest,
		"(;GM[Othello]B[f5]W[d6];)", // unfinished
		"(;GM[Othello]B[a1];)",      // illegal
		"(;GM[Othello]BO[8 -------- -------- -------- ---OO--- ---**--- -------- -------- -------- *]B[d3];)", // other start
		strings.ReplaceAll(shortest, "PB[a]", "PB[c]"),
	}
	path := filepath.Join(t.TempDir(), "self.ggf")
	os.WriteFile(path, []byte(strings.Join(recs, "\n")+"\n"), 0o644)
	var bads []string
	games, err := ReadGGF(path, func(e error) { bads = append(bads, e.Error()) })
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || games[0].BlackScore != 64 || games[0].TheoryEmpties != 0 || len(games[0].Moves) != 9 {
		t.Fatalf("games: %+v", games)
	}
	want := []string{"record 2: the game stops before its end", "record 3: ggf", "record 4: not from the standard start"}
	if len(bads) != len(want) {
		t.Fatalf("reported %q", bads)
	}
	for i, w := range want {
		if !strings.Contains(bads[i], w) || !strings.Contains(bads[i], "self.ggf") {
			t.Errorf("report %d = %q, want it to name the file and %q", i, bads[i], w)
		}
	}
	// Every position of a self-play game gets the final score (no theory).
	samples, st := Labeler{}.Extract(games, func(e error) { t.Error(e) }, nil)
	if st.Games != 2 || st.Final != len(samples) || len(samples) == 0 {
		t.Fatalf("stats %+v, %d samples", st, len(samples))
	}
	if _, err := ReadGGF(filepath.Join(t.TempDir(), "missing.ggf"), func(error) {}); err == nil {
		t.Error("a missing file was not an error")
	}
	// A file with no record at all is not a GGF file: an error, where it
	// was read as no games and training went on without them.
	junk := filepath.Join(t.TempDir(), "junk.ggf")
	os.WriteFile(junk, []byte("\x8f\x03 random bytes, no record"), 0o644)
	if _, err := ReadGGF(junk, func(error) {}); err == nil || !strings.Contains(err.Error(), "no GGF game record") {
		t.Errorf("a file of random bytes: %v", err)
	}
}

// A GGF file of any bytes is read without a panic: each game returned is
// finished and named by its record, and every record that starts and is
// not returned is reported.
func FuzzReadFinishedGGF(f *testing.F) {
	f.Add("(;GM[Othello]PB[a]PW[b]RE[+64.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)")
	f.Add("(;GM[Othello]B[f5]W[d6];)\n(;GM[Othello]B[a1];)(;")
	f.Add("(;GM[Othello]B[e6]W[f4]B[e3]W[f6]B[g5]W[d6]B[e7]W[f5]B[c5];)(;GM[Othello]PB[x;)")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data string) {
		path := filepath.Join(dir, "f.ggf")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		bad := 0
		games, sources, err := ReadFinishedGGF(path, func(error) { bad++ }, nil)
		if err != nil {
			if !strings.Contains(err.Error(), "no GGF game record") || strings.Contains(data, "(;") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if len(games) != len(sources) {
			t.Fatalf("%d games, %d sources", len(games), len(sources))
		}
		for i, g := range games {
			if !g.Current().GameOver() || !strings.Contains(sources[i], "f.ggf: record ") {
				t.Fatalf("game %d (%s) is not finished", i, sources[i])
			}
		}
		if starts := strings.Count(data, "(;"); len(games)+bad > starts {
			t.Fatalf("%d games and %d reports from %d record starts", len(games), bad, starts)
		}
	})
}
