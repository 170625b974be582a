package eval

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"
	"unsafe"

	"github.com/outflank-othello/outflank/bitboard"
)

// Weights file format (all numbers little-endian):
//
//	offset size
//	 0     4    magic "OFEV"
//	 4     2    format version (1)
//	 6     2    stages (30 in the embedded file; any divisor of 60)
//	 8     4    layout hash: pattern squares, instances, stages, globals
//	12     2    scale (weight units per disc)
//	14     2    reserved, 0
//	16     4    number of int16 weights (stages*PackedStride())
//	20     4    payload size in bytes
//	24     4    CRC-32 (IEEE) of the weights as little-endian int16s
//	28     4    CRC-32 of bytes 0..27
//	32     ...  payload: the weights, DEFLATE-compressed (most weights of
//	            rare configurations are 0 and compress away); in format
//	            version 2, runs instead: a byte c < 128 stands for c+1
//	            weights of 0, a byte c >= 128 is followed by c-127
//	            weights as little-endian int16s
//
// Version 2 (EncodeRuns) is for a file that its transport compresses: the
// browser build's weights, which the site command gzips and the browser
// unpacks natively. The engine, slow at inflating in WebAssembly, then
// only copies the non-zero weights (a quarter of them), and the browser
// unpacks a third of the bytes it would for the weights as they are.
//
// Everything is checked: a file from another layout, truncated, padded or
// damaged is refused with an error saying which.
const (
	magic         = "OFEV"
	formatVersion = 1
	runsVersion   = 2
	headerSize    = 32
)

//go:embed default.weights
var embedded []byte

// defaultPattern is parsed by Default's first call. Only Default refers
// to the embedded weights, so a program that never calls it (the browser
// build, which fetches them) leaves them out.
var defaultPattern struct {
	once sync.Once
	p    *Pattern
	err  error
}

// Default returns the evaluation built from the weights embedded in the
// binary. It is parsed once, on first use, and shared (it is read-only).
func Default() *Pattern {
	d := &defaultPattern
	d.once.Do(func() { d.p, d.err = Parse(embedded) })
	e, err := d.p, d.err
	if err != nil {
		// The embedded file is checked by the package's tests; reaching
		// this means the build itself is broken.
		panic("eval: embedded weights: " + err.Error())
	}
	return e
}

// Load reads a weights file: its header first, then only as many bytes as
// the header announces, so that a wrong path (/dev/zero, a pipe, a huge
// file) is refused at once instead of read without end.
func Load(path string) (*Pattern, error) {
	data, err := readWeights(path)
	if err != nil {
		return nil, fmt.Errorf("eval weights %s: %w", path, err)
	}
	e, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("eval weights %s: %w", path, err)
	}
	return e, nil
}

// maxPayload bounds the compressed weights a header may announce, far
// above any layout's (the embedded file's is under 1 MiB).
const maxPayload = 64 << 20

// readWeights reads a weights file's header and the payload it announces,
// and one byte more, which Parse reports as trailing data. Parse checks
// the rest.
func readWeights(path string) ([]byte, error) {
	f, err := bitboard.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := make([]byte, headerSize)
	if n, err := io.ReadFull(f, h); err != nil || string(h[:4]) != magic {
		return h[:n], nil // Parse says what is wrong
	}
	size := int64(binary.LittleEndian.Uint32(h[20:]))
	if size > maxPayload {
		return nil, fmt.Errorf("header announces %d bytes of weights, more than a weights file holds (%d)", size, maxPayload)
	}
	body, err := io.ReadAll(io.LimitReader(f, size+1))
	if err != nil {
		return nil, err
	}
	return append(h, body...), nil
}

// Parse decodes a weights file held in memory.
func Parse(data []byte) (*Pattern, error) {
	w, stages, err := decode(data)
	if err != nil {
		return nil, err
	}
	return newPattern(w, stages), nil
}

func decode(data []byte) (w []int16, stages int, err error) {
	if len(data) < headerSize {
		if len(data) >= 4 && string(data[:4]) != magic {
			return nil, 0, errors.New("not an Outflank weights file (bad magic)")
		}
		return nil, 0, fmt.Errorf("truncated: %d bytes, shorter than the %d-byte header", len(data), headerSize)
	}
	h := data[:headerSize]
	le := binary.LittleEndian
	if string(h[:4]) != magic {
		return nil, 0, errors.New("not an Outflank weights file (bad magic)")
	}
	version := le.Uint16(h[4:])
	if version != formatVersion && version != runsVersion {
		return nil, 0, fmt.Errorf("format version %d, this build reads versions %d and %d", version, formatVersion, runsVersion)
	}
	if got, want := le.Uint32(h[28:]), crc32.ChecksumIEEE(h[:28]); got != want {
		return nil, 0, errors.New("header checksum mismatch (damaged file)")
	}
	stages = int(le.Uint16(h[6:]))
	if !ValidStages(stages) {
		return nil, 0, fmt.Errorf("%d stages: want a divisor of 60 (damaged, or another format)", stages)
	}
	if lh := le.Uint32(h[8:]); lh != layoutHash(stages) {
		return nil, 0, fmt.Errorf("made for another pattern layout (layout %08x; this build, at %d stages: %08x)",
			lh, stages, layoutHash(stages))
	}
	if s := le.Uint16(h[12:]); s != Scale {
		return nil, 0, fmt.Errorf("scale %d, this build uses %d", s, Scale)
	}
	n, size := le.Uint32(h[16:]), le.Uint32(h[20:])
	if int(n) != stages*packedStride {
		return nil, 0, fmt.Errorf("%d weights, this layout has %d at %d stages", n, stages*packedStride, stages)
	}
	if have := len(data) - headerSize; int64(have) != int64(size) {
		if have < int(size) {
			return nil, 0, fmt.Errorf("truncated: header says %d bytes of weights, file has %d", size, have)
		}
		return nil, 0, fmt.Errorf("%d bytes of trailing data after the weights", have-int(size))
	}
	var raw []byte
	if version == runsVersion {
		raw, err = unrun(data[headerSize:], 2*int(n))
	} else {
		raw, err = inflate(data[headerSize:], 2*int(n))
	}
	if err != nil {
		return nil, 0, err
	}
	yieldToHost()
	if got, want := crc32.ChecksumIEEE(raw), le.Uint32(h[24:]); got != want {
		return nil, 0, errors.New("weights checksum mismatch (damaged file)")
	}
	yieldToHost()
	w = int16s(raw)
	return w, stages, nil
}

