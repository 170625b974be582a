package train

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/outflank-othello/outflank/bitboard"
	"github.com/outflank-othello/outflank/cmd/outflank/internal/atomicfile"
)

// keyedFile is the framing the trainer's cache files share (samples,
// search labels): a 4-byte magic, version 1, a key naming what the
// contents were made from (so a file of other data or options is refused,
// never used), the record count, fixed-size records, and a CRC-32 of all
// before it (so a truncated or damaged file is reported). Files are written
// whole and renamed into place, so a killed run leaves the last good one.
// A path ending in ".gz" is gzip-compressed (for files to commit).
type keyedFile struct {
	magic string // 4 bytes
	what  string // the file's name in errors: "samples file"
	size  int    // bytes a record
	// otherKey is the error for a file made under another key.
	otherKey string
}

// save writes n records to path under key; put appends record i to b.
func (f keyedFile) save(path, key string, n int, put func(b []byte, i int) []byte) error {
	le := binary.LittleEndian
	b := make([]byte, 0, 16+len(key)+f.size*n+4)
	b = append(b, f.magic...)
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, uint32(len(key)))
	b = append(b, key...)
	b = le.AppendUint32(b, uint32(n))
	for i := range n {
		b = put(b, i)
	}
	b = le.AppendUint32(b, crc32.ChecksumIEEE(b))
	if strings.HasSuffix(path, ".gz") {
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression) // the level is valid
		w.Write(b)                                            // a bytes.Buffer takes every write
		w.Close()
		b = z.Bytes()
	}
	return atomicfile.WriteFile(path, b)
}

// load reads a file that save wrote with key and returns its records'
// bytes and their count.
func (f keyedFile) load(path, key string) (recs []byte, n int, err error) {
	b, err := bitboard.ReadRegular(path)
	if err != nil {
		return nil, 0, err
	}
	le := binary.LittleEndian
	bad := func(why string) ([]byte, int, error) {
		return nil, 0, fmt.Errorf("%s %s: %s", f.what, path, why)
	}
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err == nil {
			b, err = io.ReadAll(z)
		}
		if err != nil {
			return bad("gzip: " + err.Error())
		}
	}
	if len(b) < 20 || string(b[:4]) != f.magic || le.Uint32(b[4:]) != 1 {
		return bad("not a " + f.what)
	}
	if crc32.ChecksumIEEE(b[:len(b)-4]) != le.Uint32(b[len(b)-4:]) {
		return bad("checksum mismatch (truncated or damaged)")
	}
	k := int(le.Uint32(b[8:]))
	if 12+k+8 > len(b) {
		return bad("truncated")
	}
	if string(b[12:12+k]) != key {
		return bad(fmt.Sprintf("%s (%q)", f.otherKey, b[12:12+k]))
	}
	b = b[12+k:]
	n = int(le.Uint32(b))
	b = b[4 : len(b)-4]
	if len(b) != f.size*n {
		return bad("size does not match its count")
	}
	return b, n, nil
}
