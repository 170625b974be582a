package selfplay

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"iter"
	"os"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// The file layout (all integers little-endian):
//
//	header  "OFSP", version u16, reserved u16, seed u64, first u64,
//	        count u64, shard u32, shards u32, params length u16, params,
//	        CRC-32C of all the header's preceding bytes u32
//	block   "OFSB", payload length u32, games u32, CRC-32C of payload u32,
//	        payload: the games, one after another (see appendGame)
//	...
//	end     "OFSE", games u64, blocks u32, CRC-32C of the 16 preceding bytes u32
//
// A run appends one block per checkpoint and the end record when it has
// played every game of its set; nothing may follow the end record. A file
// may also be gzip-compressed as a whole (how the repository keeps data).
const (
	fileMagic  = "OFSP"
	blockMagic = "OFSB"
	endMagic   = "OFSE"

	// Version is the format version this package writes and reads.
	Version = 1

	blockHeaderSize = 16
	endSize         = 20
	maxParams       = 4096
	maxBlockBytes   = 64 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// ErrUnfinished is wrapped by the error of a read that reached the end of
// the data after a whole block but before the end record: a run still being
// generated, or one stopped at a checkpoint. The games read before it are
// sound; a trainer may use them knowingly (errors.Is(err, ErrUnfinished)).
var ErrUnfinished = errors.New("unfinished file: no end record")

// Header says which games a file holds and how they were generated.
type Header struct {
	Seed uint64 // the run's seed; game i is played from a generator seeded with (Seed, i)
	// The file's games are the indices i in [First, First+Count) with
	// i % Shards == Shard-1. Shards == 0 marks a merge of part of such a set
	// (merge --partial): its games may be any indices of [First, First+Count).
	First, Count  uint64
	Shard, Shards int
	// Params describe everything else that decides the games (openings,
	// random moves, temperature, engine level, evaluation, solve depth), as
	// "key=value" words; runs and merges insist on equal Params.
	Params string
}

// Holds reports whether game index i belongs to h's set.
func (h Header) Holds(i uint64) bool {
	if i < h.First || i-h.First >= h.Count {
		return false
	}
	return h.Shards == 0 || i%uint64(h.Shards) == uint64(h.Shard-1)
}

// Size is the number of games in h's set (for a partial merge, the most it
// may hold).
func (h Header) Size() uint64 {
	first, end := h.member(h.First), h.First+h.Count
	if first >= end {
		return 0
	}
	return (end-first-1)/h.step() + 1
}

// member returns the smallest index of h's set at or above i (or beyond
// the range: the caller compares with First+Count).
func (h Header) member(i uint64) uint64 {
	i = max(i, h.First)
	if h.Shards <= 1 {
		return i
	}
	k, s := uint64(h.Shard-1), uint64(h.Shards)
	return i + (k+s-i%s)%s
}

func (h Header) step() uint64 { return uint64(max(1, h.Shards)) }

// Indices yields the game indices of h's set from i on, in increasing
// order, without building a list (a job may hold billions).
func (h Header) Indices(i uint64) iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		end := h.First + h.Count
		for j := h.member(i); j < end && j >= i; j += h.step() {
			if !yield(j) {
				return
			}
		}
	}
}

func (h Header) check() error {
	switch {
	case h.Shards < 0 || h.Shards > 1<<20:
		return fmt.Errorf("shards %d out of range", h.Shards)
	case h.Shards == 0 && h.Shard != 0:
		return fmt.Errorf("shard %d of a partial merge (want 0)", h.Shard)
	case h.Shards > 0 && (h.Shard < 1 || h.Shard > h.Shards):
		return fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N", h.Shard, h.Shards)
	case h.First+h.Count < h.First:
		return fmt.Errorf("game range %d+%d overflows", h.First, h.Count)
	case len(h.Params) > maxParams:
		return fmt.Errorf("params of %d bytes (at most %d)", len(h.Params), maxParams)
	}
	return nil
}

