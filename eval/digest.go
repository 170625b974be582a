package eval

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
)

// Digest identifies the weights: the first 8 bytes of a SHA-256 of the
// stage count and the packed weights, in hex. It is what a store of
// searched values (the opening book) records, so that values from other
// weights can be found and searched again; weights equal to the last bit
// give the same digest, whatever file or compression they came from.
func (e *Pattern) Digest() string {
	e.digestOnce.Do(func() {
		h := sha256.New()
		b := binary.LittleEndian.AppendUint16(nil, uint16(e.stages))
		for _, w := range e.packed {
			b = binary.LittleEndian.AppendUint16(b, uint16(w))
		}
		h.Write(b)
		e.digest = fmt.Sprintf("%x", h.Sum(nil)[:8])
	})
	return e.digest
}
