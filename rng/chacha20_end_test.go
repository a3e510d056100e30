package rng_test

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/chacha20"

	"github.com/fairboard/fairboard/rng"
)

// The last 256 bytes of a keystream: 2^38 bytes is 2^32 blocks of 64
// bytes, so they are blocks 2^32-4 .. 2^32-1 (RFC 8439's 32-bit counter).
const (
	ccLast    = 256
	ccLastOff = rng.ChaCha20MaxOffset - ccLast // 274877906688
)

// ccLastBytes returns the last 256 keystream bytes of seed's stream, made
// apart from the stream under test: x/crypto's ChaCha20 on key =
// SHA-256(seed) with the zero nonce and its block counter set to 2^32-4.
func ccLastBytes(t *testing.T, seed []byte) []byte {
	t.Helper()
	key := sha256.Sum256(seed)
	var nonce [chacha20.NonceSize]byte
	c, err := chacha20.NewUnauthenticatedCipher(key[:], nonce[:])
	require.NoError(t, err)
	c.SetCounter(1<<32 - 4)
	out := make([]byte, ccLast)
	c.XORKeyStream(out, out)
	return out
}

// SeekChaCha20 accepts an offset exactly 256 bytes before the keystream's
// end, and each kind of read takes those 256 bytes to the end without
// making a block more (the counter would pass 2^32: x/crypto panics). So a
// read that finds exactly the bytes it needs left must use them, not
// refill first: Uint64 with 8 left, Uint32 with 4, Shuffle's draw with 8.
func TestChaCha20ReadsTheLastBytes(t *testing.T) {
	seed := []byte("the end")
	want := ccLastBytes(t, seed)
	seek := func() *rng.ChaCha20 {
		c, err := rng.SeekChaCha20(seed, ccLastOff)
		require.NoError(t, err)
		require.Equal(t, uint64(ccLastOff), c.Offset())
		return c
	}

	c := seek()
	for i := 0; i < ccLast; i += 8 {
		require.Equal(t, binary.BigEndian.Uint64(want[i:]), c.Uint64(), "Uint64 at byte %d of the last 256", i)
	}
	require.Equal(t, uint64(rng.ChaCha20MaxOffset), c.Offset())

	c = seek()
	for i := 0; i < ccLast; i += 4 {
		require.Equal(t, binary.BigEndian.Uint32(want[i:]), c.Uint32(), "Uint32 at byte %d of the last 256", i)
	}
	require.Equal(t, uint64(rng.ChaCha20MaxOffset), c.Offset())

	c = seek()
	got := make([]byte, ccLast)
	n, err := c.Read(got[:100])
	require.NoError(t, err)
	require.Equal(t, 100, n)
	_, _ = c.Read(got[100:])
	require.Equal(t, want, got)

	// Shuffle(33) draws 32 words, one per i from 32 down to 1, and swaps i
	// with word % (i+1) (ADR-005's Intn is a plain remainder).
	type swap struct{ i, j int }
	var wantSwaps, gotSwaps []swap
	for k, i := 0, 32; i > 0; k, i = k+8, i-1 {
		wantSwaps = append(wantSwaps, swap{i, int(binary.BigEndian.Uint64(want[k:]) % uint64(i+1))})
	}
	seek().Shuffle(33, func(i, j int) { gotSwaps = append(gotSwaps, swap{i, j}) })
	require.Equal(t, wantSwaps, gotSwaps)
}

// An offset closer to the end than 256 bytes, or at or past it, is refused
// with ErrRange; 256 bytes before it is the last one accepted (above).
func TestSeekChaCha20NearTheEnd(t *testing.T) {
	for _, off := range []uint64{ccLastOff + 1, ccLastOff + 64, rng.ChaCha20MaxOffset - 1, rng.ChaCha20MaxOffset, rng.ChaCha20MaxOffset + 1, 1<<64 - 1} {
		c, err := rng.SeekChaCha20([]byte("x"), off)
		require.Nil(t, c, "offset %d", off)
		require.True(t, errors.Is(err, rng.ErrRange), "offset %d: %v", off, err)
	}
	c, err := rng.SeekChaCha20([]byte("x"), ccLastOff-1)
	require.NoError(t, err)
	require.Equal(t, uint64(ccLastOff-1), c.Offset())
}