func (h Header) encode() []byte {
	b := []byte(fileMagic)
	b = binary.LittleEndian.AppendUint16(b, Version)
	b = binary.LittleEndian.AppendUint16(b, 0)
	b = binary.LittleEndian.AppendUint64(b, h.Seed)
	b = binary.LittleEndian.AppendUint64(b, h.First)
	b = binary.LittleEndian.AppendUint64(b, h.Count)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Shard))
	b = binary.LittleEndian.AppendUint32(b, uint32(h.Shards))
	b = binary.LittleEndian.AppendUint16(b, uint16(len(h.Params)))
	b = append(b, h.Params...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// ShardString writes the shard as K/N ("partial" for a partial merge).
func (h Header) ShardString() string {
	if h.Shards == 0 {
		return "partial"
	}
	return fmt.Sprintf("%d/%d", h.Shard, h.Shards)
}

// Diff names the first field in which h and o differ ("" if equal),
// for error messages.
func (h Header) Diff(o Header) string {
	switch {
	case h.Seed != o.Seed:
		return fmt.Sprintf("seed %d vs %d", h.Seed, o.Seed)
	case h.First != o.First || h.Count != o.Count:
		return fmt.Sprintf("games [%d,%d) vs [%d,%d)", h.First, h.First+h.Count, o.First, o.First+o.Count)
	case h.Shard != o.Shard || h.Shards != o.Shards:
		return fmt.Sprintf("shard %s vs %s", h.ShardString(), o.ShardString())
	case h.Params != o.Params:
		a, b := strings.Fields(h.Params), strings.Fields(o.Params)
		for i := range max(len(a), len(b)) {
			x, y := "(none)", "(none)"
			if i < len(a) {
				x = a[i]
			}
			if i < len(b) {
				y = b[i]
			}
			if x != y {
				return fmt.Sprintf("params: %s vs %s", x, y)
			}
		}
		return fmt.Sprintf("params %q vs %q", h.Params, o.Params)
	}
	return ""
}

// Game is one self-play game: the placements from Start (passes implied,
// as in WTHOR transcripts) and the exact result.
type Game struct {
	Index uint64 // the game's number in its run (its seed)
	Start bitboard.Position
	Moves []bitboard.Square // placements only; a side with no move passes
	// Opening moves came from the opening list, the next Random were
	// uniformly random; Solved is the number of moves played before the
	// solver took over: Moves[Solved:] are perfect play, so the position
	// before Moves[Solved] (and every later one) has exact value Score.
	Opening, Random, Solved int
	// Score is black's final disc difference, empty squares to the winner
	// (-64..64): the exact perfect-play value of the game from the solve
	// point on.
	Score int
	// Evals, when present, holds the midgame search's view of each move
	// it chose: one entry for each of Moves[Opening+Random:Solved]. They
	// cost nothing to keep (the generator searched every root move to draw
	// the move) and let a trainer label a position by more than where the
	// game went: its search value, or the game's score corrected for the
	// softmax's deliberate mistakes (Sample.Corrected). Files written before
	// they were kept have none.
	Evals []MoveEval
}

// MoveEval is the midgame search's score, in discs from the side to move's
// view, of the best root move and of the move played (Played <= Best; the
// difference is the move's regret as the search saw it).
type MoveEval struct {
	Best, Played int8
}

// searched is the number of moves the midgame search chose.
func (g Game) searched() int { return g.Solved - g.Opening - g.Random }

// evalsFit reports an error unless g has no Evals or one per searched move.
func (g Game) evalsFit() error {
	if g.Evals != nil && len(g.Evals) != g.searched() {
		return fmt.Errorf("%d move evaluations for %d searched moves", len(g.Evals), g.searched())
	}
	return nil
}

// Positions replays g and returns the position before each move (passes
// skipped: the position after a pass is the one listed).
func (g Game) Positions() ([]bitboard.Position, error) {
	played, pos, err := bitboard.Replay(g.Start, g.Moves)
	if err != nil {
		return nil, err
	}
	out := make([]bitboard.Position, 0, len(g.Moves))
	for i, m := range played {
		if m != bitboard.PassMove {
			out = append(out, pos[i])
		}
	}
	return out, nil
}

// Sample is one training position of a game, labelled with the game's
// exact final score from the side to move's view.
type Sample struct {
	Pos   bitboard.Position
	Move  bitboard.Square // the move played
	Score int             // final score for Pos's side to move, empties to the winner
	// Exact says Pos is at or after the solve point: Score is its exact
	// value. Before it Score is the value of the game as played (the WTHOR
	// convention), not necessarily Pos's value.
	Exact bool
	Ply   int // index of Move in the game's Moves

	// Searched says the midgame search chose Move (the game has Evals and
	// Pos is between the random moves and the solve point); Search is then
	// Pos's value by that search (the best root move's score).
	Searched bool
	Search   int
	// Corrected is Score with the regret of every searched move from this
	// one to the solve point given back to the side that made it: what the
	// game would have scored had each chosen the search's best move, with
	// the solver's exact value at the end. Softmax play spreads the label
	// of an early position over the mistakes of twenty later moves; this
	// takes out the part the search can see. Equal to Score where the
	// game has no Evals and from the solve point on; clamped to ±64.
	Corrected int
}

// Samples returns one labelled position per move of g, in order.
func (g Game) Samples() ([]Sample, error) {
	pos, err := g.Positions()
	if err != nil {
		return nil, err
	}
	if err := g.evalsFit(); err != nil {
		return nil, err
	}
	out := make([]Sample, len(pos))
	// regret is black's gain had both sides played the search's best moves
	// from move i on (a sum over the later searched moves).
	regret := 0
	for i := len(pos) - 1; i >= 0; i-- {
		p := pos[i]
		s := g.Score
		out[i] = Sample{Pos: p, Move: g.Moves[i], Exact: i >= g.Solved, Ply: i}
		if k := i - g.Opening - g.Random; g.Evals != nil && k >= 0 && i < g.Solved {
			e := g.Evals[k]
			r := int(e.Best) - int(e.Played)
			if p.ToMove == bitboard.White {
				r = -r
			}
			regret += r
			out[i].Searched, out[i].Search = true, int(e.Best)
		}
		c := max(-64, min(64, s+regret))
		if p.ToMove == bitboard.White {
			s, c = -s, -c
		}
		out[i].Score, out[i].Corrected = s, c
	}
	return out, nil
}

// check replays g and checks that it is a whole legal game whose final
// score is g.Score.
func (g Game) check() error {
	if g.Opening < 0 || g.Random < 0 || g.Solved < g.Opening+g.Random || g.Solved > len(g.Moves) {
		return fmt.Errorf("move counts opening %d, random %d, solved %d out of order for %d moves", g.Opening, g.Random, g.Solved, len(g.Moves))
	}
	_, pos, err := bitboard.Replay(g.Start, g.Moves)
	if err != nil {
		return err
	}
	end := pos[len(pos)-1]
	if !end.GameOver() {
		return fmt.Errorf("the game is not over after %d moves", len(g.Moves))
	}
	if s := 2*end.BlackScoreEmptiesToWinner() - 64; s != g.Score {
		return fmt.Errorf("stored score %+d, but the final position scores %+d", g.Score, s)
	}
	if err := g.evalsFit(); err != nil {
		return err
	}
	for i, e := range g.Evals {
		if e.Best > 64 || e.Played < -64 || e.Played > e.Best {
			return fmt.Errorf("move %d: evaluation best %+d, played %+d (want -64 <= played <= best <= 64)", g.Opening+g.Random+i+1, e.Best, e.Played)
		}
	}
	return nil
}

const (
	flagStart = 1 // the game has its own start position (else the standard one)
	flagEvals = 2 // the moves are followed by the searched moves' evaluations
)

// appendGame encodes g: index uvarint, flags byte, [start: black u64,
// white u64, side to move byte], moves byte, opening byte, random byte,
// solved byte, score int8, then one byte per move (square 0-63), [evals:
// best int8 and played int8 for each searched move].
func appendGame(b []byte, g Game) []byte {
	b = binary.AppendUvarint(b, g.Index)
	var flags byte
	if g.Start != bitboard.Start() {
		flags |= flagStart
	}
	if g.Evals != nil {
		flags |= flagEvals
	}
	b = append(b, flags)
	if flags&flagStart != 0 {
		b = binary.LittleEndian.AppendUint64(b, g.Start.Black())
		b = binary.LittleEndian.AppendUint64(b, g.Start.White())
		b = append(b, byte(g.Start.ToMove))
	}
	b = append(b, byte(len(g.Moves)), byte(g.Opening), byte(g.Random), byte(g.Solved), byte(int8(g.Score)))
	for _, m := range g.Moves {
		b = append(b, byte(m))
	}
	for _, e := range g.Evals {
		b = append(b, byte(e.Best), byte(e.Played))
	}
	return b
}

// decodeGame reads one game from b, returning it and the bytes left.
func decodeGame(b []byte) (Game, []byte, error) {
	var g Game
	idx, n := binary.Uvarint(b)
	if n <= 0 {
		return g, nil, errors.New("bad game index")
	}
	g.Index, b = idx, b[n:]
	if len(b) < 1 {
		return g, nil, errors.New("truncated game")
	}
	flags := b[0]
	b = b[1:]
	if flags&^(flagStart|flagEvals) != 0 {
		return g, nil, fmt.Errorf("unknown game flags %#x", flags)
	}
	g.Start = bitboard.Start()
	if flags&flagStart != 0 {
		if len(b) < 17 {
			return g, nil, errors.New("truncated start position")
		}
		black, white, c := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:]), b[16]
		if black&white != 0 || c > 1 {
			return g, nil, errors.New("bad start position")
		}
		g.Start = bitboard.FromColors(black, white, bitboard.Color(c))
		b = b[17:]
	}
	if len(b) < 5 {
		return g, nil, errors.New("truncated game")
	}
	n = int(b[0])
	g.Opening, g.Random, g.Solved, g.Score = int(b[1]), int(b[2]), int(b[3]), int(int8(b[4]))
	b = b[5:]
	if n > 60 || len(b) < n {
		return g, nil, fmt.Errorf("%d moves (at most 60, %d bytes left)", n, len(b))
	}
	g.Moves = make([]bitboard.Square, n)
	for i, m := range b[:n] {
		if m > 63 {
			return g, nil, fmt.Errorf("move %d: bad square %d", i+1, m)
		}
		g.Moves[i] = bitboard.Square(m)
	}
	b = b[n:]
	if flags&flagEvals != 0 {
		k := g.searched()
		if k < 0 || len(b) < 2*k {
			return g, nil, fmt.Errorf("truncated move evaluations (%d searched moves, %d bytes left)", k, len(b))
		}
		g.Evals = make([]MoveEval, k)
		for i := range g.Evals {
			g.Evals[i] = MoveEval{Best: int8(b[2*i]), Played: int8(b[2*i+1])}
		}
		b = b[2*k:]
	}
	return g, b, nil
}

