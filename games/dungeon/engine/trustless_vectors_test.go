package engine_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng/trustless"
)

// TestActionDigestKnownAnswers: the canonical encoding, digest and
// signed message of each action of the worked example of
// rng/trustless/testdata/vectors.json (computed by Node from the
// protocol's definitions) are Node's: every field of an Action goes to
// its place in the encoding, a join's chain head and key included. The
// engine and the players' seats use the same functions, so a game played
// through both would not see a field dropped or a digest of zeros; these
// numbers do.
func TestActionDigestKnownAnswers(t *testing.T) {
	b, err := os.ReadFile("../../../rng/trustless/testdata/vectors.json")
	require.NoError(t, err)
	var v struct {
		Example struct {
			GameID      string `json:"gameId"`
			ChainLength int
			Seats       []struct {
				Seat                  int
				UID                   string `json:"uid"`
				Class                 engine.Class
				PublicKeyHex, HeadHex string
			}
			Records []struct {
				Kind                                                 string
				Actor                                                string
				Version                                              uint64
				CanonicalHex, DigestHex, SignatureHex, TranscriptHex string
			}
		}
	}
	require.NoError(t, json.Unmarshal(b, &v))
	e := v.Example
	require.Len(t, e.Records, 2+len(e.Seats), "create, the joins, start")
	key := map[string][]byte{}
	for i, r := range e.Records {
		a := engine.Action{Kind: engine.ActionKind(r.Kind), Actor: r.Actor, Version: r.Version}
		switch a.Kind {
		case engine.ActCreate:
			a.GameID, a.Mode, a.ChainLength, a.DeadlineMs = e.GameID, "trustless", e.ChainLength, 60000
		case engine.ActJoin:
			s := e.Seats[i-1]
			require.Equal(t, s.UID, r.Actor)
			a.Seat, a.Class, a.ChainHead, a.PublicKey = s.Seat, s.Class, s.HeadHex, s.PublicKeyHex
			pub, err := hex.DecodeString(s.PublicKeyHex)
			require.NoError(t, err)
			key[s.UID] = pub
		}
		c, err := a.Canonical()
		require.NoError(t, err, "record %d", i)
		require.Equal(t, r.CanonicalHex, hex.EncodeToString(c), "record %d (%s)", i, r.Kind)
		d, err := engine.ActionDigest(e.GameID, &a)
		require.NoError(t, err)
		require.Equal(t, r.DigestHex, d.String(), "record %d (%s)", i, r.Kind)
		if r.SignatureHex == "" {
			continue
		}
		msg, err := engine.ActionMessage(e.GameID, &a)
		require.NoError(t, err)
		sig, err := hex.DecodeString(r.SignatureHex)
		require.NoError(t, err)
		require.True(t, trustless.Verify(key[r.Actor], msg, sig), "record %d (%s): Node's signature verifies over the engine's message", i, r.Kind)
	}
}

// TestTrustlessFieldsRefusesABadKey: a chain head or public key that is
// present must be 64 hex digits; the error names the field. Absent, it
// is left out of the encoding (an action other than a join).
func TestTrustlessFieldsRefusesABadKey(t *testing.T) {
	good := "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
	for name, a := range map[string]engine.Action{
		"chainHead": {Kind: engine.ActJoin, Actor: "p1", ChainHead: good[2:], PublicKey: good},
		"publicKey": {Kind: engine.ActJoin, Actor: "p1", ChainHead: good, PublicKey: "zz" + good[2:]},
	} {
		_, err := a.TrustlessFields()
		require.ErrorContains(t, err, name+" must be 32 bytes as 64 hex digits")
		_, err = engine.ActionDigest("g", &a)
		require.Error(t, err, name)
		_, err = engine.ActionMessage("g", &a)
		require.Error(t, err, name)
	}
	f, err := (&engine.Action{Kind: engine.ActJoin, Actor: "p1", ChainHead: good, PublicKey: good}).TrustlessFields()
	require.NoError(t, err)
	require.Equal(t, good, hex.EncodeToString(f.ChainHead))
	require.Equal(t, good, hex.EncodeToString(f.PublicKey))
	f, err = (&engine.Action{Kind: engine.ActMove, Actor: "p1", Version: 3}).TrustlessFields()
	require.NoError(t, err)
	require.Empty(t, f.ChainHead)
	require.Empty(t, f.PublicKey)
}

// TestTrustlessSeatOfAStranger: Seat finds a seated player and its index,
// and answers nil, -1 for a uid with no seat.
func TestTrustlessSeatOfAStranger(t *testing.T) {
	tg := newTrustless(t, 3)
	tr := tg.g.Public.Trustless
	ts, i := tr.Seat("p3")
	require.NotNil(t, ts)
	require.Equal(t, 2, i)
	require.Equal(t, 2, ts.Seat)
	ts, i = tr.Seat("p9")
	require.Nil(t, ts)
	require.Equal(t, -1, i)
}
