package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// tableServer serves the functions with tables kept in ts (seeded games
// allowed) and development tokens.
func tableServer(t *testing.T, ts tablestore.Store) string {
	t.Helper()
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, AllowSeeded: true, Logger: quiet()})
	srv := httptest.NewServer(functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet()).WithTables(ts).Mux())
	t.Cleanup(srv.Close)
	return srv.URL
}

// kuhnDeal is the seeded deal of Kuhn poker on seed, computed from the
// RNG spec alone (rng.Shuffle of J, Q, K under the tag and deck that
// docs/games.md gives Kuhn's deal, "kuhn.deal" and "kuhn"), not through
// a table or the game's code: seat 0's card, seat 1's.
func kuhnDeal(t *testing.T, seed string) [2]int {
	s, err := rng.NewSeeded(seed)
	require.NoError(t, err)
	deck := []int{0, 1, 2}
	rng.Shuffle(s, deck, "kuhn.deal", &rng.Ctx{DeckID: "kuhn"})
	return [2]int{deck[0], deck[1]}
}

// ownOnly says what in v (seat's view while the hand is not over) is not
// seat's own part alone: a private part other than its own card, another
// seat's card in its view of the game, an event addressed to another seat
// other than its trace, or its own card's Dealt missing; "" if none.
func ownOnly(v *client.TableView, seat int, cards [2]int) string {
	own, other := fmt.Sprintf(`{"card":%d}`, cards[seat]), fmt.Sprintf(`{"card":%d}`, cards[1-seat])
	switch {
	case string(v.Private) != own:
		return fmt.Sprintf("seat %d's private part is %s, not its own %s", seat, v.Private, own)
	case !strings.Contains(string(v.State), `"private":`+own):
		return fmt.Sprintf("seat %d's view %s lacks its own card", seat, v.State)
	case strings.Contains(string(v.State), other) || strings.Contains(string(v.Private), other):
		return fmt.Sprintf("seat %d reads the other seat's card %s", seat, other)
	}
	dealt := false
	for _, e := range v.Log {
		switch {
		case e.To == seat && e.Type == "Dealt":
			dealt = e.Vals["card"] == int64(cards[seat])
		case e.To != -1 && e.To != seat:
			return fmt.Sprintf("seat %d reads event %d addressed to seat %d", seat, e.Seq, e.To)
		case e.Type == table.TypeAddressed && (e.Vals["seat"] != int64(1-seat) || len(e.Vals) != 1 || e.Game):
			return fmt.Sprintf("seat %d reads more than a trace at seq %d: %+v", seat, e.Seq, e)
		}
	}
	if !dealt {
		return fmt.Sprintf("seat %d does not read its own Dealt", seat)
	}
	return ""
}

func devF(base, uid string, hc *http.Client) *client.Functions {
	return &client.Functions{Base: base, HTTP: hc, Token: func(context.Context) (string, error) { return "dev:" + uid, nil }}
}

