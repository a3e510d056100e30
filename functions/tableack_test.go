package functions_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// ackPlay plays the trustless table id of def through c with two
// players until stop (nil: the end), showing each success answer to
// answered; it returns the table.
func ackPlay(t *testing.T, c *functest.Client, def game.Definition, id string, stop func(*table.View) bool,
	answered func(a table.Action, r *functions.TableResult) error) *functest.TrustTable {
	t.Helper()
	ctx := context.Background()
	tt, err := functest.NewTrustTable(ctx, c, def, id, devPlayers(id+"p", 2), nil, true)
	require.NoError(t, err)
	tt.Answered = answered
	bots, err := rng.NewSeeded(id + "/bots")
	require.NoError(t, err)
	_, err = trustseat.Play(tt, tt.Seats, functest.RandomChoice(bots), stop, 2000)
	require.NoError(t, err)
	return tt
}

// revealAck is the acknowledgement's message of the reveal r of uid at
// at, written from rng/trustless.AckMessage's fields (not through
// table.AckMessage).
func revealAck(t *testing.T, gameID, uid string, seat int, index uint32, r *table.Reveal, at int64) []byte {
	t.Helper()
	var d, tr [32]byte
	db, err := hex.DecodeString(r.Digest)
	require.NoError(t, err)
	tb, err := hex.DecodeString(r.Transcript)
	require.NoError(t, err)
	sig, err := hex.DecodeString(r.Signature)
	require.NoError(t, err)
	copy(d[:], db)
	copy(tr[:], tb)
	return trustless.AckMessage(gameID, uid, uint32(seat), index, &d, &tr, sig, at)
}

// dealAck is the acknowledgement's message of the deal message m of uid
// at at: its pass, keys and reveal as their seat signed them
// (rng/mentalpoker's SignedBytes), in rng/trustless.DealAckMessage's
// order.
func dealAck(gameID, uid string, m *table.DealMessage, at int64) []byte {
	var parts []trustless.SignedPart
	if m.Pass != nil {
		parts = append(parts, trustless.SignedPart{Signed: m.Pass.SignedBytes(), Sig: m.Pass.Sig})
	}
	for _, k := range m.Keys {
		parts = append(parts, trustless.SignedPart{Signed: k.SignedBytes(), Sig: k.Sig})
	}
	if m.Reveal != nil {
		parts = append(parts, trustless.SignedPart{Signed: m.Reveal.SignedBytes(), Sig: m.Reveal.Sig})
	}
	return trustless.DealAckMessage(gameID, uid, parts, at)
}

