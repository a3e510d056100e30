package rng_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng"
)

// fairVectors is the part of rng/fair/testdata/vectors.json (Node's
// OpenSSL ChaCha20 and the spec's arithmetic, see gen.mjs there) about the
// fair stream.
type fairVectors struct {
	Stream struct {
		GameSeedHex string
		Words       []uint32
		Seeks       []struct {
			Offset uint64
			Words  []uint32
		}
	}
	Shuffle52 struct {
		GameSeedHex string
		Perm        []int
		Words       int
	}
}

func loadFairVectors(t *testing.T) (fairVectors, []byte) {
	t.Helper()
	b, err := os.ReadFile("fair/testdata/vectors.json")
	require.NoError(t, err)
	var v fairVectors
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Stream.Words)
	seed, err := hex.DecodeString(v.Stream.GameSeedHex)
	require.NoError(t, err)
	return v, seed
}

func TestFairStreamWords(t *testing.T) {
	v, seed := loadFairVectors(t)
	s := rng.NewFair(seed)
	require.Equal(t, rng.ModeFair, s.Mode())
	require.Equal(t, v.Stream.GameSeedHex, s.Seed())
	for i, w := range v.Stream.Words {
		require.Equal(t, w, s.Uint32(rng.TagTestOnly, nil), "word %d", i)
	}
	st, err := s.State()
	require.NoError(t, err)
	require.Equal(t, "chacha20:"+strconv.Itoa(4*len(v.Stream.Words)), st)
}

// Resuming at any keystream offset, block boundaries and odd offsets
// included, gives the independent implementation's words.
func TestRestoreFairSeeks(t *testing.T) {
	v, seed := loadFairVectors(t)
	for _, sk := range v.Stream.Seeks {
		s, err := rng.RestoreFair(seed, "chacha20:"+strconv.FormatUint(sk.Offset, 10), rng.WithSeq(9))
		require.NoError(t, err)
		require.EqualValues(t, 9, s.Seq())
		for i, w := range sk.Words {
			require.Equal(t, w, s.Uint32(rng.TagTestOnly, nil), "offset %d word %d", sk.Offset, i)
		}
	}
	s, err := rng.RestoreFair(seed, "")
	require.NoError(t, err)
	require.Equal(t, v.Stream.Words[0], s.Uint32(rng.TagTestOnly, nil))
}

// The spec's shuffle over the fair stream is the independent script's.
func TestFairShuffle52(t *testing.T) {
	v, _ := loadFairVectors(t)
	seed, _ := hex.DecodeString(v.Shuffle52.GameSeedHex)
	s := rng.NewFair(seed)
	perm := make([]int, 52)
	for i := range perm {
		perm[i] = i
	}
	rng.Shuffle(s, perm, rng.TagTestOnly, nil)
	require.Equal(t, v.Shuffle52.Perm, perm)
	st, _ := s.State()
	require.Equal(t, "chacha20:"+strconv.Itoa(4*v.Shuffle52.Words), st)
}

// Saving after any mix of draws and resuming continues the very stream.
func TestFairStateRoundTrip(t *testing.T) {
	seed := []byte("round trip")
	ref := rng.NewFair(seed)
	s := rng.NewFair(seed)
	draw := func(s *rng.Stream, i int) []int64 {
		d, _ := s.Dice(6, rng.TagTestOnly, nil)
		v, _ := s.UniformInt(0, 1<<31+5, rng.TagTestOnly, nil) // rejects often
		arr := []int64{1, 2, 3, 4, 5, 6, 7, int64(i)}
		rng.Shuffle(s, arr, rng.TagTestOnly, nil)
		return append(arr, int64(d.Value), v)
	}
	for i := range 40 {
		want := draw(ref, i)
		require.Equal(t, want, draw(s, i), "round %d", i)
		st, err := s.State()
		require.NoError(t, err)
		s, err = rng.RestoreFair(seed, st, rng.WithSeq(s.Seq()))
		require.NoError(t, err)
		require.Equal(t, ref.Seq(), s.Seq())
	}
}

func TestRestoreFairRejects(t *testing.T) {
	for state, want := range map[string]string{
		"sfc32:00":                         `does not start with "chacha20:"`,
		"chacha20:":                        "not a decimal",
		"chacha20:-4":                      "not a decimal",
		"chacha20:0x10":                    "not a decimal",
		"chacha20:04":                      "not a decimal",
		"chacha20:1e3":                     "not a decimal",
		"chacha20:274877906944":            "end of the 2^38-byte keystream",
		"chacha20:99999999999999999999999": "not a decimal",
	} {
		_, err := rng.RestoreFair([]byte("x"), state)
		require.ErrorContains(t, err, want, state)
	}
}

// SeekChaCha20 lands where sequential reads of the same stream are, for
// offsets around the prefix and refill boundaries, and Offset counts every
// kind of read.
func TestSeekChaCha20MatchesReading(t *testing.T) {
	seed := []byte("seek")
	long := make([]byte, 4096)
	rng.NewChaCha20(seed).Read(long)
	for _, off := range []uint64{0, 1, 7, 8, 63, 64, 65, 255, 256, 400, 447, 448, 449, 703, 704, 2000, 4000} {
		c, err := rng.SeekChaCha20(seed, off)
		require.NoError(t, err)
		require.Equal(t, off, c.Offset())
		got := make([]byte, 90)
		c.Read(got[:13])
		_ = c.Uint32()
		_ = c.Uint64()
		c.Read(got[25:])
		require.Equal(t, long[off:off+13], got[:13], "offset %d", off)
		require.Equal(t, long[off+25:off+90], got[25:], "offset %d", off)
		require.Equal(t, off+90, c.Offset())
	}
	c := rng.NewChaCha20(seed)
	require.Zero(t, c.Offset())
	for i := range 300 {
		switch i % 3 {
		case 0:
			c.Uint32()
		case 1:
			c.Uint64()
		default:
			c.Read(make([]byte, i%11))
		}
	}
	d, err := rng.SeekChaCha20(seed, c.Offset())
	require.NoError(t, err)
	for range 50 {
		require.Equal(t, c.Uint64(), d.Uint64())
	}
}

// A fair stream that has drawn nothing saves "chacha20:0", and that state
// (a lone 0 is no leading zero) resumes at the keystream's first byte.
func TestRestoreFairAtZero(t *testing.T) {
	seed := []byte("zero")
	st, err := rng.NewFair(seed).State()
	require.NoError(t, err)
	require.Equal(t, "chacha20:0", st)
	s, err := rng.RestoreFair(seed, st)
	require.NoError(t, err)
	ref := rng.NewChaCha20(seed)
	for i := range 3 {
		require.Equal(t, ref.Uint32(), s.Uint32(rng.TagTestOnly, nil), "word %d", i)
	}
}