// Writer appends blocks of games to a file and finishes it with the end
// record. It does not sort or check the games: Run and Merge do.
type Writer struct {
	w      io.Writer
	games  uint64
	blocks uint32
	moves  uint64 // moves of the games written (one labelled position each), for progress
}

// NewWriter writes h to w and returns a writer of its blocks.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("selfplay header: %w", err)
	}
	if _, err := w.Write(h.encode()); err != nil {
		return nil, err
	}
	return &Writer{w: w}, nil
}

// WriteBlock writes games as one block, in a single Write call, so that a
// process killed mid-write leaves at worst one torn block at the end.
func (w *Writer) WriteBlock(games []Game) error {
	if len(games) == 0 {
		return nil
	}
	var payload []byte
	for _, g := range games {
		payload = appendGame(payload, g)
	}
	b := make([]byte, 0, blockHeaderSize+len(payload))
	b = append(b, blockMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(games)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(payload, castagnoli))
	b = append(b, payload...)
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	w.games += uint64(len(games))
	w.blocks++
	for _, g := range games {
		w.moves += uint64(len(g.Moves))
	}
	return nil
}

// Finish writes the end record, which counts every game and block of the
// file, including those written before a resume (see resumeWriter).
func (w *Writer) Finish() error {
	b := []byte(endMagic)
	b = binary.LittleEndian.AppendUint64(b, w.games)
	b = binary.LittleEndian.AppendUint32(b, w.blocks)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	_, err := w.w.Write(b)
	return err
}