// playKuhn plays one seeded Kuhn hand through two Tables (the owner at
// seat 0) to its end, each seat choosing its first legal move, and
// returns the first breach of ownOnly seen by either seat before the
// hand ends ("" for none).
func playKuhn(t *testing.T, base, g, seed string) string {
	ctx := context.Background()
	require.True(t, must(functest.HasPrivateParts(must(registry.Lookup("kuhn")))))
	cards := kuhnDeal(t, seed)
	var tabs [2]*client.Table
	for i := range tabs {
		var err error
		tabs[i], err = client.NewTable(devF(base, fmt.Sprintf("%s-p%d", g, i), nil), "kuhn", g)
		require.NoError(t, err)
	}
	_, err := tabs[0].Create(ctx, client.TableCreate{Mode: "seeded", Seed: seed})
	require.NoError(t, err)
	for i, tb := range tabs {
		res, err := tb.Join(ctx, i, nil)
		require.NoError(t, err)
		require.False(t, res.Replayed)
	}
	_, err = tabs[0].Start(ctx)
	require.NoError(t, err)
	for range 10 {
		var views [2]*client.TableView
		for i, tb := range tabs {
			views[i], err = tb.View(ctx, 0)
			require.NoError(t, err)
			require.Equal(t, i, views[i].Seat)
		}
		if views[0].Phase == "finished" {
			return ""
		}
		for i := range tabs {
			if bad := ownOnly(views[i], i, cards); bad != "" {
				return bad
			}
		}
		to := views[0].ToMove
		res, err := tabs[to].Move(ctx, views[to].Version, views[to].Legal[0])
		require.NoError(t, err)
		for _, e := range res.Events {
			require.False(t, e.To != -1 && e.To != to, "an act's answer holds an event addressed to the other seat")
		}
	}
	t.Fatal("the hand did not end in 10 moves")
	return ""
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Kuhn poker through the Go client's table path over HTTP: each seat's
// client reads its own card (getView's private part, its view of the
// game, its own Dealt event), the card the RNG spec deals it on the
// table's seed, and never the other seat's (its Dealt only as a trace)
// until the showdown, in eight seeded hands. Positive control: a store
// whose views give seat 1 seat 0's private part is caught by the same
// check.
func TestKuhnTableThroughTheClient(t *testing.T) {
	base := tableServer(t, tablestore.NewMemory(registry.Lookup))
	for g := range 8 {
		id := fmt.Sprintf("ck-%d", g)
		require.Empty(t, playKuhn(t, base, id, "client-kuhn-"+id))
	}
	leaky := tableServer(t, leakyPrivate{tablestore.NewMemory(registry.Lookup)})
	bad := playKuhn(t, leaky, "ck-leak", "client-kuhn-leak")
	require.Contains(t, bad, "seat 1's private part", "control: the leak is caught")
}

// leakyPrivate gives seat 1's reader seat 0's private part (the positive
// control of TestKuhnTableThroughTheClient).
type leakyPrivate struct{ tablestore.Store }

func (l leakyPrivate) View(ctx context.Context, g, uid string) (*table.View, game.Definition, error) {
	v, def, err := l.Store.View(ctx, g, uid)
	if err != nil || v.Seat != 1 {
		return v, def, err
	}
	zero, _, err := l.Store.View(ctx, g, v.Seats[0].UID)
	if err != nil {
		return nil, nil, err
	}
	v.Private = zero.Private
	return v, def, nil
}

// dropFirst is a transport that loses the answer of the first n
// requests to a function: the request reaches the server, the caller
// gets an error.
type dropFirst struct {
	fn string
	n  atomic.Int32
}

func (d *dropFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && strings.HasSuffix(r.URL.Path, "/"+d.fn) && d.n.Add(-1) >= 0 {
		resp.Body.Close()
		return nil, errors.New("the answer was lost")
	}
	return resp, err
}

// A table call whose answer is lost is sent again with the same action
// id and applied once (the later answer is the stored one, Replayed), as
// is the same call from the player's next client;
// the functions' refusals reach the caller by code (errors.Is with the
// table's codes); the client refuses what is not a table call before
// sending.
func TestTableClientRetriesAndErrors(t *testing.T) {
	ctx := context.Background()
	base := tableServer(t, tablestore.NewMemory(registry.Lookup))
	lossy := &dropFirst{fn: "act"}
	t0, err := client.NewTable(devF(base, "rt0", &http.Client{Transport: lossy}), "kuhn", "rt")
	require.NoError(t, err)
	t0.Retry = 1
	t1, err := client.NewTable(devF(base, "rt1", nil), "kuhn", "rt")
	require.NoError(t, err)
	_, err = t0.Create(ctx, client.TableCreate{})
	require.NoError(t, err)
	_, err = t0.Join(ctx, 0, nil)
	require.NoError(t, err)
	_, err = t1.Join(ctx, 0, nil)
	require.ErrorIs(t, err, table.CodeSeatTaken)
	_, err = t1.Join(ctx, 1, nil)
	require.NoError(t, err)
	_, err = t1.Start(ctx)
	require.ErrorIs(t, err, table.CodeNotOwner)
	_, err = t0.Start(ctx)
	require.NoError(t, err)

	v1, err := t1.View(ctx, 0)
	require.NoError(t, err)
	_, err = t1.Move(ctx, v1.Version, json.RawMessage(`{"kind":"pass"}`))
	require.ErrorIs(t, err, table.CodeNotYourTurn)
	var ce *client.CallError
	require.ErrorAs(t, err, &ce)
	require.Equal(t, "PERMISSION_DENIED", ce.Status) // docs/functions.md, the codes' statuses
	v0, err := t0.View(ctx, 0)
	require.NoError(t, err)
	_, err = t0.Move(ctx, v0.Version-1, v0.Legal[0])
	require.ErrorIs(t, err, table.CodeStaleVersion)
	_, err = t0.Move(ctx, v0.Version, json.RawMessage(`"pass"`))
	require.ErrorContains(t, err, "JSON object")

	lossy.n.Store(2)
	res, err := t0.Move(ctx, v0.Version, v0.Legal[0]) // two answers lost, the third is the stored one
	require.NoError(t, err)
	require.True(t, res.Replayed)
	require.Equal(t, v0.Version+1, res.Version)
	after, err := t1.View(ctx, 0)
	require.NoError(t, err)
	require.Equal(t, v0.Version+1, after.Version, "the move was applied once")
	// The player's next client (a restart) sending the same move again
	// gets the stored answer; another move at that version is refused.
	restarted, err := client.NewTable(devF(base, "rt0", nil), "kuhn", "rt")
	require.NoError(t, err)
	res, err = restarted.Move(ctx, v0.Version, v0.Legal[0])
	require.NoError(t, err)
	require.True(t, res.Replayed)
	_, err = restarted.Move(ctx, v0.Version, v0.Legal[1])
	require.ErrorIs(t, err, table.CodeActionIDReused)

	_, err = client.NewTable(devF(base, "x", nil), "dungeon", "rt")
	require.ErrorContains(t, err, "no table game")
	_, err = client.NewTable(devF(base, "x", nil), "kuhn", "bad id")
	require.ErrorContains(t, err, "game id")
	_, err = t0.Act(ctx, "move", 0, nil)
	require.ErrorContains(t, err, "act kind")
}