// littleEndian is true where int16s are stored as the weights files
// store them (every platform Outflank is released for).
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// int16s returns the little-endian int16s of raw: raw's own bytes where
// the platform is little-endian, so that the weights are not copied (raw
// is the decoder's own); else a copy.
func int16s(raw []byte) []int16 {
	n := len(raw) / 2
	if n == 0 {
		return []int16{}
	}
	p := unsafe.Pointer(unsafe.SliceData(raw))
	if littleEndian && uintptr(p)%2 == 0 {
		return unsafe.Slice((*int16)(p), n)
	}
	w := make([]int16, n)
	for i := range w {
		w[i] = int16(binary.LittleEndian.Uint16(raw[2*i:]))
	}
	return w
}

// inflate returns the n bytes that the DEFLATE stream z holds, or an error
// if it holds more, fewer or is damaged.
func inflate(z []byte, n int) ([]byte, error) {
	raw := make([]byte, n)
	r := flate.NewReader(bytes.NewReader(z))
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, fmt.Errorf("damaged weights payload: %v", err)
	}
	if k, err := r.Read(make([]byte, 1)); k != 0 || err != io.EOF {
		return nil, errors.New("damaged weights payload: more data than the header says")
	}
	return raw, nil
}

// unrun returns the n bytes of weights that the runs of a version 2
// payload z hold, or an error if it holds more, fewer or is damaged.
func unrun(z []byte, n int) ([]byte, error) {
	damaged := errors.New("damaged weights payload: its runs do not make the number of weights the header says")
	raw := make([]byte, n) // the runs of 0s are skipped over: make zeroes
	at := 0
	for len(z) > 0 {
		c := int(z[0])
		z = z[1:]
		if c < 128 {
			at += 2 * (c + 1)
		} else {
			k := 2 * (c - 127)
			if k > len(z) || at+k > n {
				return nil, damaged
			}
			copy(raw[at:], z[:k])
			z = z[k:]
			at += k
		}
		if at > n {
			return nil, damaged
		}
	}
	if at != n {
		return nil, damaged
	}
	return raw, nil
}

// Encode returns the weights file of e.
func (e *Pattern) Encode() []byte {
	raw := e.payload()
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, flate.BestCompression) // only fails on a bad level
	fw.Write(raw)
	fw.Close()
	return e.file(formatVersion, raw, z.Bytes())
}

// EncodeRuns returns the weights file of e in format version 2, its
// weights as runs of 0s and of others (see the format above): for a file
// that something else compresses.
func (e *Pattern) EncodeRuns() []byte {
	var runs []byte
	w := e.packed
	for i := 0; i < len(w); {
		k := 1 // the run's length, at most 128
		for k < 128 && i+k < len(w) && (w[i+k] == 0) == (w[i] == 0) {
			k++
		}
		if w[i] == 0 {
			runs = append(runs, byte(k-1))
		} else {
			runs = append(runs, byte(127+k))
			for _, v := range w[i : i+k] {
				runs = binary.LittleEndian.AppendUint16(runs, uint16(v))
			}
		}
		i += k
	}
	return e.file(runsVersion, e.payload(), runs)
}

// payload returns e's weights as little-endian int16s.
func (e *Pattern) payload() []byte {
	raw := make([]byte, 2*len(e.packed))
	for i, v := range e.packed {
		binary.LittleEndian.PutUint16(raw[2*i:], uint16(v))
	}
	return raw
}

// file returns a weights file of e's header in this version, whose
// payload stores the weights raw as body.
func (e *Pattern) file(version uint16, raw, body []byte) []byte {
	le := binary.LittleEndian
	h := make([]byte, headerSize, headerSize+len(body))
	copy(h, magic)
	le.PutUint16(h[4:], version)
	le.PutUint16(h[6:], uint16(e.stages))
	le.PutUint32(h[8:], layoutHash(e.stages))
	le.PutUint16(h[12:], Scale)
	le.PutUint32(h[16:], uint32(len(e.packed)))
	le.PutUint32(h[20:], uint32(len(body)))
	le.PutUint32(h[24:], crc32.ChecksumIEEE(raw))
	le.PutUint32(h[28:], crc32.ChecksumIEEE(h[:28]))
	return append(h, body...)
}
