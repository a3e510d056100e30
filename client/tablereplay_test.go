package client_test

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// secretsBlob is trustseat's secrets blob, v1, field for field as
// docs/fairness.md ("The client") and trustseat.Export write it: what a
// test reads to give a player the same key and chain secret at another
// table.
type secretsBlob struct {
	V           int             `json:"v"`
	Game        string          `json:"game"`
	GameID      string          `json:"gameId"`
	UID         string          `json:"uid"`
	Seat        int             `json:"seat"`
	ChainLength uint32          `json:"chainLength"`
	Chain       string          `json:"chain"`
	Key         string          `json:"key"`
	Deal        string          `json:"deal"`
	Revealed    uint32          `json:"revealed"`
	Digest      string          `json:"digest,omitempty"`
	Transcript  string          `json:"transcript,omitempty"`
	Ack         json.RawMessage `json:"ack,omitempty"`
	Check       string          `json:"check"`
}

// sameSecrets makes seat i of table gameID restored from the secrets of
// from[i] (of another table) with their game id changed: the same
// player with the same key, chain secret and deal seed.
func sameSecrets(t *testing.T, def game.Definition, gameID string, from []*trustseat.Seat) func(i int, uid string, chain uint32) (*trustseat.Seat, error) {
	return func(i int, uid string, chain uint32) (*trustseat.Seat, error) {
		var w secretsBlob
		require.NoError(t, json.Unmarshal(from[i].Export(), &w))
		require.Equal(t, chain, w.ChainLength)
		w.GameID, w.Check = gameID, ""
		b, err := json.Marshal(w)
		require.NoError(t, err)
		h := sha256.Sum256(b)
		w.Check = hex.EncodeToString(h[:8])
		b, err = json.Marshal(w)
		require.NoError(t, err)
		return trustseat.Restore(def, gameID, uid, i, b)
	}
}

// TestTableCrossGameReplay: p0 and p1 sit at tables A and B of Pig on
// one server with the same keys and chain secrets (B's seats are A's
// secrets given B's id), both tables at the same version after their
// start. p0's roll at A, with its reveal, sent to B is refused
// bad_signature (the move's signature covers the game id); p1's reveal
// of A's round 1 sent to B is wrong_digest (A's move's digest covers A's
// id), and with B's digest and transcript put in its place bad_signature
// (the reveal's signature covers the game id); B's own reveal of p1 with
// A's link in its place is wrong_link (the chain is bound to its game:
// the same secret gives another head). Each refusal leaves B at its
// version. The controls: A takes what was refused at B, and B takes its
// own move and reveal: both rounds close.
func TestTableCrossGameReplay(t *testing.T) {
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	def := defOf("pig")
	a := newTrustRun(t, def, "xg-a", 2, key, nil, nil)
	b := a.another(t, def, "xg-b", 2, sameSecrets(t, def, "xg-b", a.order))
	va, vb := a.view(t, "p0"), b.view(t, "p0")
	for i := range 2 {
		require.Equal(t, va.Trustless.Seats[i].PublicKey, vb.Trustless.Seats[i].PublicKey, "seat %d: the same key", i)
		require.NotEqual(t, va.Trustless.Seats[i].ChainHead, vb.Trustless.Seats[i].ChainHead, "seat %d: the same secret, another head", i)
	}
	require.Equal(t, va.Version, vb.Version, "both tables at the same version")
	ctx := context.Background()
	refused := func(tb string, act table.Action, code string) {
		t.Helper()
		before := b.view(t, "p0").Version
		_, err := b.table(t, act.Actor).Send(ctx, act)
		require.Equal(t, code, codeOf(t, err), "%s at B", tb)
		require.Equal(t, before, b.view(t, "p0").Version, "%s left B as it was", tb)
	}

	moveA, err := a.order[0].Move("m1", va, roll(t, va))
	require.NoError(t, err)
	require.NotNil(t, moveA.Reveal, "the roll brings p0's reveal")
	refused("A's move", moveA, "bad_signature")
	_, err = a.tt.Do(moveA)
	require.NoError(t, err, "the control: A takes it")
	moveB, err := b.order[0].Move("m1", vb, roll(t, vb))
	require.NoError(t, err)
	_, err = b.tt.Do(moveB)
	require.NoError(t, err, "the control: B takes its own")

	revealA, err := a.order[1].Reveal("r1", a.view(t, "p1"))
	require.NoError(t, err)
	refused("A's reveal", revealA, "wrong_digest")
	pb := b.view(t, "p1").Trustless.Pending
	require.NotNil(t, pb)
	require.Equal(t, revealA.Reveal.Index, pb.Index, "the same index at both")
	swapped := revealA
	r := *revealA.Reveal
	r.Digest, r.Transcript = pb.Digest, pb.Transcript
	swapped.Reveal = &r
	refused("A's reveal with B's digest and transcript", swapped, "bad_signature")
	revealB, err := b.order[1].Reveal("r1", b.view(t, "p1"))
	require.NoError(t, err)
	withLink := revealB
	rl := *revealB.Reveal
	rl.Link = revealA.Reveal.Link
	withLink.Reveal = &rl
	require.NotEqual(t, revealA.Reveal.Link, revealB.Reveal.Link, "the same chain secret, another link")
	refused("B's reveal with A's link", withLink, "wrong_link")

	_, err = a.tt.Do(revealA)
	require.NoError(t, err, "the control: A takes its reveal")
	_, err = b.tt.Do(revealB)
	require.NoError(t, err, "the control: B takes its own")
	for name, run := range map[string]*trustRun{"A": a, "B": b} {
		moves := run.view(t, "p0").Trustless.Moves
		require.Len(t, moves, 1, name)
		require.Equal(t, uint32(1), moves[0].Index, "%s's round 1 closed", name)
		require.Len(t, moves[0].Reveals, 2, name)
	}
}
