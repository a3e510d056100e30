package service_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng/trustless"
)

// Attacks on the service's side of the trustless protocol (issue 26, part
// 4; docs/fairness.md, the threat model): a reveal or an action taken
// from another game (here), and one seat's reveal sent many times at once
// (duplicates_test.go). Each "cannot happen" carries its control: the same
// thing where it should work does; and its positive control, the checks
// it relies on switched off.

// twinTable seats uids in a new trustless game gameID with the keys and
// chain secrets of the seats of tb (another game): the same players
// bringing the same Ed25519 keys (and the same chain secrets, which the
// chain binds to the game: other heads) to a second table.
func twinTable(t *testing.T, tb *trustlesstest.Table, gameID string) *trustlesstest.Table {
	t.Helper()
	ctx := context.Background()
	tw := &trustlesstest.Table{Svc: tb.Svc, GameID: gameID, UIDs: tb.UIDs}
	_, err := tb.Svc.Do(ctx, gameID, engine.Action{Kind: engine.ActCreate, Actor: tb.UIDs[0], ID: "create", Mode: "trustless"})
	require.NoError(t, err)
	tw.Sync(t)
	for i, s := range tb.Seats {
		sec := s.Secrets()
		sec.GameID, sec.Revealed, sec.Digest = gameID, 0, engine.Hash32{}
		twin, err := player.RestoreSeat(tb.Svc.Rules(), sec)
		require.NoError(t, err)
		require.NoError(t, twin.Follow(tw.Log))
		require.Equal(t, s.PublicKey(), twin.PublicKey(), "the same key in both games")
		require.NotEqual(t, s.Head(), twin.Head(), "the same chain secret makes another chain in another game")
		tw.Seats = append(tw.Seats, twin)
		a, err := twin.Join(engine.Classes[i], false, tw.State.Version)
		require.NoError(t, err)
		a.ID = "join"
		_, err = tb.Svc.Do(ctx, gameID, a)
		require.NoError(t, err)
		tw.Sync(t)
	}
	return tw
}

// snapshot is everything of a game the store keeps that an attack could
// change: its document, its open round's staged reveals, its applied
// actions.
func snapshot(t *testing.T, m *store.Memory, gameID string, index uint32) string {
	t.Helper()
	ctx := context.Background()
	p, err := m.Game(ctx, gameID)
	require.NoError(t, err)
	staged, err := m.Staged(ctx, gameID, index)
	require.NoError(t, err)
	applied, err := m.Applied(ctx, gameID)
	require.NoError(t, err)
	b, err := json.Marshal([]any{p, staged, applied})
	require.NoError(t, err)
	return string(b)
}

// TestCrossGameReplayRefused: p1 plays two trustless games, A and B, with
// the same Ed25519 key (and the same chain secret). Its start signed for
// A, sent to B at the same version, is bad_signature; its reveal of A's
// index 1, sent to B (whose index 1 is pending too), is wrong_digest (A's
// digest names A), and with B's digest and transcript put in its place
// (all a replayer can change) bad_signature: both signatures cover the
// game id. Nothing of B changes. The controls: the same start and the same
// reveal sent to A are accepted, and the reveal's signature verifies over
// A's message and not over the same message with B's id. The positive
// controls (trustlesstest.CrossGameReplays): with the checks that refuse a replay off,
// it is refused by the next one, or taken into B.
func TestCrossGameReplayRefused(t *testing.T) {
	svc, mem, _ := tlService(t)
	ctx := context.Background()
	a := trustlesstest.New(t, svc, "tl-atk-a", []string{"p1", "p2"}, 0)
	b := twinTable(t, a, "tl-atk-b")
	require.Equal(t, a.State.Version, b.State.Version, "both games wait for the start at the same version")

	// An action: A's start, sent to B.
	start := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: a.State.Version, ID: "start"}
	require.NoError(t, a.Seats[0].Sign(&start))
	before := snapshot(t, mem, b.GameID, 1)
	replayed := start
	replayed.ID = "replayed-start"
	_, err := svc.Do(ctx, b.GameID, replayed)
	require.ErrorIs(t, err, engine.CodeBadSignature, "A's start in B")
	require.Equal(t, before, snapshot(t, mem, b.GameID, 1), "B unchanged")
	_, err = svc.Do(ctx, a.GameID, start) // control
	require.NoError(t, err, "A's start in A")
	a.Sync(t)
	require.NotNil(t, a.State.Trustless.Pending)
	b.Start(t)
	require.EqualValues(t, 1, b.State.Trustless.Pending.Index)
	require.NotEqual(t, a.State.Trustless.Pending.Digest, b.State.Trustless.Pending.Digest, "the digest names the game")

	// A reveal: p1's for A's index 1, sent to B as it is, then with B's
	// digest and transcript.
	rv, err := a.Seats[0].Reveal(a.State, 0)
	require.NoError(t, err)
	rv.ID = "r1"
	before = snapshot(t, mem, b.GameID, 1)
	replayedRv := rv
	replayedRv.ID = "replayed-r1" // B's own reveal will be r1
	_, err = svc.Reveal(ctx, b.GameID, replayedRv)
	require.ErrorIs(t, err, engine.CodeWrongDigest, "A's reveal in B")
	moved := rv
	moved.ID = "r1-moved"
	moved.Digest, moved.Transcript = b.State.Trustless.Pending.Digest.String(), b.State.Trustless.Pending.Transcript.String()
	_, err = svc.Reveal(ctx, b.GameID, moved)
	require.ErrorIs(t, err, engine.CodeBadSignature, "A's reveal in B, over B's pending action")
	require.Equal(t, before, snapshot(t, mem, b.GameID, 1), "B unchanged")

	// The controls: the signature is good for A's message only, and A
	// takes the reveal.
	key := a.Seats[0].PublicKey()
	pub := ed25519.PublicKey(key[:])
	sig, err := hex.DecodeString(rv.Signature)
	require.NoError(t, err)
	pd := a.State.Trustless.Pending
	require.True(t, ed25519.Verify(pub, trustless.RevealMessage(a.GameID, 1, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript)), sig))
	require.False(t, ed25519.Verify(pub, trustless.RevealMessage(b.GameID, 1, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript)), sig))
	res, err := svc.Reveal(ctx, a.GameID, rv)
	require.NoError(t, err, "A's reveal in A")
	require.True(t, res.Staged)
	// B's own round still closes with B's own reveals.
	b.Round(t)
	require.Nil(t, b.State.Trustless.Pending)

	crossGameControls(t)
}
