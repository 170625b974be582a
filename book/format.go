package book

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
)

// File format, little-endian:
//
//	magic    "OFBOOK\x1a\n" (8 bytes; the \x1a and \n catch text-mode copies)
//	version  uint16 (3; 2 is read too), parity offset int16 (see
//	         Book.SetParityOffset; 0 in books written before it existed,
//	         which were negamaxed plainly)
//	nodes    uint32, then info length uint32 and the info text (UTF-8)
//	evaluations (version 3): count uint8, then each name as length uint8
//	         and the name (UTF-8)
//	nodes, sorted by key: player uint64, opponent uint64, move count uint8,
//	         then per move: square uint8, value int8, depth uint8,
//	         selectivity uint8, flags uint8 (1: exact, 2: screened; the
//	         six bits above: 0, or i for evaluation i of the list)
//	CRC-32 (IEEE) of everything before it
//
// Every node is a canonical position with a legal move and lists exactly its
// legal moves, each once; Read checks all of it, so a file that passes is a
// book the engine can trust move by move.
const (
	magic     = "OFBOOK\x1a\n"
	magicV1   = "OFBOOK1\n"
	version   = 3
	versionV2 = 2 // no evaluations: every value's is unrecorded
	recSize   = 5
)

// Errors of Read, wrapped with the details.
var (
	ErrNotABook = errors.New("not an Outflank book file (bad magic)")
	ErrVersion  = errors.New("unsupported book version")
	ErrCorrupt  = errors.New("book file is truncated or corrupt")
)

// maxInfo bounds the info text, so that a corrupt length cannot ask for
// gigabytes.
const maxInfo = 1 << 16

// Write saves the book in the binary format; equal books give equal files.
func (b *Book) Write(w io.Writer) error {
	n, size := 0, 0
	for _, rs := range b.all() {
		n, size = n+1, size+17+recSize*len(rs)
	}
	info := b.Info
	if len(info) > maxInfo {
		info = info[:maxInfo]
	}
	buf := make([]byte, 0, len(magic)+12+len(info)+size+4)
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint16(buf, version)
	buf = binary.LittleEndian.AppendUint16(buf, uint16(int16(b.parity)))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(n))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(info)))
	buf = append(buf, info...)
	buf = append(buf, uint8(len(b.evals)))
	for _, name := range b.evals {
		buf = append(buf, uint8(len(name)))
		buf = append(buf, name...)
	}
	for k, rs := range b.sorted() {
		buf = binary.LittleEndian.AppendUint64(buf, k.p)
		buf = binary.LittleEndian.AppendUint64(buf, k.o)
		buf = append(buf, uint8(len(rs)))
		for _, r := range rs {
			buf = append(buf, r.sq, uint8(r.value), r.depth, r.sel, r.flags)
		}
	}
	buf = binary.LittleEndian.AppendUint32(buf, crc32.ChecksumIEEE(buf))
	_, err := w.Write(buf)
	return err
}

// Read loads a book written by Write, checking the magic, version,
// checksum, size and every node (see the format above).
func Read(data []byte) (*Book, error) {
	if bytes.HasPrefix(data, []byte(magicV1)) {
		return nil, fmt.Errorf("%w: version 1 (the WTHOR statistics book); this build reads version %d (outflank book grow builds one)", ErrVersion, version)
	}
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, ErrNotABook
	}
	const head = len(magic) + 12
	if len(data) < head+4 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than a header", ErrCorrupt, len(data))
	}
	v := binary.LittleEndian.Uint16(data[len(magic):])
	if v != version && v != versionV2 {
		return nil, fmt.Errorf("%w: version %d (this build reads %d and %d)", ErrVersion, v, versionV2, version)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if checksum(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch", ErrCorrupt)
	}
	n := binary.LittleEndian.Uint32(body[len(magic)+4:])
	infoLen := binary.LittleEndian.Uint32(body[len(magic)+8:])
	if infoLen > maxInfo || uint64(len(body)) < uint64(head)+uint64(infoLen)+17*uint64(n) {
		return nil, fmt.Errorf("%w: %d positions and %d bytes of info announced, %d bytes present", ErrCorrupt, n, infoLen, len(data))
	}
	parity := int(int16(binary.LittleEndian.Uint16(body[len(magic)+2:])))
	if err := checkParity(parity); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	f := &flat{keys: make([]key, 0, n), off: make([]uint32, 1, n+1)}
	b := &Book{flat: f, Info: string(body[head : head+int(infoLen)]), parity: parity}
	r := body[head+int(infoLen):]
	if v == version {
		var err error
		if b.evals, r, err = readEvals(r); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	// The nodes' moves share one allocation, as they stay when the book
	// is thawed (each node's capped to its own: an added move
	// reallocates).
	d := nodeReader{r: r, n: n, evals: len(b.evals), f: f,
		slab: make([]rec, 0, max(0, len(r)-17*int(n))/recSize)}
	for i := uint32(0); i < n; i++ {
		if err := d.next(i); err != nil {
			return nil, err
		}
	}
	if len(d.r) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last position", ErrCorrupt, len(d.r))
	}
	f.recs = d.slab
	return b, nil
}

