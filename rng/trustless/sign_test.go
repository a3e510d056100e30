package trustless_test

import (
	"crypto/ed25519"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng/trustless"
)

// TestVerify: a signature verifies under its key over its message only;
// keys and signatures of the wrong size are refused, never a panic.
func TestVerify(t *testing.T) {
	pub, priv, err := trustless.GenerateKey()
	require.NoError(t, err)
	d, tr := [32]byte{1}, [32]byte{2}
	msg := trustless.RevealMessage("g", 3, &d, &tr)
	sig := ed25519.Sign(priv, msg)
	require.True(t, trustless.Verify(pub, msg, sig))
	other := trustless.RevealMessage("g", 4, &d, &tr)
	require.False(t, trustless.Verify(pub, other, sig), "another index")
	bad := append([]byte{}, sig...)
	bad[5] ^= 1
	require.False(t, trustless.Verify(pub, msg, bad), "a flipped bit")
	pub2, _, err := trustless.GenerateKey()
	require.NoError(t, err)
	require.False(t, trustless.Verify(pub2, msg, sig), "another key")
	require.False(t, trustless.Verify(pub[:31], msg, sig), "a short key")
	require.False(t, trustless.Verify(pub, msg, sig[:63]), "a short signature")
	require.False(t, trustless.Verify(nil, msg, nil))
}

// TestCanonicalSeparatesFields: moving bytes from one field to the next,
// or changing any one field, changes the encoding and the digest.
func TestCanonicalSeparatesFields(t *testing.T) {
	base := trustless.ActionFields{Kind: "offerDuel", Actor: "p1", Version: 9, Target: "p2"}
	variants := []trustless.ActionFields{
		{Kind: "offerDuel", Actor: "p1p", Version: 9, Target: "2"},
		{Kind: "offerDuel", Actor: "p1", Version: 10, Target: "p2"},
		{Kind: "offerDuel", Actor: "p1", Version: 9, Target: "p3"},
		{Kind: "offerDuel", Actor: "p1", Version: 9, CardID: "p2"},
		{Kind: "offerDuel", Actor: "p1", Version: 9, Target: "p2", KeepSmokeBomb: true},
		{Kind: "offerDuel", Actor: "p1", Version: 9, Target: "p2", Seat: 1},
		{Kind: "move", Actor: "p1", Version: 9, Target: "p2"},
	}
	d0 := trustless.ActionDigest("g", base.AppendCanonical(nil))
	for i, v := range variants {
		d := trustless.ActionDigest("g", v.AppendCanonical(nil))
		require.NotEqual(t, d0, d, "variant %d", i)
	}
	require.NotEqual(t, d0, trustless.ActionDigest("h", base.AppendCanonical(nil)), "another game")
}
