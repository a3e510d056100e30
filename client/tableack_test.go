package client_test

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
)

// defOf is the registered game called name (the one registry the
// machinery's tests reach games through; it panics on a name it does not
// know: a mistake in the test).
func defOf(name string) game.Definition {
	def, err := registry.Lookup(name)
	if err != nil {
		panic(err)
	}
	return def
}

// ackServer serves the functions with tables in memory, signing the
// table path's acknowledgements with key (nil: none).
func ackServer(t *testing.T, key ed25519.PrivateKey) string {
	t.Helper()
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, Logger: quiet()})
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet()).WithTables(tablestore.NewMemory(registry.Lookup)).WithAckKey(key)
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return srv.URL
}

// playPinned creates the trustless table id of def at the functions at
// url, seats p0 and p1 through their own Tables (each pinning pinned as
// the server's key) with trustseat's chains and keys, starts it and
// plays it with the first legal move until stop (nil: the end). It
// returns the players' Tables, by uid, and the play's error.
func playPinned(t *testing.T, url string, def game.Definition, id string, pinned ed25519.PublicKey,
	stop func(tables map[string]*client.Table) bool) (map[string]*client.Table, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	tt := &client.TrustTable{Ctx: ctx, Def: def, Tables: map[string]*client.Table{}, Public: "p0"}
	var seats []*trustseat.Seat
	for i, uid := range []string{"p0", "p1"} {
		tb, err := client.NewTable(devFunctions(url, uid), def.Name(), id)
		require.NoError(t, err)
		tb.ServerKey, tb.Retry = pinned, time.Millisecond
		tt.Tables[uid] = tb
		if i == 0 {
			_, err := tb.Create(ctx, client.TableCreate{Mode: "trustless", Seats: 2})
			require.NoError(t, err)
		}
		v, err := tt.View(uid)
		require.NoError(t, err)
		s, err := trustseat.New(def, id, uid, i, v.Trustless.ChainLength)
		require.NoError(t, err)
		seats = append(seats, s)
		_, err = tt.Do(s.Join("join", v.Version, nil, nil))
		require.NoError(t, err)
	}
	_, err := tt.Tables["p0"].Start(ctx)
	require.NoError(t, err)
	var halt func(*table.View) bool
	if stop != nil {
		halt = func(*table.View) bool { return stop(tt.Tables) }
	}
	_, err = trustseat.Play(tt, seats, func(v *table.View) game.Move { return v.Legal[0] }, halt, 400)
	return tt.Tables, err
}

// bothAcked stops a play once each player holds an acknowledgement.
func bothAcked(tables map[string]*client.Table) bool {
	return tables["p0"].LastAck() != nil && tables["p1"].LastAck() != nil
}

