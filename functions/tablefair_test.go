package functions_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/tablestore"
)

// A fair Pig table through the functions: createGame draws the server's
// seed and getView shows its commitment only; each player's entropy at
// join goes into the game seed; the end reveals the server seed (which
// opens the commitment shown at create), the contributions and the game
// seed they make (recomputed here with rng/fair), and the export replays
// clean. A create retried gets its first answer and the same commitment.
func TestFairTableOverHTTP(t *testing.T) {
	c := newTableServer(t, false, tablestore.NewMemory(registry.Lookup))
	ctx := context.Background()
	tokens := []string{"dev:f0", "dev:f1"}
	create := map[string]any{"game": "pig", "gameId": "fair1", "actionId": "c", "mode": "fair", "seats": 2}
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "createGame", tokens[0], create, &r))
	v0, err := functest.TableView(ctx, c, "fair1", tokens[0])
	require.NoError(t, err)
	require.Equal(t, "fair", v0.Mode)
	require.NotNil(t, v0.Fairness)
	commit := v0.Fairness.CommitmentHex
	require.Len(t, commit, 64)
	require.Empty(t, v0.Fairness.ServerSeedHex)
	var again functions.TableResult
	require.NoError(t, c.Call(ctx, "createGame", tokens[0], create, &again))
	require.True(t, again.Replayed)
	v0, err = functest.TableView(ctx, c, "fair1", tokens[0])
	require.NoError(t, err)
	require.Equal(t, commit, v0.Fairness.CommitmentHex, "a retried create keeps the first server seed")

	entropy := []string{"0A0B0C", ""}
	for i, tok := range tokens {
		v, err := functest.TableView(ctx, c, "fair1", tok)
		require.NoError(t, err)
		require.NoError(t, c.Call(ctx, "joinGame", tok, map[string]any{"gameId": "fair1", "actionId": "j",
			"version": v.Version, "seat": i, "entropy": entropy[i]}, &r))
	}
	require.NoError(t, c.Call(ctx, "startGame", tokens[0], map[string]any{"gameId": "fair1", "actionId": "s", "version": r.Version}, &r))
	bots, err := rng.NewSeeded("fair-http/bots")
	require.NoError(t, err)
	_, end, err := functest.PlayTable(ctx, c, pig.Def, "fair1", tokens, bots, 2000)
	require.NoError(t, err)

	f := end.Fairness
	require.Equal(t, commit, f.CommitmentHex)
	seed, err := hex.DecodeString(f.ServerSeedHex)
	require.NoError(t, err)
	opened := fair.Commitment(seed)
	require.Equal(t, commit, hex.EncodeToString(opened[:]), "the revealed server seed opens the commitment shown at create")
	require.Equal(t, []string{"0a0b0c", ""}, f.ContributionsHex)
	gs := fair.GameSeed(seed, [][]byte{{0x0a, 0x0b, 0x0c}, {}})
	require.Equal(t, hex.EncodeToString(gs[:]), f.GameSeedHex)

	var raw json.RawMessage
	require.NoError(t, c.Call(ctx, "exportGame", tokens[1], map[string]any{"gameId": "fair1"}, &raw))
	rec, err := match.ReadRecord(raw)
	require.NoError(t, err)
	require.Equal(t, f.GameSeedHex, rec.Seed)
	require.Equal(t, commit, rec.Fairness.CommitmentHex)
	d, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, d)
}

// Entropy is refused where it does not belong or is malformed, by name,
// before anything is applied.
func TestTableEntropyRefusals(t *testing.T) {
	c := newTableServer(t, false, tablestore.NewMemory(registry.Lookup))
	ctx := context.Background()
	require.NoError(t, c.Call(ctx, "createGame", "dev:o", map[string]any{"game": "pig", "gameId": "cr", "actionId": "c"}, nil))
	require.NoError(t, c.Call(ctx, "createGame", "dev:o", map[string]any{"game": "pig", "gameId": "fa", "actionId": "c", "mode": "fair"}, nil))
	for _, tc := range []struct {
		name, game, entropy, status, code string
	}{
		{"entropy at a crypto table", "cr", "ab", "INVALID_ARGUMENT", "bad_entropy"},
		{"odd entropy", "fa", "abc", "INVALID_ARGUMENT", "bad_entropy"},
		{"entropy not hex", "fa", "zz", "INVALID_ARGUMENT", "bad_entropy"},
		{"entropy too long", "fa", string(make([]byte, 130)), "INVALID_ARGUMENT", "invalid_entropy"},
	} {
		st, code := status(c.Call(ctx, "joinGame", "dev:p", map[string]any{"gameId": tc.game, "actionId": "j",
			"version": 1, "seat": 0, "entropy": tc.entropy}, nil))
		require.Equal(t, []string{tc.status, tc.code}, []string{st, code}, tc.name)
	}
	st, code := status(c.Call(ctx, "createGame", "dev:o", map[string]any{"game": "pig", "gameId": "x", "actionId": "c", "mode": "dice"}, nil))
	require.Equal(t, []string{"INVALID_ARGUMENT", "invalid_mode"}, []string{st, code})
}
