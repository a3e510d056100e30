package dungeonclient

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
)

// TestSecretsFileRoundTrip: the file keeps the seat's secrets, with or
// without the reveal being sent, readable by its owner only; a file that
// is not one (another format, an unknown field), or whose reveal is not
// the last index it revealed, is refused.
func TestSecretsFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "seat.json")
	sec := player.Secrets{GameID: "g", UID: "p2", Seat: 1, ChainLength: 9, ChainSecret: engine.Hash32{1}, KeySeed: engine.Hash32{2}}

	require.NoError(t, saveSecrets(path, &secretsFile{Secrets: sec}))
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	f, err := loadSecrets(path)
	require.NoError(t, err, "a seat that has revealed nothing yet")
	require.Equal(t, sec, f.Secrets)
	require.Nil(t, f.Reveal)

	sec.Revealed, sec.Digest = 3, engine.Hash32{3}
	rv := &engine.Action{Kind: engine.ActReveal, Actor: "p2", Seat: 1, Index: 3}
	require.NoError(t, saveSecrets(path, &secretsFile{Secrets: sec, Reveal: rv}))
	f, err = loadSecrets(path)
	require.NoError(t, err)
	require.Equal(t, rv, f.Reveal)

	for name, bad := range map[string]*secretsFile{
		"another index": {Secrets: sec, Reveal: &engine.Action{Kind: engine.ActReveal, Index: 2}},
		"not a reveal":  {Secrets: sec, Reveal: &engine.Action{Kind: engine.ActMove, Index: 3}},
	} {
		require.NoError(t, saveSecrets(path, bad))
		_, err := loadSecrets(path)
		require.ErrorContains(t, err, "its reveal is not the last index it revealed", name)
	}
	for name, c := range map[string]struct{ body, want string }{
		"another format":   {`{"format":"fairboard-seat/v0","secrets":{}}`, `format "fairboard-seat/v0", want "fairboard-seat/v1"`},
		"an unknown field": {`{"format":"fairboard-seat/v1","secrets":{},"extra":1}`, `unknown field "extra"`},
	} {
		require.NoError(t, os.WriteFile(path, []byte(c.body), 0o600))
		_, err := loadSecrets(path)
		require.ErrorContains(t, err, c.want, name)
	}
	_, err = loadSecrets(filepath.Join(dir, "none.json"))
	require.ErrorContains(t, err, "client: secrets file")
	require.Error(t, saveSecrets(filepath.Join(dir, "no", "such", "dir.json"), &secretsFile{Secrets: sec}))
}
