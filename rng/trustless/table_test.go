package trustless_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng/trustless"
)

// The table action's bytes, assembled by hand from docs/fairness.md's
// definition (lengths counted by hand), and its digest as SHA-256 of the
// digest's own definition over them.
func TestTableActionBytes(t *testing.T) {
	body := []byte(`{"seat":0,"kind":"roll"}`) // 24 bytes
	got := trustless.AppendTableAction(nil, "move", "u1", 7, body, nil, nil)
	want := "00000019" + hex.EncodeToString([]byte("fairboard/table-action/v1")) +
		"00000004" + hex.EncodeToString([]byte("move")) +
		"00000002" + hex.EncodeToString([]byte("u1")) +
		"0000000000000007" +
		"00000018" + hex.EncodeToString(body) +
		"00000000" + "00000000"
	require.Equal(t, want, hex.EncodeToString(got))

	head, key := make([]byte, 32), make([]byte, 32)
	head[0], key[31] = 0xaa, 0xbb
	join := trustless.AppendTableAction(nil, "join", "u2", 1, []byte(`{"seat":1}`), head, key)
	wantJoin := "00000019" + hex.EncodeToString([]byte("fairboard/table-action/v1")) +
		"00000004" + hex.EncodeToString([]byte("join")) +
		"00000002" + hex.EncodeToString([]byte("u2")) +
		"0000000000000001" +
		"0000000a" + hex.EncodeToString([]byte(`{"seat":1}`)) +
		"00000020" + hex.EncodeToString(head) +
		"00000020" + hex.EncodeToString(key)
	require.Equal(t, wantJoin, hex.EncodeToString(join))

	pre, _ := hex.DecodeString("0000001a" + hex.EncodeToString([]byte("fairboard/action-digest/v1")) + "00000001" + hex.EncodeToString([]byte("g")))
	pre = append(pre, 0, 0, 0, byte(len(got)))
	pre = append(pre, got...)
	d := trustless.ActionDigest("g", got)
	require.Equal(t, sha256.Sum256(pre), d)
}