// Reader reads and checks a self-play file game by game: every block's CRC
// and count, every game's legality and score, the order and membership of
// the game indices, and the end record's totals.
type Reader struct {
	r      *bufio.Reader
	Header Header

	off     int64 // bytes consumed
	good    int64 // bytes up to the end of the last sound block
	blocks  uint32
	games   uint64
	last    uint64 // index of the last game read
	pending []Game
	done    bool
	torn    bool // the error is a damaged block reaching the end of the data
}

// NewReader reads the header of a self-play file (plain or gzip).
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if m, _ := br.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	rd := &Reader{r: br}
	fixed := make([]byte, 42)
	if _, err := io.ReadFull(br, fixed); err != nil {
		return nil, fmt.Errorf("not a self-play file: too short for a header (%w)", unexpected(err))
	}
	if string(fixed[:4]) != fileMagic {
		return nil, fmt.Errorf("not a self-play file: magic %q, want %q", fixed[:4], fileMagic)
	}
	if v := binary.LittleEndian.Uint16(fixed[4:]); v != Version {
		return nil, fmt.Errorf("self-play format version %d; this program reads version %d", v, Version)
	}
	h := Header{
		Seed:   binary.LittleEndian.Uint64(fixed[8:]),
		First:  binary.LittleEndian.Uint64(fixed[16:]),
		Count:  binary.LittleEndian.Uint64(fixed[24:]),
		Shard:  int(binary.LittleEndian.Uint32(fixed[32:])),
		Shards: int(binary.LittleEndian.Uint32(fixed[36:])),
	}
	n := int(binary.LittleEndian.Uint16(fixed[40:]))
	rest := make([]byte, n+4)
	if _, err := io.ReadFull(br, rest); err != nil {
		return nil, fmt.Errorf("truncated header (%w)", unexpected(err))
	}
	h.Params = string(rest[:n])
	all := append(fixed, rest[:n]...)
	if crc32.Checksum(all, castagnoli) != binary.LittleEndian.Uint32(rest[n:]) {
		return nil, errors.New("header CRC mismatch: the header is damaged")
	}
	if int(binary.LittleEndian.Uint16(fixed[6:])) != 0 {
		return nil, errors.New("header: reserved field is not zero")
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	rd.Header = h
	rd.off = int64(len(all) + 4)
	rd.good = rd.off
	return rd, nil
}

