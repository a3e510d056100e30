package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// kuhnTableRecord plays a crypto Kuhn poker table to its end (each seat
// passes) and returns its record as exportGame gives it.
func kuhnTableRecord(t *testing.T) []byte {
	tb, res, err := table.Create(kuhnDef(t), table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto})
	require.NoError(t, err)
	for i := range 2 {
		res, err = tb.Do(table.Action{Actor: fmt.Sprintf("u%d", i), ActionID: "j", Version: res.Version, Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	res, err = tb.Do(table.Action{Actor: "u0", ActionID: "s", Version: res.Version, Kind: table.KindStart})
	require.NoError(t, err)
	for i := range 2 {
		res, err = tb.Do(table.Action{Actor: fmt.Sprintf("u%d", i), ActionID: "p", Version: res.Version, Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, kuhnDef(t).Kinds(), game.Move{Seat: i, Kind: "pass"})})
		require.NoError(t, err)
	}
	rec, err := tb.Record("u0")
	require.NoError(t, err)
	require.NotNil(t, rec.Decks)
	b, err := json.Marshal(rec)
	require.NoError(t, err)
	return b
}

// "gamectl verify" of a table's record checks its deck's commitment: the
// record as the table gives it verifies (0); a changed salt, order or
// commitment diverges (1), named; a salt that is not hex is bad input
// (2).
func TestVerifyTableDecks(t *testing.T) {
	good := kuhnTableRecord(t)
	path := filepath.Join(t.TempDir(), "kuhn.json")
	require.NoError(t, os.WriteFile(path, good, 0o644))
	code, out, errs := gamectl(t, "verify", path)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "OK kuhn")
	for _, c := range []struct {
		name   string
		change func(s map[string]any)
		code   int
		want   string
	}{
		{"salt", func(s map[string]any) { s["saltHex"] = strings.Repeat("ab", 32) }, 1, "is not salt_0 of the salt key"},
		{"order", func(s map[string]any) { o := s["order"].([]any); o[0], o[1] = o[1], o[0] }, 1, "the replay makes"},
		{"commitment", func(s map[string]any) { s["commitmentHex"] = strings.Repeat("cd", 32) }, 1, "do not open its commitment"},
		{"salt not hex", func(s map[string]any) { s["saltHex"] = "salt" }, 2, "saltHex"},
	} {
		var v map[string]any
		require.NoError(t, json.Unmarshal(good, &v))
		c.change(v["decks"].(map[string]any)["shuffles"].([]any)[0].(map[string]any))
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b, 0o644))
		code, _, errs := gamectl(t, "verify", path)
		require.Equal(t, c.code, code, "%s: %s", c.name, errs)
		require.Contains(t, errs, c.want, c.name)
	}
}

// kuhnDef is Kuhn poker as the registry wires it (lookupGame): the tests
// of the command reach a game as the command does.
func kuhnDef(t *testing.T) game.Definition {
	t.Helper()
	def, err := lookupGame("kuhn")
	require.NoError(t, err)
	return def
}
