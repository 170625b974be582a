package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeNamesEveryCommand: the command reference beside the binary
// (README.md here) names every command of "outflank help" as
// "`outflank NAME", so a new command cannot go undocumented.
func TestReadmeNamesEveryCommand(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := runWithInput(t, "", "help")
	if err != nil {
		t.Fatal(err)
	}
	listed := 0
	for _, line := range strings.Split(out, "\n") {
		// The help's command lines: two spaces, the name, its summary.
		if !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") {
			continue
		}
		name := strings.Fields(line)[0]
		listed++
		if !strings.Contains(string(b), "`outflank "+name) {
			t.Errorf("cmd/outflank/README.md does not name \"outflank %s\"", name)
		}
	}
	if listed != len(commands) {
		t.Errorf("read %d commands from outflank help, %d are registered", listed, len(commands))
	}
}
