package page_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/page"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// secretsJSON is seat's secrets as the page keeps them: without the
// key's seed, with the public key.
func secretsJSON(t *testing.T, seat *player.Seat) []byte {
	t.Helper()
	sec := seat.Secrets()
	sec.KeySeed = engine.Hash32{}
	b, err := json.Marshal(struct {
		player.Secrets
		PublicKey engine.Hash32 `json:"publicKey"`
	}{sec, seat.PublicKey()})
	require.NoError(t, err)
	return b
}

// signed is the action of a reveal the follower made, signed by the key
// of seed as the page's WebCrypto key signs it, with action id id.
func signed(t *testing.T, r game.StoredReveal, seed engine.Hash32, id string) engine.Action {
	t.Helper()
	require.False(t, r.None)
	var a engine.Action
	require.NoError(t, json.Unmarshal(r.Action, &a))
	require.Empty(t, a.Signature, "the reveal comes unsigned")
	require.Equal(t, r.Index, int(a.Index))
	require.Equal(t, r.Digest, a.Digest)
	a.Signature = hex.EncodeToString(ed25519.Sign(ed25519.NewKeyFromSeed(seed[:]), r.Message))
	a.ID = id
	return a
}

// read has g read what uid's page reads of the table's game.
func read(t *testing.T, g *page.Game, svc *service.Service, uid, id string) {
	t.Helper()
	doc, events, marks := view(t, svc, uid, id)
	require.NoError(t, g.State(doc))
	_, _, err := g.Events(events)
	require.NoError(t, err)
	require.NoError(t, g.Marks(marks))
}

// TestTrustlessSeatRevealsAndActs: a page following a trustless game
// makes its seat's reveal of the pending start only once its seat is
// taken, and the server takes it, signed over the bytes given; the
// honest markers check; once the round closes it waits for no reveal.
// The seat that may move gets the bytes to sign for its move and the
// reveal to send with it, and the server takes both. An action the seat
// cannot make is refused without sticking.
func TestTrustlessSeatRevealsAndActs(t *testing.T) {
	ctx := context.Background()
	svc := newService()
	tb := trustlesstest.New(t, svc, "tl-page", []string{"p1", "p2"}, 0)
	tb.Start(t)

	g := page.New("tl-page")
	read(t, g, svc, "p1", "tl-page")
	r, err := g.Reveal()
	require.NoError(t, err)
	require.True(t, r.None, "no seat taken yet")
	_, err = g.ActReveal([]byte(`{}`))
	require.EqualError(t, err, "actReveal needs this seat's checked trustless game, its log caught up")

	_, err = g.TakeSeat([]byte(`{"gameId":"other"}`))
	require.ErrorContains(t, err, `the seat is in game "other"; this page follows "tl-page", a trustless game: true`)
	head, err := g.TakeSeat(secretsJSON(t, tb.Seats[0]))
	require.NoError(t, err)
	require.Equal(t, tb.Seats[0].Head().String(), head)

	r, err = g.Reveal()
	require.NoError(t, err)
	require.Equal(t, 1, r.Index)
	res, err := svc.Reveal(ctx, "tl-page", signed(t, r, tb.Seats[0].Secrets().KeySeed, "r1"))
	require.NoError(t, err)
	require.True(t, res.Staged)

	read(t, g, svc, "p1", "tl-page") // p1's marker, checked
	doc, events, marks := view(t, svc, "p1", "tl-page")
	var ms []store.Mark
	require.NoError(t, json.Unmarshal(marks, &ms))
	require.Len(t, ms, 1)

	tb.Sync(t)
	_, err = tb.Reveal(t, 1)
	require.NoError(t, err)
	read(t, g, svc, "p1", "tl-page")
	r, err = g.Reveal()
	require.NoError(t, err)
	require.True(t, r.None, "the round is closed")

	// The seat to move: p1's is the page's; p2's is taken from its secrets.
	x := tb.ToMove(t)
	read(t, g, svc, "p1", "tl-page")
	if x == 1 {
		_, err = g.TakeSeat(secretsJSON(t, tb.Seats[1]))
		require.NoError(t, err)
	}
	var acts []engine.Action
	require.NoError(t, json.Unmarshal(g.Legal(tb.UIDs[x]), &acts))
	require.NotEmpty(t, acts)

	seed := tb.Seats[x].Secrets().KeySeed
	move := engine.Action{Kind: engine.ActMove, Actor: tb.UIDs[x], Version: tb.State.Version, ID: "m"}
	moveJSON, _ := json.Marshal(move)
	msg, err := g.SignBytes(moveJSON)
	require.NoError(t, err)
	move.Signature = hex.EncodeToString(ed25519.Sign(ed25519.NewKeyFromSeed(seed[:]), msg))
	moveJSON, _ = json.Marshal(move)

	other := move
	other.Actor = tb.UIDs[1-x]
	otherJSON, _ := json.Marshal(other)
	_, err = g.ActReveal(otherJSON)
	require.Error(t, err, "another seat's action")
	_, err = g.ActReveal([]byte(`[`))
	require.ErrorContains(t, err, "not an action: ")
	_, err = g.SignBytes([]byte(`[`))
	require.ErrorContains(t, err, "not an action: ")
	require.NoError(t, g.Err(), "the page's own requests refused do not stick")

	r, err = g.ActReveal(moveJSON)
	require.NoError(t, err)
	_, err = svc.DoRevealing(ctx, "tl-page", move, signed(t, r, seed, "m-reveal"))
	require.NoError(t, err)
	read(t, g, svc, "p1", "tl-page")
	require.NoError(t, g.Err())

	// A lie in what a fresh page reads sticks: a marker not signed by its
	// seat, or a pending action at another index than the log's.
	var p engine.Public
	require.NoError(t, json.Unmarshal(doc, &p))
	require.NotNil(t, p.Trustless.Pending)
	ms[0].Signature = fmt.Sprintf("%0128x", 1)
	forged, _ := json.Marshal(ms)
	p.Trustless.Pending.Index++
	moved, _ := json.Marshal(p)
	for name, c := range map[string]struct {
		doc, marks []byte
		want       string
	}{
		"a forged marker": {doc, forged, "a reveal of seat 0 (p1) for index 1 that its key did not sign"},
		"another index":   {moved, marks, fmt.Sprintf("the server asks for index %d", p.Trustless.Pending.Index)},
	} {
		f := page.New("tl-page")
		err := f.State(c.doc)
		if err == nil {
			_, _, err = f.Events(events)
		}
		if err == nil {
			err = f.Marks(c.marks)
		}
		require.Error(t, err, name)
		require.ErrorContains(t, err, c.want, name)
		require.Equal(t, err, f.Err(), name)
		require.Equal(t, "[]", string(f.Legal(p.Awaiting)), name)
	}
}
