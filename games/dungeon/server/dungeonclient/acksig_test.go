package dungeonclient_test

import (
	"context"
	"crypto/ed25519"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/internal/checks"
)

// revealOnce seats p1 and p2 (pinning pinned as the server's key) in a
// trustless game on the functions at s, has p1 start it and p2 reveal the
// start's index: it returns p2's client, its configuration and the
// reveal's error.
func revealOnce(t *testing.T, s *memServer, pinned ed25519.PublicKey) (*dungeonclient.Client, dungeonclient.Config, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, devFunctions(s.url, "p1").Call(ctx, "createGame", map[string]any{"gameId": "tl-acksig", "mode": "trustless"}, nil))
	dir := t.TempDir()
	ss := seats(2)
	var cs []*dungeonclient.Client
	cfg := func(uid string) dungeonclient.Config {
		return dungeonclient.Config{Functions: devFunctions(s.url, uid), UID: uid, GameID: "tl-acksig",
			SecretsFile: filepath.Join(dir, uid+".json"), PollEvery: 5 * time.Millisecond, ServerKey: pinned}
	}
	for i, uid := range []string{"p1", "p2"} {
		c, err := dungeonclient.Join(ctx, cfg(uid), i, ss[i].Class, false)
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		cs = append(cs, c)
	}
	syncUntil := func(c *dungeonclient.Client, ok func(p *engine.Public) bool) {
		for !c.Consistent() || !ok(&c.Game().Public) {
			require.NoError(t, c.Sync(ctx))
		}
	}
	syncUntil(cs[0], func(p *engine.Public) bool { return len(p.Players) == 2 })
	_, err := cs[0].Act(ctx, engine.Action{Kind: engine.ActStart})
	require.NoError(t, err)
	syncUntil(cs[1], func(p *engine.Public) bool { return p.Trustless.Pending != nil })
	sent, err := cs[1].RevealPending(ctx)
	require.True(t, sent)
	return cs[1], cfg("p2"), err
}

// TestSignedAcknowledgements: a client that pins the server's published
// key takes a reveal's acknowledgement signed by that key (and keeps the
// signature with it, for the player to show, in its secrets file: a
// restarted client has it), and stops with a
// *client.Lie when the acknowledgement is signed by another key (a forged
// one) or not signed at all; with that check switched off (its positive
// control), it takes both.
func TestSignedAcknowledgements(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	_, forged, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	withKey := func(k ed25519.PrivateKey) func(*service.Config) {
		return func(c *service.Config) { c.AckKey = k }
	}

	t.Run("signed", func(t *testing.T) {
		c, cfg, err := revealOnce(t, newMemServer(t, withKey(key)), pub)
		require.NoError(t, err)
		a := c.LastAck()
		require.NotNil(t, a)
		require.NotNil(t, a.Server, "the server's signature is kept with the acknowledgement")
		require.EqualValues(t, 1, a.Index)
		require.True(t, dungeonclient.VerifyAck(pub, "tl-acksig", "p2", a))
		// A restart keeps it: it is in the secrets file.
		back, err := dungeonclient.Resume(context.Background(), cfg)
		require.NoError(t, err)
		t.Cleanup(func() { back.Close() })
		require.JSONEq(t, string(mustJSON(t, a)), string(mustJSON(t, back.LastAck())))
	})
	t.Run("forged", func(t *testing.T) {
		_, _, err := revealOnce(t, newMemServer(t, withKey(forged)), pub)
		var lie *client.Lie
		require.ErrorAs(t, err, &lie)
		require.Contains(t, lie.What, "is not signed by its published key")
	})
	t.Run("absent", func(t *testing.T) {
		_, _, err := revealOnce(t, newMemServer(t, nil), pub)
		var lie *client.Lie
		require.ErrorAs(t, err, &lie)
		require.Contains(t, lie.What, "without its signature")
	})
	// The positive controls: with the client's check of the server's
	// signature off (checks.AckSignature), the forged acknowledgement and
	// the unsigned one are taken and kept as the seat's evidence, though
	// neither verifies under the published key.
	t.Run("forged without AckSignature", func(t *testing.T) {
		checks.Off(t, checks.AckSignature)
		c, _, err := revealOnce(t, newMemServer(t, withKey(forged)), pub)
		require.NoError(t, err, "with AckSignature off, the forged acknowledgement is taken")
		a := c.LastAck()
		require.NotNil(t, a)
		require.NotNil(t, a.Server)
		require.False(t, dungeonclient.VerifyAck(pub, "tl-acksig", "p2", a), "kept, though not the published key's")
	})
	t.Run("absent without AckSignature", func(t *testing.T) {
		checks.Off(t, checks.AckSignature)
		c, _, err := revealOnce(t, newMemServer(t, nil), pub)
		require.NoError(t, err, "with AckSignature off, the unsigned acknowledgement is taken")
		require.NotNil(t, c.LastAck())
		require.Nil(t, c.LastAck().Server)
	})
	t.Run("unpinned", func(t *testing.T) {
		// A client that pins no key takes the unsigned acknowledgement
		// (it proves nothing to a third party).
		c, _, err := revealOnce(t, newMemServer(t, nil), nil)
		require.NoError(t, err)
		require.Nil(t, c.LastAck().Server)
	})
}
