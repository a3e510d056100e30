package shuffles_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng/shuffles"
)

// readJSON reads a vectors file written by an independent implementation
// (each file's gen.mjs or published data, see its README).
func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}

func perm(t *testing.T, name, seed string, n int) []int {
	t.Helper()
	p, err := shuffles.Permutation(name, seed, n)
	require.NoError(t, err)
	return p
}

// fisher-yates-v1 is ADR-005's shuffle as OpenSSL's ChaCha20 computes it
// (rng/testdata/chacha20); with ADR-005's named deck too.
func TestFisherYatesV1(t *testing.T) {
	var f struct {
		Vectors []struct {
			Name      string
			SeedHex   string `json:"seed_hex"`
			Shuffle52 []int
			Deck      []string
		}
	}
	readJSON(t, "../testdata/chacha20/vectors.json", &f)
	require.NotEmpty(t, f.Vectors)
	for _, v := range f.Vectors {
		require.Equal(t, v.Shuffle52, perm(t, "fisher-yates-v1", v.SeedHex, 52), v.Name)
		r, err := shuffles.Verify("fisher-yates-v1", v.SeedHex, v.Deck)
		require.NoError(t, err)
		require.Equal(t, shuffles.Result{Valid: true, Actual: v.Deck, Matches: true}, *r, v.Name)
	}
	zero := strings.Repeat("00", 32)
	require.Equal(t, []int{4, 17, 35}, perm(t, "fisher-yates-v1", zero, 52)[:3], "the issue's zero-seed start")
}

// chacha20-spec-v1 is the spec's Fisher-Yates over the fair stream's words,
// as rng/fair/testdata/gen.mjs computes it.
func TestChaCha20SpecV1(t *testing.T) {
	var f struct {
		Shuffle52 struct {
			GameSeedHex string
			Perm        []int
		}
	}
	readJSON(t, "../fair/testdata/vectors.json", &f)
	require.Equal(t, f.Shuffle52.Perm, perm(t, "chacha20-spec-v1", f.Shuffle52.GameSeedHex, 52))
	require.Equal(t, []int{3, 30, 33}, f.Shuffle52.Perm[:3], "the zero seed's spec-arithmetic start")
}

// sfc32-spec-v1 is the spec's seeded shuffle (rng/testdata/sfc32, bryc's
// JavaScript).
func TestSFC32SpecV1(t *testing.T) {
	var f struct {
		Seeds []struct {
			Seed    string
			Shuffle []struct {
				N      int
				Result []int
			}
		}
	}
	readJSON(t, "../testdata/sfc32/vectors.json", &f)
	n := 0
	for _, s := range f.Seeds {
		for _, sh := range s.Shuffle {
			if sh.N == 0 {
				continue
			}
			require.Equal(t, sh.Result, perm(t, "sfc32-spec-v1", s.Seed, sh.N), "seed %q n %d", s.Seed, sh.N)
			n++
		}
	}
	require.Greater(t, n, 10)
}

// hashchain-v1 is GameRng's own shuffle (rng/testdata/hashchain, a
// JavaScript transcription of the Rust).
func TestHashChainV1(t *testing.T) {
	var f struct {
		Vectors []struct {
			Name       string
			SeedHex    string `json:"seed_hex"`
			Session    string // a u64 in decimal (JSON numbers cannot hold it)
			Move       uint32
			Shuffle52  struct{ Values []int }
			Shuffle300 struct{ Values []int }
		}
	}
	readJSON(t, "../testdata/hashchain/vectors.json", &f)
	require.NotEmpty(t, f.Vectors)
	for _, v := range f.Vectors {
		seed := fmt.Sprintf("%s:%s:%d", v.SeedHex, v.Session, v.Move)
		require.Equal(t, v.Shuffle52.Values, perm(t, "hashchain-v1", seed, 52), v.Name)
		require.Equal(t, v.Shuffle300.Values, perm(t, "hashchain-v1", seed, 300), v.Name)
		if v.Session == "0" && v.Move == 0 {
			require.Equal(t, v.Shuffle52.Values, perm(t, "hashchain-v1", v.SeedHex, 52), "session and move default to 0")
		}
	}
}

