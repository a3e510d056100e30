package functions_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
)

// verdict is verifyShuffle's answer.
type verdict struct {
	Valid   bool     `json:"valid"`
	Actual  []string `json:"actual_deck"`
	Matches bool     `json:"matches"`
}

// readVectors reads a vectors file an independent implementation wrote
// (each directory's README names it).
func readVectors(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}

func itoas(p []int) []string {
	out := make([]string, len(p))
	for i, v := range p {
		out[i] = strconv.Itoa(v)
	}
	return out
}

// TestVerifyShuffleEveryAlgorithm (issue 9, section 5): verifyShuffle over
// HTTP, for any signed-in caller, answers each algorithm of the registry
// with the deck an independent implementation computed for the seed
// (OpenSSL's ChaCha20 for ADR-005's fisher-yates-v1 and its named deck,
// rng/fair's JavaScript for the fair stream's spec arithmetic, bryc's
// JavaScript for sfc32/cyrb128, the hash-chain GameRng's JavaScript
// transcription, Tenhou's published wall): valid and matching; the same
// deck with two cards swapped is valid, does not match, and comes back
// with the actual deck.
func TestVerifyShuffleEveryAlgorithm(t *testing.T) {
	c, _ := newServer(t, false)
	var adr struct {
		Vectors []struct {
			Name    string
			SeedHex string `json:"seed_hex"`
			Deck    []string
		}
	}
	readVectors(t, "../rng/testdata/chacha20/vectors.json", &adr)
	var fairV struct {
		Shuffle52 struct {
			GameSeedHex string
			Perm        []int
		}
	}
	readVectors(t, "../rng/fair/testdata/vectors.json", &fairV)
	var sfc struct {
		Seeds []struct {
			Seed    string
			Shuffle []struct {
				N      int
				Result []int
			}
		}
	}
	readVectors(t, "../rng/testdata/sfc32/vectors.json", &sfc)
	var hc struct {
		Vectors []struct {
			SeedHex   string `json:"seed_hex"`
			Session   string
			Move      uint32
			Shuffle52 struct{ Values []int }
		}
	}
	readVectors(t, "../rng/testdata/hashchain/vectors.json", &hc)
	var tenhou struct {
		SeedBase64 string `json:"seed_base64"`
		Round1     struct {
			Wall136 []int `json:"wall136"`
		}
	}
	readVectors(t, "../rng/tenhou/testdata/2016022509gm-0009-0000-b327da61.json", &tenhou)

	sfcSeed, sfcPerm := "", []int(nil)
	for _, s := range sfc.Seeds {
		for _, sh := range s.Shuffle {
			if sh.N == 52 && s.Seed != "" {
				sfcSeed, sfcPerm = s.Seed, sh.Result
			}
		}
	}
	require.NotNil(t, sfcPerm)
	last := hc.Vectors[len(hc.Vectors)-1]
	adrV := adr.Vectors[len(adr.Vectors)-1]
	cases := []struct {
		algorithm, seed string
		deck            []string
	}{
		{"fisher-yates-v1", adrV.SeedHex, adrV.Deck},
		{"chacha20-spec-v1", fairV.Shuffle52.GameSeedHex, itoas(fairV.Shuffle52.Perm)},
		{"sfc32-spec-v1", sfcSeed, itoas(sfcPerm)},
		{"hashchain-v1", fmt.Sprintf("%s:%s:%d", last.SeedHex, last.Session, last.Move), itoas(last.Shuffle52.Values)},
		{"tenhou-mt19937-v1", tenhou.SeedBase64, itoas(tenhou.Round1.Wall136)},
	}
	for _, tc := range cases {
		call := func(deck []string) verdict {
			t.Helper()
			var v verdict
			require.NoError(t, c.Call(context.Background(), "verifyShuffle", "dev:anyone",
				map[string]any{"algorithm": tc.algorithm, "seed": tc.seed, "claimed_deck": deck}, &v), tc.algorithm)
			return v
		}
		require.Equal(t, verdict{Valid: true, Actual: tc.deck, Matches: true}, call(tc.deck), tc.algorithm)
		swapped := slices.Clone(tc.deck)
		swapped[0], swapped[len(swapped)-1] = swapped[len(swapped)-1], swapped[0]
		require.Equal(t, verdict{Valid: true, Actual: tc.deck, Matches: false}, call(swapped), tc.algorithm)
	}
}

// TestShufflesOfSeededGame (issue 9, section 5): getShuffle of a finished
// seeded game played over HTTP answers sfc32-spec-v1 and the seed (its
// UTF-8 bytes as hex); the game's first shuffle, on a fresh stream, is
// what verifyShuffle's sfc32-spec-v1 makes of the seed's text. While the
// game is in play its shuffles are refused (the seed is secret until the
// end), and a client can never give the server seed (createGame refuses
// the field).
func TestShufflesOfSeededGame(t *testing.T) {
	c, _ := newServer(t, true)
	ctx := context.Background()
	ps := seats(3)
	var early error
	g := functest.Game{ID: "seeded", Mode: "seeded", Seed: "audit me",
		After: func(_ string, _ functest.Player, res json.RawMessage) error {
			var r functest.Result
			if err := json.Unmarshal(res, &r); err != nil || r.Version != 8 {
				return err
			}
			early = c.Call(ctx, "getShuffle", ps[1].Token, map[string]any{"gameId": "seeded"}, nil)
			return nil
		}}
	_, _, err := functest.Play(ctx, c, g, ps, eng.Rules())
	require.NoError(t, err)
	require.Equal(t, "FAILED_PRECONDITION", functest.Status(early), "getShuffle in play: %v", early)

	var sh service.Shuffles
	require.NoError(t, c.Call(ctx, "getShuffle", ps[2].Token, map[string]any{"gameId": "seeded"}, &sh))
	require.Equal(t, "seeded", string(sh.Mode))
	require.NotEmpty(t, sh.Shuffles)
	for _, s := range sh.Shuffles {
		require.Equal(t, "sfc32-spec-v1", s.Algorithm)
		require.Equal(t, hex.EncodeToString([]byte("audit me")), s.SeedHex)
		require.True(t, s.Verifiable)
	}
	first := sh.Shuffles[0]
	require.Equal(t, engine.DeckIDs[engine.DeckTreasureT1], first.DeckID)
	deck := eng.Rules().InitialDeck(engine.DeckTreasureT1)
	claimed := make([]string, len(first.Order))
	for i, card := range first.Order {
		claimed[i] = strconv.Itoa(slices.Index(deck, card))
	}
	require.Equal(t, "audit me", first.Seed, "seed is verifyShuffle's encoding: the text")
	var v verdict
	require.NoError(t, c.Call(ctx, "verifyShuffle", ps[0].Token,
		map[string]any{"algorithm": first.Algorithm, "seed": first.Seed, "claimed_deck": claimed}, &v))
	require.True(t, v.Valid && v.Matches, "%v vs %v", claimed, v.Actual)

	err = c.Call(ctx, "createGame", "dev:p1", map[string]any{"gameId": "own-seed", "mode": "fair",
		"serverSeed": "00000000000000000000000000000000000000000000000000000000000000aa"}, nil)
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err), "%v", err)
	err = c.Call(ctx, "getView", "dev:p1", map[string]any{"gameId": "own-seed"}, nil)
	require.Equal(t, "NOT_FOUND", functest.Status(err), "the refused create made no game: %v", err)
}
