package rng

import (
	"crypto/rand"
	"encoding/binary"
)

// cryptoBufSize is how many bytes one system call fetches: 1024 words.
const cryptoBufSize = 4096

// CryptoSource draws words from crypto/rand through a buffer, so that a draw
// is not a system call. It is the source of the spec's "crypto" mode, the only
// mode for real games. Its state cannot be saved: a stream that resumes a
// crypto game simply makes a new one.
type CryptoSource struct {
	buf [cryptoBufSize]byte
	off int
}

// NewCryptoSource returns a source with an empty buffer; the first draw fills
// it.
func NewCryptoSource() *CryptoSource {
	return &CryptoSource{off: cryptoBufSize}
}

// Uint32 returns the next four bytes of the buffer, little-endian, refilling
// it from crypto/rand when it is spent. crypto/rand.Read does not fail on
// supported platforms (Go 1.24+ crashes the program instead), so neither does
// this.
func (c *CryptoSource) Uint32() uint32 {
	if c.off+4 > cryptoBufSize {
		rand.Read(c.buf[:])
		c.off = 0
	}
	v := binary.LittleEndian.Uint32(c.buf[c.off:])
	c.off += 4
	return v
}