// TestTableSignedAcknowledgements: a table client that pins the server's
// published key keeps each acknowledgement of its player's reveals (Pig)
// and deal messages (Kuhn poker) with the server's signature, which a
// third party verifies (client.VerifyTableAck) under that key only, for
// that seat, index and uid only, after the acknowledgement was written
// out and read back; it stops with a *client.Lie (and sends nothing
// more) when an acknowledgement is signed by another key or not signed;
// with that check switched off (its positive control) it takes both; a
// client that pins no key takes unsigned ones.
func TestTableSignedAcknowledgements(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	otherPub, forged, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)

	t.Run("signed reveals", func(t *testing.T) {
		tables, err := playPinned(t, ackServer(t, key), defOf("pig"), "ack-pig", pub, bothAcked)
		require.NoError(t, err)
		for uid, tb := range tables {
			a := tb.LastAck()
			require.NotNil(t, a, uid)
			require.NotNil(t, a.Server, "%s keeps the server's signature", uid)
			require.NotNil(t, a.Action.Reveal, uid)
			var back client.TableAck // what the player shows: the acknowledgement as written out
			raw, err := json.Marshal(a)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &back))
			require.True(t, client.VerifyTableAck(pub, &back), "%s's acknowledgement, read back", uid)
			require.False(t, client.VerifyTableAck(otherPub, &back), "under another key")
			for name, edit := range map[string]func(a *client.TableAck){
				"seat":  func(a *client.TableAck) { a.Action.Reveal.Seat ^= 1 },
				"index": func(a *client.TableAck) { a.Action.Reveal.Index++ },
				"uid":   func(a *client.TableAck) { a.Action.Actor = "someone" },
				"game":  func(a *client.TableAck) { a.GameID = "ack-pig2" },
				"time":  func(a *client.TableAck) { a.Server.At++ },
			} {
				c := *a
				r, s := *a.Action.Reveal, *a.Server
				c.Action.Reveal, c.Server = &r, &s
				edit(&c)
				require.False(t, client.VerifyTableAck(pub, &c), "%s's acknowledgement verifies with another %s", uid, name)
			}
		}
	})
	t.Run("signed deal messages", func(t *testing.T) {
		tables, err := playPinned(t, ackServer(t, key), defOf("kuhn"), "ack-kuhn", pub, nil)
		require.NoError(t, err)
		for uid, tb := range tables {
			a := tb.LastAck()
			require.NotNil(t, a, uid)
			require.NotNil(t, a.Action.Deal, "%s's last acknowledgement is of a deal message", uid)
			require.True(t, client.VerifyTableAck(pub, a), uid)
			require.False(t, client.VerifyTableAck(otherPub, a), uid)
			c := *a
			c.Action.Actor = "someone"
			require.False(t, client.VerifyTableAck(pub, &c), "another uid")
		}
	})
	lieOf := func(err error) *client.Lie {
		var lie *client.Lie
		require.True(t, errors.As(err, &lie), "want a lie, got %v", err)
		return lie
	}
	t.Run("forged", func(t *testing.T) {
		tables, err := playPinned(t, ackServer(t, forged), defOf("pig"), "ack-forged", pub, bothAcked)
		require.Contains(t, lieOf(err).What, "does not verify")
		// Seat 0 rolls first, with its reveal: its Table was lied to,
		// kept nothing, and sends nothing more.
		require.Nil(t, tables["p0"].LastAck())
		_, again := tables["p0"].Send(context.Background(), table.Action{Actor: "p0", ActionID: "x", Kind: table.KindAbort})
		require.Same(t, lieOf(err), lieOf(again), "the Table sends nothing more")
	})
	t.Run("absent", func(t *testing.T) {
		_, err := playPinned(t, ackServer(t, nil), defOf("pig"), "ack-absent", pub, bothAcked)
		require.Contains(t, lieOf(err).What, "without its signature")
	})
	t.Run("absent at the deal", func(t *testing.T) {
		_, err := playPinned(t, ackServer(t, nil), defOf("kuhn"), "ack-absent-kuhn", pub, nil)
		require.Contains(t, lieOf(err).What, "(deal) without its signature")
	})
	// The positive controls: with the check of the server's signature
	// off (checks.AckSignature), the forged and the unsigned
	// acknowledgements are taken and kept, though neither verifies.
	t.Run("forged without AckSignature", func(t *testing.T) {
		checks.Off(t, checks.AckSignature)
		tables, err := playPinned(t, ackServer(t, forged), defOf("pig"), "ack-forged-off", pub, bothAcked)
		require.NoError(t, err, "with AckSignature off, the forged acknowledgement is taken")
		a := tables["p1"].LastAck()
		require.NotNil(t, a.Server)
		require.False(t, client.VerifyTableAck(pub, a), "kept, though not the published key's")
	})
	t.Run("absent without AckSignature", func(t *testing.T) {
		checks.Off(t, checks.AckSignature)
		tables, err := playPinned(t, ackServer(t, nil), defOf("pig"), "ack-absent-off", pub, bothAcked)
		require.NoError(t, err, "with AckSignature off, the unsigned acknowledgement is taken")
		require.Nil(t, tables["p1"].LastAck().Server)
	})
	t.Run("unpinned", func(t *testing.T) {
		tables, err := playPinned(t, ackServer(t, nil), defOf("pig"), "ack-unpinned", nil, bothAcked)
		require.NoError(t, err)
		a := tables["p1"].LastAck()
		require.NotNil(t, a, "an unsigned acknowledgement is kept (it convinces the player only)")
		require.Nil(t, a.Server)
		require.False(t, client.VerifyTableAck(pub, a))
	})
}

// TestTableSendKinds: Send refuses an action of a kind no function takes
// and a reveal without its fields, before any call.
func TestTableSendKinds(t *testing.T) {
	tb, err := client.NewTable(devFunctions("http://127.0.0.1:1", "p0"), "pig", "g")
	require.NoError(t, err)
	for _, a := range []table.Action{{Actor: "p0", ActionID: "a", Kind: "fly"}, {Actor: "p0", ActionID: "b", Kind: table.KindReveal}} {
		_, err := tb.Send(context.Background(), a)
		require.Error(t, err, fmt.Sprint(a.Kind))
		var ce *client.CallError
		require.False(t, errors.As(err, &ce), "refused before any call: %v", err)
	}
}