// nodeReader reads a file's positions into a flat book, one call each.
type nodeReader struct {
	r     []byte // what is left to read
	n     uint32 // the positions announced
	evals int    // the evaluations the book lists
	f     *flat
	slab  []rec
}

// next reads and checks position i (from 0). It is not inlined into
// Read's loop: WebAssembly runs a function's first, baseline code until
// it returns, and V8 swaps in its optimised code between calls, so a
// loop body called 100,000 times runs optimised where Read's own loop
// would not (the browser build's start reads the book).
//
//go:noinline
func (d *nodeReader) next(i uint32) error {
	r, n := d.r, d.n
	if len(r) < 17 {
		return fmt.Errorf("%w: position %d of %d cut short", ErrCorrupt, i+1, n)
	}
	k := key{binary.LittleEndian.Uint64(r), binary.LittleEndian.Uint64(r[8:])}
	m := int(r[16])
	r = r[17:]
	if len(r) < m*recSize {
		return fmt.Errorf("%w: moves of position %d of %d cut short", ErrCorrupt, i+1, n)
	}
	if i > 0 && !lessKey(d.f.keys[i-1], k) {
		return fmt.Errorf("%w: position %d out of order", ErrCorrupt, i+1)
	}
	slab := d.slab
	if len(slab)+m > cap(slab) { // the file's moves cannot all be there
		return fmt.Errorf("%w: moves of position %d of %d cut short", ErrCorrupt, i+1, n)
	}
	rs := slab[len(slab) : len(slab)+m : len(slab)+m]
	src := r[:m*recSize]
	for j := range rs {
		x := src[j*recSize : j*recSize+recSize]
		rs[j] = rec{sq: x[0], value: int8(x[1]), depth: x[2], sel: x[3], flags: x[4]}
	}
	if err := checkNode(k, rs, d.evals); err != nil {
		return fmt.Errorf("%w: position %d: %v", ErrCorrupt, i+1, err)
	}
	d.r, d.slab = r[m*recSize:], slab[:len(slab)+m]
	d.f.keys = append(d.f.keys, k)
	d.f.off = append(d.f.off, uint32(len(d.slab)))
	return nil
}

// checksum is crc32.ChecksumIEEE(data), taken 64 KiB at a time: in
// WebAssembly one call over megabytes runs in baseline code throughout
// (see nodeReader.next).
func checksum(data []byte) uint32 {
	var c uint32
	for len(data) > 0 {
		n := min(len(data), 64<<10)
		c, data = crc32.Update(c, crc32.IEEETable, data[:n]), data[n:]
	}
	return c
}

// readEvals reads the list of evaluations of a version 3 file from r and
// returns the rest.
func readEvals(r []byte) (evals []string, rest []byte, err error) {
	if len(r) < 1 {
		return nil, nil, errors.New("evaluations cut short")
	}
	n := int(r[0])
	if n > MaxEvaluations {
		return nil, nil, fmt.Errorf("%d evaluations, more than the %d a book holds", n, MaxEvaluations)
	}
	r = r[1:]
	for i := 0; i < n; i++ {
		if len(r) < 1 || len(r) < 1+int(r[0]) {
			return nil, nil, fmt.Errorf("evaluation %d of %d cut short", i+1, n)
		}
		name := string(r[1 : 1+int(r[0])])
		if name == "" || slices.Contains(evals, name) {
			return nil, nil, fmt.Errorf("evaluation %d of %d empty or listed twice", i+1, n)
		}
		evals, r = append(evals, name), r[1+int(r[0]):]
	}
	return evals, r, nil
}

// squareName names a square of a book record, which may be out of range
// in a damaged file.
func squareName(sq uint8) string {
	if sq > 63 {
		return fmt.Sprintf("square %d", sq)
	}
	return bitboard.Square(sq).String()
}