// tenhou-mt19937-v1 rebuilds Tenhou's published wall.
func TestTenhouV1(t *testing.T) {
	var f struct {
		SeedBase64 string `json:"seed_base64"`
		Round1     struct {
			Wall136 []int `json:"wall136"`
		}
	}
	readJSON(t, "../tenhou/testdata/2016022509gm-0009-0000-b327da61.json", &f)
	require.Equal(t, f.Round1.Wall136, perm(t, "tenhou-mt19937-v1", f.SeedBase64, 136))
	require.Equal(t, f.Round1.Wall136, perm(t, "tenhou-mt19937-v1", f.SeedBase64+"@1", 136))
	require.NotEqual(t, f.Round1.Wall136, perm(t, "tenhou-mt19937-v1", f.SeedBase64+"@2", 136))
	wall := make([]string, 136)
	for i, v := range f.Round1.Wall136 {
		wall[i] = strconv.Itoa(v)
	}
	r, err := shuffles.Verify("tenhou-mt19937-v1", f.SeedBase64, wall)
	require.NoError(t, err)
	require.True(t, r.Valid && r.Matches)
	three, err := shuffles.Verify("tenhou-mt19937-v1", f.SeedBase64, r.Actual[:108])
	require.NoError(t, err)
	require.False(t, three.Valid, "the first 108 tiles of a 4-player wall are not the 3-player tiles")
	require.Len(t, three.Actual, 108)
}

func TestVerifyVerdicts(t *testing.T) {
	seed := strings.Repeat("ab", 32)
	r, err := shuffles.Verify("chacha20-spec-v1", seed, []string{"0", "1", "2", "3", "4"})
	require.NoError(t, err)
	require.True(t, r.Valid)
	good := slices.Clone(r.Actual)
	require.Equal(t, good, r.Actual)
	r, err = shuffles.Verify("chacha20-spec-v1", seed, good)
	require.NoError(t, err)
	require.True(t, r.Valid && r.Matches)
	swapped := slices.Clone(good)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	r, err = shuffles.Verify("chacha20-spec-v1", seed, swapped)
	require.NoError(t, err)
	require.True(t, r.Valid)
	require.False(t, r.Matches)
	require.Equal(t, good, r.Actual)
	dup := slices.Clone(good)
	dup[0] = dup[1]
	r, err = shuffles.Verify("chacha20-spec-v1", seed, dup)
	require.NoError(t, err)
	require.False(t, r.Valid || r.Matches)
}

func TestBadInput(t *testing.T) {
	for _, c := range []struct {
		name, seed string
		n          int
		want       string
	}{
		{"nope", "00", 5, `unknown algorithm "nope" (known: fisher-yates-v1, chacha20-spec-v1, sfc32-spec-v1, hashchain-v1, tenhou-mt19937-v1)`},
		{"fisher-yates-v1", "0g", 5, "seed: not hexadecimal"},
		{"fisher-yates-v1", "00", 0, "a deck of 0 cards"},
		{"fisher-yates-v1", "00", shuffles.MaxSize + 1, "a deck of 1000001 cards"},
		{"sfc32-spec-v1", "\xff", 5, "UTF-8"},
		{"hashchain-v1", "00:1", 5, "want HEX or HEX:SESSION:MOVE"},
		{"hashchain-v1", "00:x:0", 5, `session "x" is not a u64`},
		{"hashchain-v1", "00:0:4294967296", 5, `move "4294967296" is not a u32`},
		{"tenhou-mt19937-v1", "AAAA", 136, "seed:"},
		{"tenhou-mt19937-v1", "AAAA", 52, "136 or 108 tiles, not 52"},
		{"tenhou-mt19937-v1", "AAAA@0", 136, `round "0"`},
	} {
		_, err := shuffles.Permutation(c.name, c.seed, c.n)
		require.ErrorIs(t, err, shuffles.ErrInput, c.want)
		require.ErrorContains(t, err, c.want)
	}
	require.Len(t, shuffles.Algorithms(), len(shuffles.Names()))
}