// isEOF says err is the data running out (not an I/O or gzip error).
func isEOF(err error) bool { return err == io.EOF || err == io.ErrUnexpectedEOF }

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Next returns the next game; io.EOF after a sound end record. Any other
// error says what is wrong and where (block number and byte offset); games
// returned before it were sound.
func (r *Reader) Next() (Game, error) {
	for len(r.pending) == 0 {
		if r.done {
			return Game{}, io.EOF
		}
		if err := r.readBlock(); err != nil {
			return Game{}, err
		}
	}
	g := r.pending[0]
	r.pending = r.pending[1:]
	return g, nil
}

func (r *Reader) readBlock() error {
	at, blk := r.off, r.blocks+1
	m, err := r.r.Peek(4)
	if len(m) == 0 && err == io.EOF {
		return fmt.Errorf("%w after %d games in %d blocks (byte %d): the run was stopped or is still going", ErrUnfinished, r.games, r.blocks, at)
	}
	if len(m) < 4 {
		if !isEOF(err) {
			return fmt.Errorf("block %d at byte %d: %w", blk, at, err)
		}
		r.torn = true
		return fmt.Errorf("block %d at byte %d: truncated (%d bytes left)", blk, at, len(m))
	}
	switch string(m) {
	case endMagic:
		return r.readEnd()
	case blockMagic:
	default:
		return fmt.Errorf("block %d at byte %d: bad magic %q (damaged data)", blk, at, m)
	}
	hdr := make([]byte, blockHeaderSize)
	if n, err := io.ReadFull(r.r, hdr); err != nil {
		if !isEOF(err) {
			return fmt.Errorf("block %d at byte %d: %w", blk, at, err)
		}
		r.torn = true
		return fmt.Errorf("block %d at byte %d: truncated block header (%d of %d bytes)", blk, at, n, blockHeaderSize)
	}
	size, count, sum := binary.LittleEndian.Uint32(hdr[4:]), binary.LittleEndian.Uint32(hdr[8:]), binary.LittleEndian.Uint32(hdr[12:])
	if size > maxBlockBytes {
		return fmt.Errorf("block %d at byte %d: payload of %d bytes is implausible (damaged header)", blk, at, size)
	}
	payload := make([]byte, size)
	if n, err := io.ReadFull(r.r, payload); err != nil {
		if !isEOF(err) {
			return fmt.Errorf("block %d at byte %d: %w", blk, at, err)
		}
		r.torn = true
		return fmt.Errorf("block %d at byte %d: truncated (%d of %d payload bytes)", blk, at, n, size)
	}
	r.off += int64(blockHeaderSize) + int64(size)
	if crc32.Checksum(payload, castagnoli) != sum {
		if _, err := r.r.Peek(1); err == io.EOF {
			r.torn = true
		}
		return fmt.Errorf("block %d at byte %d: CRC mismatch (damaged data)", blk, at)
	}
	if count > size/7 { // a game takes at least 7 bytes
		return fmt.Errorf("block %d at byte %d: %d games in %d bytes is impossible (damaged header)", blk, at, count, size)
	}
	games := make([]Game, 0, count)
	for b := payload; len(b) > 0; {
		var g Game
		g, b, err = decodeGame(b)
		if err != nil {
			return fmt.Errorf("block %d at byte %d, game %d: %w", blk, at, len(games)+1, err)
		}
		if err := r.admit(g); err != nil {
			return fmt.Errorf("block %d at byte %d, game %d (index %d): %w", blk, at, len(games)+1, g.Index, err)
		}
		games = append(games, g)
	}
	if uint32(len(games)) != count {
		return fmt.Errorf("block %d at byte %d: holds %d games, its header says %d", blk, at, len(games), count)
	}
	r.blocks++
	r.good = r.off
	r.pending = games
	return nil
}

