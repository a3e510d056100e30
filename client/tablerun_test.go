package client_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"sync/atomic"
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
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
)

// trustRun is a started trustless table of n players, p0 to p(n-1), over
// the real in-memory functions (acknowledgements signed by key) and a
// table store wrap makes around the real in-memory one (nil: that one),
// each player through its own Table pinning the server's key, with
// their seats in seat order.
type trustRun struct {
	url   string
	id    string
	def   game.Definition
	pub   ed25519.PublicKey
	mem   tablestore.Store // the real store, under the wrapper
	tt    *client.TrustTable
	order []*trustseat.Seat
	clock *atomic.Int64 // the functions' clock, unix ms
}

// newTrustRun makes and starts the run's table id of def on new
// functions; mk, if not nil, makes seat i's trustseat.Seat (else
// trustseat.New).
func newTrustRun(t *testing.T, def game.Definition, id string, n int, key ed25519.PrivateKey,
	wrap func(tablestore.Store) tablestore.Store, mk func(i int, uid string, chain uint32) (*trustseat.Seat, error)) *trustRun {
	t.Helper()
	run := &trustRun{pub: key.Public().(ed25519.PublicKey), clock: &atomic.Int64{}}
	run.clock.Store(1_770_000_000_000)
	run.mem = tablestore.NewMemory(registry.Lookup)
	var ts tablestore.Store = run.mem
	if wrap != nil {
		ts = wrap(run.mem)
	}
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, Logger: quiet()})
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet()).WithTables(ts).WithAckKey(key).
		WithClock(func() time.Time { return time.UnixMilli(run.clock.Load()) })
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	run.url = srv.URL
	run.open(t, def, id, n, mk)
	return run
}

// another is a second table, id, of def on the run's functions, made
// and started as newTrustRun's.
func (run *trustRun) another(t *testing.T, def game.Definition, id string, n int,
	mk func(i int, uid string, chain uint32) (*trustseat.Seat, error)) *trustRun {
	t.Helper()
	b := &trustRun{url: run.url, pub: run.pub, mem: run.mem, clock: run.clock}
	b.open(t, def, id, n, mk)
	return b
}

// open makes and starts the run's table.
func (run *trustRun) open(t *testing.T, def game.Definition, id string, n int, mk func(i int, uid string, chain uint32) (*trustseat.Seat, error)) {
	t.Helper()
	run.id, run.def = id, def
	if mk == nil {
		mk = func(i int, uid string, chain uint32) (*trustseat.Seat, error) {
			return trustseat.New(def, id, uid, i, chain)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	run.tt = &client.TrustTable{Ctx: ctx, Def: def, Tables: map[string]*client.Table{}, Public: "p0", Seats: map[string]*trustseat.Seat{}}
	for i := range n {
		uid := fmt.Sprintf("p%d", i)
		tb := run.table(t, uid)
		run.tt.Tables[uid] = tb
		if i == 0 {
			_, err := tb.Create(ctx, client.TableCreate{Mode: "trustless", Seats: n})
			require.NoError(t, err)
		}
		v, err := run.tt.View(uid)
		require.NoError(t, err)
		s, err := mk(i, uid, v.Trustless.ChainLength)
		require.NoError(t, err)
		run.tt.Seats[uid] = s
		run.order = append(run.order, s)
		_, err = run.tt.Do(s.Join("join", v.Version, nil, nil))
		require.NoError(t, err)
	}
	_, err := run.tt.Tables["p0"].Start(ctx)
	require.NoError(t, err)
}

// table is a new Table of uid at the run's table, pinning the server's
// key.
func (run *trustRun) table(t *testing.T, uid string) *client.Table {
	t.Helper()
	tb, err := client.NewTable(devFunctions(run.url, uid), run.def.Name(), run.id)
	require.NoError(t, err)
	tb.ServerKey, tb.Retry = run.pub, time.Millisecond
	return tb
}

// play plays the run's table with the first legal move until stop says
// so (or the end); it returns Play's error.
func (run *trustRun) play(stop func(*table.View) bool) error {
	return run.playWith(func(v *table.View) game.Move { return v.Legal[0] }, stop)
}

// playWith plays the run's table with the moves choose picks until stop
// says so (or the end); it returns Play's error.
func (run *trustRun) playWith(choose func(*table.View) game.Move, stop func(*table.View) bool) error {
	_, err := trustseat.Play(run.tt, run.order, choose, stop, 400)
	return err
}

// rollOnce is a Pig policy that rolls once a turn and holds after any
// roll but a 1: every turn adds at most the die's top face, so no seat
// reaches the goal within its first turns, and each seat rolls again in
// its next turn whatever the dice (with Legal[0], always rolling, a seat
// may reach the goal in its first turn and end the game first).
func rollOnce(v *table.View) game.Move {
	for _, m := range v.Legal {
		if m.Kind == "hold" {
			return m
		}
	}
	return v.Legal[0]
}

// truth is the real table's protocol as p0 may see it, past any wrapper.
func (run *trustRun) truth(t *testing.T) *table.View {
	t.Helper()
	v, _, err := run.mem.View(context.Background(), run.id, "p0")
	require.NoError(t, err)
	return v
}

// keyOf is seat s's Ed25519 private key, read from its secrets (what a
// test signs a second move with, as an actor tricked or colluding would).
func keyOf(t *testing.T, s *trustseat.Seat) ed25519.PrivateKey {
	t.Helper()
	var w struct {
		Key string `json:"key"`
	}
	require.NoError(t, json.Unmarshal(s.Export(), &w))
	seed, err := hex.DecodeString(w.Key)
	require.NoError(t, err)
	return ed25519.NewKeyFromSeed(seed)
}

// view is uid's view of the run's table, as its seat reads it.
func (run *trustRun) view(t *testing.T, uid string) *table.View {
	t.Helper()
	v, err := run.tt.View(uid)
	require.NoError(t, err)
	return v
}

// roll is Pig's roll among v's legal moves.
func roll(t *testing.T, v *table.View) game.Move {
	t.Helper()
	for _, m := range v.Legal {
		if m.Kind == "roll" {
			return m
		}
	}
	t.Fatalf("no roll among %v", v.Legal)
	return game.Move{}
}

// codeOf is err's function refusal code, which must be there.
func codeOf(t *testing.T, err error) string {
	t.Helper()
	var ce *client.CallError
	require.ErrorAs(t, err, &ce)
	return ce.Code
}
