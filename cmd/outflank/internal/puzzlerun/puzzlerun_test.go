package puzzlerun

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/outflank-othello/outflank/cmd/outflank/internal/cli"
)

// TestRulebookCopies: the rulebook suite built into the binary is the one
// in testdata/rulebook, file for file (copy them again after an edit).
func TestRulebookCopies(t *testing.T) {
	for _, name := range []string{"rules.puz", "strategy.puz"} {
		want, err := os.ReadFile("../../../../testdata/rulebook/" + name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := rulebook.ReadFile("rulebook/" + name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("rulebook/%s differs from testdata/rulebook/%s (%v): copy it again", name, name, err)
		}
	}
}

// TestPuzzleWithoutFiles: "outflank puzzle" with no file checks the
// built-in rulebook suite (an installed binary has no testdata).
func TestPuzzleWithoutFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("solves the whole suite")
	}
	fs := pflag.NewFlagSet("puzzle", pflag.ContinueOnError)
	fl := AddFlags(fs)
	if _, err := cli.Parse(fs, []string{"-q"}); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	err := Run(&cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, fl, nil)
	if err != nil || !strings.HasSuffix(out.String(), " missed\n") || !strings.Contains(out.String(), ", 0 missed") {
		t.Errorf("puzzle with no file: %v\n%s%s", err, out.String(), errb.String())
	}
	var puzzles, facts, missed int
	if _, err := fmt.Sscanf(out.String(), "%d puzzles, %d facts, %d missed", &puzzles, &facts, &missed); err != nil || puzzles < 30 || facts < 100 {
		t.Errorf("want the whole suite (%v):\n%s", err, out.String())
	}
}
