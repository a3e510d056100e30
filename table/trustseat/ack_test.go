package trustseat_test

import (
	"bytes"
	"strings"
	"testing"

	"crypto/sha256"
	"encoding/hex"
	"regexp"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/table/trustseat"
)

// oldBlob is a seat's secrets as Export wrote them before a seat kept an
// acknowledgement (written by the code of commit 1254e28, not by this
// one).
const oldBlob = `{"v":1,"game":"pig","gameId":"old-pig","uid":"p1","seat":1,"chainLength":64,` +
	`"chain":"1fe77233ffba97f85c93ba1bb0a150bcbb04ff0495ba3a36500e6454ec2ac04a",` +
	`"key":"b34a59a020c74d053943e9b6daf025b2df79fa25ccbf7fd3e65af6a1c5bff052",` +
	`"deal":"1469f05dafce1040711564bbe2582417dd911a9e14e2973e4127b2d90529736a","revealed":0,"check":"72ae273bc1aa2280"}`

// TestKeepAck: the acknowledgement a seat keeps goes out with its
// secrets and comes back with them (compacted, as Export writes it); a
// blob written before acknowledgements were kept still restores, with
// none, and is written back byte for byte; an acknowledgement changed in
// the blob is refused as damage; one that is not a JSON object, or is
// too large, is refused by KeepAck (the seat keeps the one it had) and
// by Restore.
func TestKeepAck(t *testing.T) {
	old, err := trustseat.Restore(pig.Def, "old-pig", "p1", 1, []byte(oldBlob))
	require.NoError(t, err, "secrets written before acknowledgements were kept")
	require.Nil(t, old.KeptAck())
	require.Equal(t, oldBlob, string(old.Export()), "written back as they were")

	s, err := trustseat.New(pig.Def, "g1", "u0", 0, 16)
	require.NoError(t, err)
	require.NoError(t, s.KeepAck([]byte(" {\"gameId\": \"g1\", \"what\": \"<reveal>\"}\n")))
	want := `{"gameId":"g1","what":"\u003creveal\u003e"}`
	require.Equal(t, want, string(s.KeptAck()))
	blob := s.Export()
	require.Contains(t, string(blob), `"ack":`+want+`,"check":`)
	back, err := trustseat.Restore(pig.Def, "g1", "u0", 0, blob)
	require.NoError(t, err)
	require.Equal(t, want, string(back.KeptAck()), "the restored seat keeps it")
	require.Equal(t, string(blob), string(back.Export()))

	changed := bytes.Replace(blob, []byte(`"g1","what"`), []byte(`"g2","what"`), 1)
	require.NotEqual(t, blob, changed)
	_, err = trustseat.Restore(pig.Def, "g1", "u0", 0, changed)
	require.ErrorContains(t, err, "damaged")

	for name, bad := range map[string]string{
		"null": "null", "an array": `[1]`, "a string": `"x"`, "not JSON": `{"a":`,
		"too large":              `{"a":"` + strings.Repeat("x", trustseat.MaxAckBytes) + `"}`,
		"too large once escaped": `{"a":"` + strings.Repeat("<", trustseat.MaxAckBytes/2) + `"}`,
	} {
		require.Error(t, s.KeepAck([]byte(bad)), name)
		require.Equal(t, want, string(s.KeptAck()), "%s: the seat keeps the one it had", name)
		// With its check made again, the blob is refused for its
		// acknowledgement, by name.
		_, err := trustseat.Restore(pig.Def, "g1", "u0", 0, resum(t, bytes.Replace(blob, []byte(`"ack":`+want), []byte(`"ack":`+bad), 1)))
		switch name {
		case "not JSON":
			require.ErrorContains(t, err, "not readable")
			continue
		case "too large once escaped": // Export's escaping changes the check
			require.Error(t, err)
			continue
		}
		require.ErrorContains(t, err, "secrets' acknowledgement", name)
	}
	_, err = trustseat.Restore(pig.Def, "g1", "u0", 0, bytes.Replace(blob, []byte(`"ack":{`), []byte(`"ack": {`), 1))
	require.ErrorContains(t, err, "not in the form", "an acknowledgement not written as Export writes it")

	require.NoError(t, s.KeepAck(nil))
	require.Nil(t, s.KeptAck())
	require.NotContains(t, string(s.Export()), `"ack"`)
}

// resum writes blob's check again as Export's documentation defines it
// (the first 16 hex digits of SHA-256 of the blob with its check empty),
// computed over the text.
func resum(t *testing.T, blob []byte) []byte {
	t.Helper()
	re := regexp.MustCompile(`"check":"[0-9a-f]*"}$`)
	require.True(t, re.Match(blob))
	empty := re.ReplaceAll(blob, []byte(`"check":""}`))
	h := sha256.Sum256(empty)
	return re.ReplaceAll(blob, []byte(`"check":"`+hex.EncodeToString(h[:8])+`"}`))
}
