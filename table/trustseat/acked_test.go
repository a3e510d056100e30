package trustseat_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// ackKeys are two Ed25519 keys from fixed seeds: the server's and
// another.
func ackKeys() (server, other ed25519.PrivateKey) {
	seed := make([]byte, ed25519.SeedSize)
	seed[0] = 1
	server = ed25519.NewKeyFromSeed(seed)
	seed[0] = 2
	return server, ed25519.NewKeyFromSeed(seed)
}

// revealAction is p1's reveal (seat 1) of index 3 at table g1.
func revealAction() table.Action {
	return table.Action{Actor: "p1", ActionID: "reveal-3", Kind: table.KindReveal, Reveal: &table.Reveal{
		Seat: 1, Index: 3, Link: strings.Repeat("ab", 32), Digest: strings.Repeat("11", 32),
		Transcript: strings.Repeat("22", 32), Signature: strings.Repeat("33", 64)}}
}

// signReveal is the server's signature of a (a reveal) at at, made here
// from rng/trustless.AckMessage's fields directly, not through
// table.AckMessage.
func signReveal(key ed25519.PrivateKey, gameID string, a table.Action, at int64) *trustseat.ServerAck {
	r := a.Reveal
	var d, tr [32]byte
	db, _ := hex.DecodeString(r.Digest)
	tb, _ := hex.DecodeString(r.Transcript)
	sig, _ := hex.DecodeString(r.Signature)
	copy(d[:], db)
	copy(tr[:], tb)
	msg := trustless.AckMessage(gameID, a.Actor, uint32(r.Seat), r.Index, &d, &tr, sig, at)
	return &trustseat.ServerAck{At: at, Signature: hex.EncodeToString(ed25519.Sign(key, msg))}
}

// TestAcked: an answer signed by the pinned key is kept with its
// signature; one without a signature, or signed by another key, or with
// its signature over another time, is refused (an *AckRefused) where a
// key is pinned, and taken unsigned where none is; an action that brings
// nothing to acknowledge is refused. The kept acknowledgement reads back
// (ParseAck) and still verifies.
func TestAcked(t *testing.T) {
	server, other := ackKeys()
	pub := server.Public().(ed25519.PublicKey)
	a := revealAction()
	at := time.UnixMilli(1_770_000_000_000).UTC()
	good := signReveal(server, "g1", a, 1_770_000_000_100)

	ack, err := trustseat.Acked(pub, "g1", a, 7, false, good, at)
	require.NoError(t, err)
	require.Equal(t, good, ack.Server)
	require.True(t, trustseat.VerifyAck(pub, ack))
	require.False(t, trustseat.VerifyAck(other.Public().(ed25519.PublicKey), ack), "under another key")
	b, err := json.Marshal(ack)
	require.NoError(t, err)
	back, err := trustseat.ParseAck(b)
	require.NoError(t, err)
	require.Equal(t, ack.Action.Reveal, back.Action.Reveal)
	require.Equal(t, []any{ack.GameID, ack.Action.Actor, ack.Version, ack.At, ack.Server}, []any{back.GameID, back.Action.Actor, back.Version, back.At, back.Server})
	require.True(t, trustseat.VerifyAck(pub, back))

	for name, sa := range map[string]*trustseat.ServerAck{
		"unsigned":      nil,
		"another key":   signReveal(other, "g1", a, good.At),
		"another time":  {At: good.At + 1, Signature: good.Signature},
		"another table": signReveal(server, "g2", a, good.At),
		"not hex":       {At: good.At, Signature: "zz"},
	} {
		_, err := trustseat.Acked(pub, "g1", a, 7, false, sa, at)
		var refused *trustseat.AckRefused
		require.True(t, errors.As(err, &refused), "%s: %v", name, err)
		un, err := trustseat.Acked(nil, "g1", a, 7, false, sa, at)
		require.NoError(t, err, "%s, no key pinned", name)
		require.Nil(t, un.Server, name)
	}
	abort := table.Action{Actor: "p1", ActionID: "abort-3", Kind: table.KindAbort}
	_, err = trustseat.Acked(pub, "g1", abort, 7, false, good, at)
	require.ErrorContains(t, err, "brings no reveal nor deal message")

	_, err = trustseat.ParseAck([]byte(`{"gameId":"g1","action":{"Actor":"p1","Kind":"abort"}}`))
	require.ErrorContains(t, err, "no reveal nor deal message")
	_, err = trustseat.ParseAck([]byte(`{"gameId":"g1","extra":1}`))
	require.ErrorContains(t, err, "not an acknowledgement")

	k, err := trustseat.ParseKey(hex.EncodeToString(pub))
	require.NoError(t, err)
	require.Equal(t, pub, k)
	for _, bad := range []string{"", "abc", strings.Repeat("g", 64), strings.Repeat("ab", 31), strings.Repeat("ab", 33)} {
		_, err := trustseat.ParseKey(bad)
		require.Error(t, err, "%q", bad)
	}
}

