//go:build ignore

// gen_midgame writes midgame.obf, the fixed position set of the midgame
// benchmark: from the first games of testdata/wthor/WTH_2025.wtb, one
// position per game at 48, 40 or 32 empties in turn (real tournament
// boards from the opening to the late midgame), skipping positions where
// the side to move must pass.
//
//	go run gen_midgame.go
package main

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/outflank-othello/outflank/bitboard/wthor"
)

//go:generate go run gen_midgame.go

func main() {
	_, games, _, err := wthor.ReadFile("../testdata/wthor/WTH_2025.wtb")
	if err != nil {
		log.Fatal(err)
	}
	stages := []int{48, 40, 32}
	const perStage = 8
	var b strings.Builder
	n := 0
	for _, g := range games {
		if n == perStage*len(stages) {
			break
		}
		_, pos, err := g.Replay()
		if err != nil {
			continue
		}
		want := stages[n%len(stages)]
		for _, p := range pos {
			if p.Empties() == want && p.Moves() != 0 {
				fmt.Fprintln(&b, p.String())
				n++
				break
			}
		}
	}
	if err := os.WriteFile("midgame.obf", []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}
