package service_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng/trustless"
)

// ackVerifies reports whether res's acknowledgement is pub's signature
// over the reveal rv of uid in game gameID (rng/trustless.AckMessage).
func ackVerifies(t *testing.T, pub ed25519.PublicKey, gameID, uid string, rv engine.Action, res *service.Result) bool {
	t.Helper()
	require.NotNil(t, res.Ack, "an acknowledgement")
	d, err := engine.ParseHash32(rv.Digest, "digest")
	require.NoError(t, err)
	tr, err := engine.ParseHash32(rv.Transcript, "transcript")
	require.NoError(t, err)
	rs, err := hex.DecodeString(rv.Signature)
	require.NoError(t, err)
	sig, err := hex.DecodeString(res.Ack.Signature)
	require.NoError(t, err)
	return trustless.Verify(pub, trustless.AckMessage(gameID, uid, uint32(rv.Seat), rv.Index, (*[32]byte)(&d), (*[32]byte)(&tr), rs, res.Ack.At), sig)
}

// TestRevealsAcknowledgedBySignature: a service with an AckKey answers
// every reveal it takes with its signature over the reveal (staged, the
// same call again, the one that closes the round, an action with its
// reveal), at its own time; the signature verifies under the published
// key and over that reveal only (not under another key, not for another
// seat). Without an AckKey it signs nothing.
func TestRevealsAcknowledgedBySignature(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	other, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	c := &clock{}
	c.ms.Store(1_760_000_000_000)
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		AbortGrace: 2 * time.Second, Now: c.now, AckKey: key})
	ctx := context.Background()
	tb := trustlesstest.New(t, svc, "tl-ack", []string{"p1", "p2"}, 0)
	tb.Start(t)

	rv, err := tb.Seats[0].Reveal(tb.State, 0)
	require.NoError(t, err)
	rv.ID = "r1"
	res, err := svc.Reveal(ctx, tb.GameID, rv)
	require.NoError(t, err)
	require.True(t, res.Staged)
	require.True(t, ackVerifies(t, pub, tb.GameID, "p1", rv, res), "the staged reveal's acknowledgement")
	require.False(t, ackVerifies(t, other, tb.GameID, "p1", rv, res), "under another key")
	require.False(t, ackVerifies(t, pub, tb.GameID, "p2", rv, res), "for another player")
	again, err := svc.Reveal(ctx, tb.GameID, rv)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.True(t, ackVerifies(t, pub, tb.GameID, "p1", rv, again), "the same call again")

	rv2, err := tb.Seats[1].Reveal(tb.State, 0)
	require.NoError(t, err)
	rv2.ID = "r1"
	res, err = svc.Reveal(ctx, tb.GameID, rv2)
	require.NoError(t, err)
	require.False(t, res.Staged, "it closes the round")
	require.True(t, ackVerifies(t, pub, tb.GameID, "p2", rv2, res), "the closing reveal's acknowledgement")

	tb.Sync(t)
	x := tb.ToMove(t)
	move := engine.Action{Kind: engine.ActMove, Actor: tb.UIDs[x], Version: tb.State.Version, ID: "m"}
	require.NoError(t, tb.Seats[x].Sign(&move))
	mrv, draws, err := tb.Seats[x].ActReveal(&move)
	require.NoError(t, err)
	require.True(t, draws)
	res, err = svc.DoRevealing(ctx, tb.GameID, move, mrv)
	require.NoError(t, err)
	require.True(t, ackVerifies(t, pub, tb.GameID, tb.UIDs[x], mrv, res), "an action with its reveal")

	// The control: no key, no acknowledgement.
	plain, _, _ := tlService(t)
	tp := trustlesstest.New(t, plain, "tl-noack", []string{"p1", "p2"}, 0)
	tp.Start(t)
	res, err = tp.Reveal(t, 0)
	require.NoError(t, err)
	require.Nil(t, res.Ack)
}