// TestCheckDropped: a table aborted at the acknowledged reveal's index
// naming its player as missing (by the log's Aborted event, or by the
// protocol's abort with its pending round) is a Dropped that says so in
// words with the acknowledgement's details; the same abort at another
// index, naming another seat, or of another table, is none (the
// controls); so is a hand forfeited for a deal message its record holds.
func TestCheckDropped(t *testing.T) {
	server, _ := ackKeys()
	a := revealAction()
	ack := &trustseat.Ack{GameID: "g1", Action: a, Version: 9, At: time.UnixMilli(1_770_000_000_000).UTC(),
		Server: signReveal(server, "g1", a, 1_770_000_000_100)}
	seats := []string{"p0", "p1"}
	tv := &table.TrustlessView{}

	byLog := trustseat.CheckDropped(ack, &trustseat.Ended{GameID: "g1", Seats: seats, Trustless: tv,
		Aborted: []trustseat.Aborted{{Index: 3, Options: []string{"deadline", "p1"}}}})
	require.NotNil(t, byLog)
	require.Equal(t, uint32(3), byLog.Index)
	require.Equal(t, "deadline", byLog.Reason)
	require.Equal(t, []string{"p1"}, byLog.Missing)
	w := byLog.Words()
	for _, part := range []string{"reveal for index 3", "digest " + a.Reveal.Digest, "table g1", "reveal reveal-3",
		"signed by the server's key at 1770000000100: " + ack.Server.Signature, "at version 9", "2026-02-02T02:40:00Z",
		"aborted the table (deadline) naming p1", "it dropped it"} {
		require.Contains(t, w, part)
	}

	tvAbort := &table.TrustlessView{}
	tvAbort.Abort = &match.TrustlessAbort{Reason: "deadline", Missing: []int{1}}
	tvAbort.RecordTrustless.Pending = &match.TrustlessMove{Index: 3}
	byProtocol := trustseat.CheckDropped(ack, &trustseat.Ended{Seats: seats, Trustless: tvAbort})
	require.NotNil(t, byProtocol)
	require.Equal(t, []string{"p1"}, byProtocol.Missing)

	for name, e := range map[string]*trustseat.Ended{
		"another index": {GameID: "g1", Seats: seats, Trustless: tv, Aborted: []trustseat.Aborted{{Index: 4, Options: []string{"deadline", "p1"}}}},
		"another seat":  {GameID: "g1", Seats: seats, Trustless: tv, Aborted: []trustseat.Aborted{{Index: 3, Options: []string{"deadline", "p0"}}}},
		"another table": {GameID: "g2", Seats: seats, Trustless: tv, Aborted: []trustseat.Aborted{{Index: 3, Options: []string{"deadline", "p1"}}}},
		"no protocol":   {GameID: "g1", Seats: seats, Aborted: []trustseat.Aborted{{Index: 3, Options: []string{"deadline", "p1"}}}},
		"not aborted":   {GameID: "g1", Seats: seats, Trustless: tv},
	} {
		require.Nil(t, trustseat.CheckDropped(ack, e), name)
	}
	require.Nil(t, trustseat.CheckDropped(nil, &trustseat.Ended{Seats: seats, Trustless: tvAbort}), "no acknowledgement")
}
