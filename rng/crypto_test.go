package rng

import (
	"encoding/binary"
	"testing"
)

// CryptoSource hands out every byte of each buffer it fetches, in order,
// four at a time little-endian, and fetches the next buffer only when all
// 4096 are used: the 1024th word is the buffer's last four bytes, not the
// first of a new buffer.
func TestCryptoSourceUsesEveryByte(t *testing.T) {
	c := NewCryptoSource()
	first := c.Uint32() // fills the buffer
	fill := c.buf
	if want := binary.LittleEndian.Uint32(fill[:]); first != want {
		t.Fatalf("word 0 = %#x, want the buffer's first 4 bytes %#x", first, want)
	}
	for k := 1; k < cryptoBufSize/4; k++ {
		if got, want := c.Uint32(), binary.LittleEndian.Uint32(fill[4*k:]); got != want {
			t.Fatalf("word %d = %#x, want bytes %d..%d of the buffer %#x", k, got, 4*k, 4*k+3, want)
		}
	}
	if c.off != cryptoBufSize || c.buf != fill {
		t.Fatalf("after 1024 words: off %d, buffer refetched %v; want %d and the same buffer", c.off, c.buf != fill, cryptoBufSize)
	}
	next := c.Uint32() // word 1024: a new buffer
	if c.off != 4 || next != binary.LittleEndian.Uint32(c.buf[:]) {
		t.Fatalf("word 1024: off %d, want 4 and the new buffer's first bytes", c.off)
	}
	if c.buf == fill { // 2^-32768 by chance
		t.Fatal("word 1024 did not fetch a new buffer")
	}
}