// admit checks that g may follow the games already read.
func (r *Reader) admit(g Game) error {
	if !r.Header.Holds(g.Index) {
		return fmt.Errorf("index not in the file's set (games [%d,%d), shard %s)", r.Header.First, r.Header.First+r.Header.Count, r.Header.ShardString())
	}
	if r.games > 0 && g.Index <= r.last {
		if g.Index == r.last {
			return errors.New("duplicate game")
		}
		return fmt.Errorf("out of order after index %d", r.last)
	}
	if err := g.check(); err != nil {
		return err
	}
	r.last = g.Index
	r.games++
	return nil
}

func (r *Reader) readEnd() error {
	at := r.off
	b := make([]byte, endSize)
	if n, err := io.ReadFull(r.r, b); err != nil {
		if !isEOF(err) {
			return fmt.Errorf("end record at byte %d: %w", at, err)
		}
		r.torn = true
		return fmt.Errorf("end record at byte %d: truncated (%d of %d bytes)", at, n, endSize)
	}
	if crc32.Checksum(b[:16], castagnoli) != binary.LittleEndian.Uint32(b[16:]) {
		return fmt.Errorf("end record at byte %d: CRC mismatch (damaged data)", at)
	}
	games, blocks := binary.LittleEndian.Uint64(b[4:]), binary.LittleEndian.Uint32(b[12:])
	if games != r.games || blocks != r.blocks {
		return fmt.Errorf("end record at byte %d: says %d games in %d blocks, the file holds %d in %d", at, games, blocks, r.games, r.blocks)
	}
	if h := r.Header; h.Shards != 0 && games != h.Size() {
		return fmt.Errorf("end record at byte %d: %d games, but shard %s of games [%d,%d) has %d", at, games, h.ShardString(), h.First, h.First+h.Count, h.Size())
	}
	if b, err := r.r.Peek(1); len(b) > 0 {
		return fmt.Errorf("data after the end record at byte %d", at+endSize)
	} else if err != io.EOF {
		return fmt.Errorf("after the end record at byte %d: %w", at+endSize, err)
	}
	r.off += endSize
	r.done = true
	return nil
}

// ReadFile reads and checks a whole self-play file (plain or gzip). On an
// error it also returns the sound games read before it; the error names the
// file and what is wrong, and wraps ErrUnfinished for a file without its end
// record (a run in progress or stopped).
func ReadFile(path string) (Header, []Game, error) {
	f, err := bitboard.OpenRegular(path)
	if err != nil {
		return Header{}, nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer f.Close()
	h, games, err := ReadAll(f)
	if err != nil {
		return h, games, fmt.Errorf("%s: %w", path, err)
	}
	return h, games, nil
}

// ReadAll reads and checks a whole self-play stream, as ReadFile.
func ReadAll(r io.Reader) (Header, []Game, error) {
	rd, err := NewReader(r)
	if err != nil {
		return Header{}, nil, err
	}
	var games []Game
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return rd.Header, games, nil
		}
		if err != nil {
			return rd.Header, games, err
		}
		games = append(games, g)
	}
}

// Params builds a Params string from key, value pairs, in order.
func Params(kv ...string) string {
	var sb strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		if i > 0 {
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "%s=%s", kv[i], kv[i+1])
	}
	return sb.String()
}