// TestTableAcksSignedOverHTTP: with an acknowledgement key, every
// success answer to an action that brought a reveal (reveal, or a move
// with its actor's own reveal: Pig) or a deal message (act's kind deal,
// or a move with its seat's deal keys: Kuhn poker) carries the server's
// signature, made at the table path's clock, which verifies under the
// published key over rng/trustless's acknowledgement of that action, and
// under no other key, for no other seat, index, uid or message; every
// other answer carries none. A retried reveal's stored answer is signed
// too.
func TestTableAcksSignedOverHTTP(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	otherPub, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServerWith(t, &now, func(a *functions.API) { a.WithAckKey(key) })
	signedBy := func(k ed25519.PublicKey, msg []byte, ack *functions.TableAck) bool {
		sig, err := hex.DecodeString(ack.Signature)
		return err == nil && ed25519.Verify(k, msg, sig)
	}

	via := map[string]int{}
	var last table.Action
	pigAnswered := func(a table.Action, r *functions.TableResult) error {
		rv := a.Reveal
		if rv == nil {
			if r.Ack != nil {
				return fmt.Errorf("%s %s (%s) acknowledged with a signature though it brought no reveal", a.Actor, a.ActionID, a.Kind)
			}
			return nil
		}
		switch {
		case r.Ack == nil:
			return fmt.Errorf("the reveal of %s (%s) answered without the server's signature", a.Actor, a.Kind)
		case r.Ack.At != now.Load():
			return fmt.Errorf("acknowledged at %d, not the table path's clock %d", r.Ack.At, now.Load())
		case !signedBy(pub, revealAck(t, "ack-pig", a.Actor, rv.Seat, rv.Index, rv, r.Ack.At), r.Ack):
			return fmt.Errorf("the acknowledgement of %s's reveal of %d does not verify under the published key", a.Actor, rv.Index)
		}
		// The positive controls: another key, seat, index, uid or time.
		for i, msg := range [][]byte{
			revealAck(t, "ack-pig", a.Actor, rv.Seat^1, rv.Index, rv, r.Ack.At),
			revealAck(t, "ack-pig", a.Actor, rv.Seat, rv.Index+1, rv, r.Ack.At),
			revealAck(t, "ack-pig", "someone", rv.Seat, rv.Index, rv, r.Ack.At),
			revealAck(t, "ack-pig", a.Actor, rv.Seat, rv.Index, rv, r.Ack.At+1),
		} {
			if signedBy(pub, msg, r.Ack) {
				return fmt.Errorf("the acknowledgement verifies over changed fields (%d)", i)
			}
		}
		if signedBy(otherPub, revealAck(t, "ack-pig", a.Actor, rv.Seat, rv.Index, rv, r.Ack.At), r.Ack) {
			return fmt.Errorf("the acknowledgement verifies under another key")
		}
		via[string(a.Kind)]++
		last = a
		return nil
	}
	enough := func(*table.View) bool { return via["move"] >= 2 && via["reveal"] >= 2 }
	tt := ackPlay(t, c, pig.Def, "ack-pig", enough, pigAnswered)
	require.True(t, enough(nil), "acknowledged: %v", via)

	// A reveal sent again under its action id gets its stored answer,
	// acknowledged again (the server holds it).
	var again *functions.TableResult
	tt.Answered = func(_ table.Action, r *functions.TableResult) error { again = r; return nil }
	_, err = tt.Do(last)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.NotNil(t, again.Ack)
	require.True(t, signedBy(pub, revealAck(t, "ack-pig", last.Actor, last.Reveal.Seat, last.Reveal.Index, last.Reveal, again.Ack.At), again.Ack))

	// Kuhn poker: every deal message the server took is acknowledged.
	parts := map[string]int{}
	kuhnAnswered := func(a table.Action, r *functions.TableResult) error {
		m := a.Deal
		if m == nil {
			if r.Ack != nil {
				return fmt.Errorf("%s %s (%s) acknowledged with a signature though it brought no deal message", a.Actor, a.ActionID, a.Kind)
			}
			return nil
		}
		switch {
		case r.Ack == nil:
			return fmt.Errorf("the deal message of %s (%s) answered without the server's signature", a.Actor, a.Kind)
		case !signedBy(pub, dealAck("ack-kuhn", a.Actor, m, r.Ack.At), r.Ack):
			return fmt.Errorf("the acknowledgement of %s's deal message does not verify under the published key", a.Actor)
		case signedBy(otherPub, dealAck("ack-kuhn", a.Actor, m, r.Ack.At), r.Ack),
			signedBy(pub, dealAck("ack-kuhn", "someone", m, r.Ack.At), r.Ack),
			signedBy(pub, dealAck("ack-kuhn2", a.Actor, m, r.Ack.At), r.Ack):
			return fmt.Errorf("the acknowledgement of %s's deal message verifies under another key, uid or game", a.Actor)
		}
		if m.Pass != nil && len(m.Keys) > 0 {
			// Another message: the pass without the keys that rode with it.
			if signedBy(pub, dealAck("ack-kuhn", a.Actor, &table.DealMessage{Pass: m.Pass}, r.Ack.At), r.Ack) {
				return fmt.Errorf("the acknowledgement of a pass with keys verifies for the pass alone")
			}
		}
		switch {
		case m.Pass != nil:
			parts["pass"]++
		case m.Reveal != nil:
			parts["reveal"]++
		case a.Kind == table.KindMove:
			parts["move with keys"]++
		default:
			parts["keys"]++
		}
		return nil
	}
	ackPlay(t, c, kuhn.Def, "ack-kuhn", nil, kuhnAnswered)
	t.Logf("pig: %v; kuhn: %v", via, parts)
	require.Positive(t, parts["pass"], "%v", parts)
	require.Positive(t, parts["reveal"], "%v", parts)
	require.Positive(t, parts["keys"]+parts["move with keys"], "%v", parts)
}

// TestTableAcksUnsignedWithoutKeyOverHTTP: without an acknowledgement
// key no table answer carries a signature (Pig's reveals, Kuhn's deal
// messages), and the games play as before.
func TestTableAcksUnsignedWithoutKeyOverHTTP(t *testing.T) {
	var now atomic.Int64
	now.Store(1_760_000_000_000)
	c := newTrustServer(t, &now)
	brought := 0
	unsigned := func(a table.Action, r *functions.TableResult) error {
		if r.Ack != nil {
			return fmt.Errorf("%s %s (%s) answered with a signature by no key", a.Actor, a.ActionID, a.Kind)
		}
		if a.Reveal != nil || a.Deal != nil {
			brought++
		}
		return nil
	}
	ackPlay(t, c, pig.Def, "noack-pig", func(*table.View) bool { return brought >= 4 }, unsigned)
	ackPlay(t, c, kuhn.Def, "noack-kuhn", nil, unsigned)
	require.Greater(t, brought, 4)
}
