package trustseat_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/table/trustseat"
)

// edit rewrites one field of blob's JSON (nil value: deletes it) and
// writes it back with its fields in Export's order (json.Marshal sorts a
// map's keys; Restore then refuses the order before anything else, so
// the cases below keep the order by editing the text).
func edit(t *testing.T, blob []byte, field string, value any) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(blob, &m))
	old, ok := m[field]
	require.True(t, ok, field)
	from := `"` + field + `":` + string(old)
	if value == nil {
		from2 := "," + from
		require.Contains(t, string(blob), from2)
		return bytes.Replace(blob, []byte(from2), nil, 1)
	}
	v, err := json.Marshal(value)
	require.NoError(t, err)
	return bytes.Replace(blob, []byte(from), []byte(`"`+field+`":`+string(v)), 1)
}

// A seat's secrets come back only to the same game, table, uid and seat,
// exactly as Export wrote them: every other blob is refused by name
// (never a panic); the blob as written restores the seat that joined
// (the same chain head and key: the control).
func TestSecretsRefused(t *testing.T) {
	s, err := trustseat.New(pig.Def, "g1", "u0", 1, 256)
	require.NoError(t, err)
	blob := s.Export()
	back, err := trustseat.Restore(pig.Def, "g1", "u0", 1, blob)
	require.NoError(t, err)
	require.Equal(t, string(blob), string(back.Export()))
	require.Equal(t, s.Join("j", 2, nil, nil), back.Join("j", 2, nil, nil), "the restored seat joins with the same head, key and signature")

	var w map[string]any
	require.NoError(t, json.Unmarshal(blob, &w))
	for _, c := range []struct {
		name string
		blob []byte
		seat int
		want string
	}{
		{"another table", blob, 1, ""}, // filled below
		{"not JSON", []byte("not json"), 1, "not readable"},
		{"empty", nil, 1, "not readable"},
		{"trailing data", append(append([]byte(nil), blob...), []byte(" {}")...), 1, "data after their end"},
		{"an unknown field", bytes.Replace(blob, []byte(`{"v":1,`), []byte(`{"v":1,"extra":2,`), 1), 1, "unknown field"},
		{"version 3", edit(t, blob, "v", 3), 1, "version 3"},
		{"a missing field", edit(t, blob, "deal", nil), 1, "damaged"},
		{"a damaged secret", edit(t, blob, "chain", strings.Repeat("0", 64)), 1, "damaged"},
		{"a damaged check", edit(t, blob, "check", strings.Repeat("0", 16)), 1, "damaged"},
		{"another seat", blob, 0, "seat 1's, not seat 0's"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				_, err := trustseat.Restore(pig.Def, "g2", "u0", 1, blob)
				require.ErrorContains(t, err, `table "g1"'s, not "g2"'s`)
				_, err = trustseat.Restore(pig.Def, "g1", "u9", 1, blob)
				require.ErrorContains(t, err, `uid "u0"'s, not "u9"'s`)
				_, err = trustseat.Restore(kuhn.Def, "g1", "u0", 1, blob)
				require.ErrorContains(t, err, `a game of "pig", not "kuhn"`)
				return
			}
			_, err := trustseat.Restore(pig.Def, "g1", "u0", c.seat, c.blob)
			require.ErrorContains(t, err, c.want)
		})
	}
	// Every prefix and every single byte changed: refused, never a panic
	// (a changed byte that the JSON still reads fails the check).
	for i := range blob {
		_, err := trustseat.Restore(pig.Def, "g1", "u0", 1, blob[:i])
		require.Error(t, err, "prefix %d", i)
		for _, b := range []byte{'0', 'f', '"', '}', 'x', ' '} {
			if blob[i] == b {
				continue
			}
			bad := append([]byte(nil), blob...)
			bad[i] = b
			_, err := trustseat.Restore(pig.Def, "g1", "u0", 1, bad)
			require.Error(t, err, "byte %d made %q", i, b)
		}
	}
}

// FuzzRestore: no input panics Restore, and whatever it accepts is
// written back byte for byte.
func FuzzRestore(f *testing.F) {
	s, err := trustseat.New(pig.Def, "g1", "u0", 0, 16)
	require.NoError(f, err)
	f.Add(s.Export())
	f.Add([]byte(`{"v":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		back, err := trustseat.Restore(pig.Def, "g1", "u0", 0, b)
		if err == nil {
			require.Equal(t, string(b), string(back.Export()))
		}
	})
}
