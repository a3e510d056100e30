package play_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/table/trustseat"
)

// memTable is the start the table page tests on the in-memory server
// share (newDevServer: no emulator, dev sign-in): the test's page turn,
// the server, the functions' client for the test's own calls (as any
// uid, with the token "dev:"+uid) and the shared browser.
type memTable struct {
	t   *testing.T
	ctx context.Context
	srv *server
	api *functest.Client
	b   *browser.Browser
}

// newMemTable takes the test's page turn (pageTest, not on the
// emulators) and starts its server.
func newMemTable(t *testing.T) *memTable {
	t.Helper()
	pageTest(t, false)
	srv := newDevServer(t)
	return &memTable{t: t, ctx: context.Background(), srv: srv, api: &functest.Client{Base: srv.URL}, b: chrome.Browser(t)}
}

// page opens the play page for name at viewport v, signed in by dev
// sign-in (its uid: name in lower case).
func (m *memTable) page(name string, v browser.Viewport) *player {
	m.t.Helper()
	p := newPlayer(m.t, m.b, name, v, m.srv.URL+"/play/")
	p.signInDev()
	return p
}

// tableID is a table id not used before: prefix, then the clock's
// nanoseconds in base 36.
func tableID(prefix string) string {
	return prefix + strconv.FormatInt(time.Now().UnixNano(), 36)
}

// create has owner (a uid) create table id of Pig with the options given
// (mode, seats, ...; game, gameId and actionId are added).
func (m *memTable) create(owner, id string, opts map[string]any) {
	m.t.Helper()
	req := map[string]any{"game": "pig", "gameId": id, "actionId": "create"}
	for k, v := range opts {
		req[k] = v
	}
	require.NoError(m.t, m.api.Call(m.ctx, "createGame", "dev:"+owner, req, nil))
}

// trustPig has Bob create a two-seat trustless Pig table id (the round's
// deadline deadlineMs, 0 for the server's default) and join it at seat 0
// with a seat of the test's own (trustseat, as a client does); seat 1 is
// left to Alice's page. The table answers for both (functest.TrustTable).
func (m *memTable) trustPig(id string, deadlineMs int) (*functest.TrustTable, *trustseat.Seat) {
	m.t.Helper()
	def, err := registry.Lookup("pig")
	require.NoError(m.t, err)
	tt := &functest.TrustTable{C: m.api, Ctx: m.ctx, Def: def, ID: id, Players: []functest.Player{{UID: "bob", Token: "dev:bob"}, {UID: "alice", Token: "dev:alice"}}}
	opts := map[string]any{"mode": "trustless", "seats": 2}
	if deadlineMs != 0 {
		opts["deadlineMs"] = deadlineMs
	}
	m.create("bob", id, opts)
	v, err := tt.View("bob")
	require.NoError(m.t, err)
	bob, err := trustseat.New(def, id, "bob", 0, v.Trustless.ChainLength)
	require.NoError(m.t, err)
	_, err = tt.Do(bob.Join("join", v.Version, nil, nil))
	require.NoError(m.t, err)
	return tt, bob
}
