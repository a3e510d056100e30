package engine_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// ReadRulesFile loads a file as LoadRules loads its bytes, and its errors
// name the file: one that cannot be read, and one LoadRules refuses.
func TestReadRulesFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "rules.json")
	require.NoError(t, os.WriteFile(good, engine.DefaultRulesJSON(), 0o644))
	r, err := engine.ReadRulesFile(good)
	require.NoError(t, err)
	require.Equal(t, engine.DefaultRules().Hash(), r.Hash())

	_, err = engine.ReadRulesFile(filepath.Join(dir, "nosuch.json"))
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorContains(t, err, "cannot read ruleset")
	require.ErrorContains(t, err, "nosuch.json")

	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"maxHp": -1}`), 0o644))
	_, err = engine.ReadRulesFile(bad)
	require.ErrorContains(t, err, "invalid ruleset "+bad+":")
	_, lerr := engine.LoadRules([]byte(`{"maxHp": -1}`))
	require.Error(t, lerr)
	require.ErrorContains(t, err, lerr.Error(), "LoadRules' own error, whole")
	require.Equal(t, lerr, errors.Unwrap(err), "LoadRules' error is wrapped, not flattened")
}

// ClassNames are the classes in their rotation order, as GAME_RULES.md
// lists them.
func TestClassNames(t *testing.T) {
	require.Equal(t, []string{"warrior", "monk", "duelist", "scout"}, engine.ClassNames())
}
