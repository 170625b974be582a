package bitboard_test

import (
	"fmt"

	"github.com/outflank-othello/outflank/bitboard"
)

func ExampleStart() {
	p := bitboard.Start()
	fmt.Println(bitboard.SquaresString(p.Moves()))
	p = p.Play(bitboard.SquareAt(2, 3)) // c4
	fmt.Println(p.ToMove, bitboard.SquaresString(p.Moves()))
	// Output:
	// d3 c4 f5 e6
	// white c3 e3 c5
}

func ExampleParseBoard() {
	p, err := bitboard.ParseBoard("---------------------------OX------XO--------------------------- X")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(p.Picture(p.Moves()))
	_, err = bitboard.ParseBoard("---X")
	fmt.Println(err)
	// Output:
	//   a b c d e f g h
	// 1 - - - - - - - - 1
	// 2 - - - - - - - - 2
	// 3 - - - * - - - - 3
	// 4 - - * O X - - - 4   X black:  2
	// 5 - - - X O * - - 5   O white:  2
	// 6 - - - - * - - - 6
	// 7 - - - - - - - - 7
	// 8 - - - - - - - - 8
	//   a b c d e f g h
	// board: only 4 of 64 squares
}

func ExamplePlayTranscript() {
	p, err := bitboard.PlayTranscript(bitboard.Start(), "f5d6c3d3c4")
	fmt.Println(p, err)
	_, err = bitboard.PlayTranscript(bitboard.Start(), "f5d6a8")
	fmt.Println(err)
	// Output:
	// ------------------XO------XXX------OXX-----O-------------------- O <nil>
	// move 3 (a8) illegal for black: a8: move flips no disc
}

func ExamplePerft() {
	for d := 1; d <= 6; d++ {
		fmt.Print(bitboard.Perft(bitboard.Start(), d, true), " ")
	}
	// Output: 4 12 56 244 1396 8200
}