// checkNode checks that k is a canonical position with moves and that rs
// values each of its legal moves once, within the score range, each naming
// one of the book's evals evaluations or none.
func checkNode(k key, rs []rec, evals int) error {
	pos := k.position()
	if k.p&k.o != 0 {
		return errors.New("a square holds two discs")
	}
	if c, _ := pos.Canonical(); c.Player != k.p || c.Opponent != k.o {
		return errors.New("not in canonical form")
	}
	legal := pos.Moves()
	if legal == 0 {
		return errors.New("no legal move")
	}
	var seen uint64
	for _, r := range rs {
		if r.sq > 63 || legal&(1<<r.sq) == 0 {
			return fmt.Errorf("move %s is not legal", squareName(r.sq))
		}
		if seen&(1<<r.sq) != 0 {
			return fmt.Errorf("move %s listed twice", bitboard.Square(r.sq))
		}
		seen |= 1 << r.sq
		if r.value < -64 || r.value > 64 || r.sel > 100 || r.depth == 0 || r.evalIndex() > evals {
			return fmt.Errorf("move %s: value %d, depth %d, selectivity %d, flags %d out of range", bitboard.Square(r.sq), r.value, r.depth, r.sel, r.flags)
		}
	}
	if seen != legal {
		return fmt.Errorf("%d of %d legal moves valued", bits.OnesCount64(seen), bits.OnesCount64(legal))
	}
	return nil
}

// Load reads a book file; errors name the file. It reads the header
// first and then no more than the header allows, so that a wrong path
// (/dev/zero, a pipe, a file of gigabytes) is refused at once.
func Load(path string) (*Book, error) {
	data, err := readBounded(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b, err := Read(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// maxMoves bounds the legal moves of an Othello position (33 is the most
// known), to bound the size a header allows.
const maxMoves = 34

// readBounded reads a book file: the header, then at most what a book of
// the announced positions and info can hold.
func readBounded(path string) ([]byte, error) {
	f, err := bitboard.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	const head = len(magic) + 12
	h := make([]byte, head)
	if n, err := io.ReadFull(f, h); err != nil {
		return h[:n], nil // Read says what is wrong with a short file
	}
	if string(h[:len(magic)]) != magic {
		return h, nil // Read says which magic it is
	}
	n := uint64(binary.LittleEndian.Uint32(h[len(magic)+4:]))
	infoLen := uint64(binary.LittleEndian.Uint32(h[len(magic)+8:]))
	limit := uint64(head) + min(infoLen, maxInfo) + n*(17+recSize*maxMoves) + 4
	if binary.LittleEndian.Uint16(h[len(magic):]) != versionV2 {
		limit += 1 + MaxEvaluations*256 // the evaluations' names
	}
	if uint64(fi.Size()) > limit {
		return nil, fmt.Errorf("%w: %d bytes, more than the %d that %d positions can take", ErrCorrupt, fi.Size(), limit, n)
	}
	body, err := io.ReadAll(io.LimitReader(f, int64(limit)))
	if err != nil {
		return nil, err
	}
	return append(h, body...), nil
}

// Text format (Export, Import): '#' lines are comments, "#info TEXT" lines
// make up the info, "#parity-offset N" sets the parity offset (0 when
// absent), "#evaluation I NAME" names evaluation I (1, 2, ...); every
// other line is a position, the 64 squares a1..h8 with X for the side to
// move, O for the other side and - for empty, then " X", then its moves as
// SQUARE:VALUE@DEPTH/SELECTIVITY, with a trailing x when exact, s when
// screened and ~I when evaluation I valued it: "c4:+2@14/100~1",
// "a1:-20@6/100s". Positions need not be canonical.

// Export writes the whole book as text, one position a line.
func (b *Book) Export(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Outflank opening book, text form of version %d: board (X to move), then moves square:value@depth/selectivity (x: exact, s: screened, ~I: valued by evaluation I)\n", version)
	for _, l := range strings.Split(b.Info, "\n") {
		if l != "" {
			fmt.Fprintf(bw, "#info %s\n", l)
		}
	}
	fmt.Fprintf(bw, "#parity-offset %d\n", b.parity)
	for i, name := range b.evals {
		fmt.Fprintf(bw, "#evaluation %d %s\n", i+1, name)
	}
	for k, rs := range b.sorted() {
		bw.WriteString(bitboard.FromColors(k.p, k.o, bitboard.Black).String())
		for _, r := range rs {
			x := ""
			if r.flags&flagExact != 0 {
				x = "x"
			}
			if r.flags&flagScreened != 0 {
				x += "s"
			}
			if i := r.evalIndex(); i > 0 {
				x += "~" + strconv.Itoa(i)
			}
			fmt.Fprintf(bw, " %s:%+d@%d/%d%s", bitboard.Square(r.sq), r.value, r.depth, r.sel, x)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Import reads a book written by Export (or by hand), checks every position
// as Read does, and negamaxes it. Errors name the line.
func Import(r io.Reader) (*Book, error) {
	b := New()
	ls := bitboard.NewLines(r)
	var info []string
	for ls.Scan() {
		line := strings.TrimSpace(ls.Text())
		if strings.HasPrefix(line, "#info ") {
			info = append(info, strings.TrimPrefix(line, "#info "))
			continue
		}
		if v, ok := strings.CutPrefix(line, "#parity-offset "); ok {
			off, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, ls.Errorf("parity offset %q: not a number", v)
			}
			if err := checkParity(off); err != nil {
				return nil, ls.Errorf("%w", err)
			}
			b.parity = off
			continue
		}
		if v, ok := strings.CutPrefix(line, "#evaluation "); ok {
			is, name, _ := strings.Cut(strings.TrimSpace(v), " ")
			name = strings.TrimSpace(name)
			if i, err := strconv.Atoi(is); err != nil || i != len(b.evals)+1 || name == "" || len(name) > 255 || slices.Contains(b.evals, name) {
				return nil, ls.Errorf("evaluation %q: want \"#evaluation %d NAME\" (numbered from 1 in order, each name once, at most 255 bytes)", v, len(b.evals)+1)
			}
			if len(b.evals) >= MaxEvaluations {
				return nil, ls.Errorf("more than %d evaluations", MaxEvaluations)
			}
			b.evals = append(b.evals, name)
			continue
		}
		if line == "" || line[0] == '#' {
			continue
		}
		if err := b.importLine(line); err != nil {
			return nil, ls.Errorf("%w", err)
		}
	}
	if err := ls.Err(); err != nil {
		return nil, err
	}
	b.Info = strings.Join(info, "\n")
	b.Negamax()
	return b, nil
}

func (b *Book) importLine(line string) error {
	f := strings.Fields(line)
	if len(f) < 3 || f[1] != "X" {
		return errors.New("want a 64-square board, X, and moves")
	}
	pos, err := bitboard.ParseBoard(f[0] + " " + f[1])
	if err != nil {
		return err
	}
	k, s := keyOf(pos)
	if _, dup := b.nodes[k]; dup {
		return errors.New("position listed twice (perhaps in a symmetric form)")
	}
	rs := make([]rec, 0, len(f)-2)
	for _, m := range f[2:] {
		r, err := parseRec(m)
		if err != nil {
			return fmt.Errorf("move %q: %w", m, err)
		}
		r.sq = uint8(s.Square(bitboard.Square(r.sq)))
		rs = append(rs, r)
	}
	if err := checkNode(k, rs, len(b.evals)); err != nil {
		return err
	}
	b.nodes[k] = rs
	return nil
}

// parseRec reads "c4:+2@14/100", "c4:-3@21/100x" or "a1:-20@6/100s".
func parseRec(s string) (rec, error) {
	sqs, rest, ok1 := strings.Cut(s, ":")
	vs, rest, ok2 := strings.Cut(rest, "@")
	ds, ss, ok3 := strings.Cut(rest, "/")
	if !ok1 || !ok2 || !ok3 {
		return rec{}, errors.New("want SQUARE:VALUE@DEPTH/SELECTIVITY")
	}
	var r rec
	if x, e, ok := strings.Cut(ss, "~"); ok {
		i, err := strconv.Atoi(e)
		if err != nil || i < 1 || i > MaxEvaluations {
			return rec{}, fmt.Errorf("evaluation %q: want ~1 to ~%d", e, MaxEvaluations)
		}
		ss, r = x, r.withEval(i)
	}
	if x, ok := strings.CutSuffix(ss, "s"); ok {
		ss, r.flags = x, r.flags|flagScreened
	}
	if x, ok := strings.CutSuffix(ss, "x"); ok {
		ss, r.flags = x, r.flags|flagExact
	}
	sq, err := bitboard.ParseSquare(sqs)
	if err != nil || !sq.IsBoard() {
		return rec{}, fmt.Errorf("bad square %q", sqs)
	}
	v, err1 := strconv.Atoi(vs)
	d, err2 := strconv.Atoi(ds)
	sel, err3 := strconv.Atoi(ss)
	if err1 != nil || err2 != nil || err3 != nil || v < -64 || v > 64 || d < 1 || d > 255 || sel < 0 || sel > 100 {
		return rec{}, errors.New("value -64..64, depth 1..255, selectivity 0..100 wanted")
	}
	r.sq, r.value, r.depth, r.sel = uint8(sq), int8(v), uint8(d), uint8(sel)
	return r, nil
}
