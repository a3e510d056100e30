package client_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"sync"
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
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
)

// dropStore is the functions' table store (the real in-memory one) but
// for the first action target picks: dropped (answered as applied, at
// the table's version, and not applied: the functions then acknowledge
// it, signing as they sign every success) or, refuse set, refused (never
// acknowledged). Every other action goes through. For the false-cheat
// tests (tablecheat_test.go): through set, the action goes through too
// (only noted); frame set, every view after the drop shows the hand
// ended naming the dropped pass's seat a cheat (framed); wrap, if set,
// is the players' side Play drives (a cheating client).
type dropStore struct {
	tablestore.Store
	target  func(a *table.Action) bool
	refuse  bool
	through bool
	frame   *frame
	wrap    func(run *blameRun) trustseat.Server
	mu      sync.Mutex
	hit     *table.Action // the action dropped or refused
}

func (s *dropStore) Do(ctx context.Context, gameID string, a table.Action) (*table.Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hit != nil || !s.target(&a) {
		return s.Store.Do(ctx, gameID, a)
	}
	s.hit = &a
	if s.through {
		return s.Store.Do(ctx, gameID, a)
	}
	if s.refuse {
		return nil, &table.Error{Code: table.CodeInvalidAction, Msg: "refused by the test"}
	}
	v, _, err := s.Store.View(ctx, gameID, a.Actor)
	if err != nil {
		return nil, err
	}
	return &table.Result{ActionID: a.ActionID, Version: v.Version}, nil
}

// fired reports whether the store has dropped or refused its action.
func (s *dropStore) fired() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hit != nil
}

// blameRun is a trustless table of two players, p0 and p1, over a
// dropStore, each through its own Table pinning the server's key, with
// their seats.
type blameRun struct {
	url   string
	id    string
	tt    *client.TrustTable
	seats map[string]*trustseat.Seat
	clock *atomic.Int64 // the functions' clock, unix ms
}

// playUntilHit makes the run's table (def, id) on functions signing with
// key behind ds, and plays it with the first legal move until ds has
// fired; each player's acknowledgements are kept in its seat. It
// returns the run and the play's error (a refusal's, when ds refuses).
func playUntilHit(t *testing.T, def game.Definition, id string, key ed25519.PrivateKey, ds *dropStore) (*blameRun, error) {
	t.Helper()
	run := &blameRun{id: id, clock: &atomic.Int64{}, seats: map[string]*trustseat.Seat{}}
	run.clock.Store(1_770_000_000_000)
	ds.Store = tablestore.NewMemory(registry.Lookup)
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, Logger: quiet()})
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet()).WithTables(ds).WithAckKey(key).
		WithClock(func() time.Time { return time.UnixMilli(run.clock.Load()) })
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	run.url = srv.URL

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	pub := key.Public().(ed25519.PublicKey)
	run.tt = &client.TrustTable{Ctx: ctx, Def: def, Tables: map[string]*client.Table{}, Public: "p0", Seats: run.seats}
	var order []*trustseat.Seat
	for i, uid := range []string{"p0", "p1"} {
		tb, err := client.NewTable(devFunctions(srv.URL, uid), def.Name(), id)
		require.NoError(t, err)
		tb.ServerKey, tb.Retry = pub, time.Millisecond
		run.tt.Tables[uid] = tb
		if i == 0 {
			_, err := tb.Create(ctx, client.TableCreate{Mode: "trustless", Seats: 2})
			require.NoError(t, err)
		}
		v, err := run.tt.View(uid)
		require.NoError(t, err)
		s, err := trustseat.New(def, id, uid, i, v.Trustless.ChainLength)
		require.NoError(t, err)
		run.seats[uid] = s
		order = append(order, s)
		_, err = run.tt.Do(s.Join("join", v.Version, nil, nil))
		require.NoError(t, err)
	}
	_, err := run.tt.Tables["p0"].Start(ctx)
	require.NoError(t, err)
	var play trustseat.Server = run.tt
	if ds.wrap != nil {
		play = ds.wrap(run)
	}
	// Rolling once a turn (Pig): p1 reveals a round from index 2 on
	// whatever the dice (always rolling, p0 could roll a 1 first and p1
	// reach the goal in its own turn, revealing nothing from index 2 on).
	end, err := trustseat.Play(play, order, rollOnce, func(*table.View) bool { return ds.fired() }, 400)
	require.True(t, ds.fired(), "the store's action came before the end (%v, %+v)", err, end)
	return run, err
}

// abortLate moves the functions' clock past any deadline and has p0 ask
// for the abort; it returns p0's view of the table's end.
func (run *blameRun) abortLate(t *testing.T) *client.TableView {
	t.Helper()
	run.clock.Add(int64(table.MaxDeadlineMs) + 1)
	ctx := context.Background()
	p0 := run.tt.Tables["p0"]
	_, err := p0.Act(ctx, "abort", 0, nil)
	require.NoError(t, err)
	v, err := p0.View(ctx, 0)
	require.NoError(t, err, "p0, whose acknowledgements the table holds, takes the end")
	require.Equal(t, "finished", v.Phase)
	require.NotNil(t, v.Outcome)
	require.Equal(t, []int{1}, v.Outcome.Missing, "the end names p1's seat")
	return v
}

// p1Reveal picks p1's first reveal of an index from 2 on; p1Pass2 its
// second mental-poker pass.
func p1Reveal(a *table.Action) bool {
	return a.Actor == "p1" && a.Kind == table.KindReveal && a.Reveal != nil && a.Reveal.Index >= 2
}

func p1Pass2(a *table.Action) bool {
	return a.Actor == "p1" && a.Kind == table.KindDeal && a.Deal != nil && a.Deal.Pass != nil && a.Deal.Pass.Pass == 2
}

// p1EndReveal picks p1's end-of-hand reveal (its keys of every card).
func p1EndReveal(a *table.Action) bool {
	return a.Actor == "p1" && a.Kind == table.KindDeal && a.Deal != nil && a.Deal.Reveal != nil
}

// TestTableDroppedThenBlamed: a server that acknowledges p1's reveal
// (Pig), or its second mental-poker pass or its end-of-hand reveal (Kuhn
// poker), signed, drops it
// and then ends the table naming p1 as missing it: p1's Table stops with
// a *client.TableDropped (a *client.Lie) citing that acknowledgement,
// which a third party checks under the server's published key only
// (client.VerifyTableAck), and sends nothing more; so does p1's Table
// made again after a restart, its seat restored from its secrets, which
// carry the acknowledgement (a Table made again without it takes the
// end: what detects the drop is the kept evidence). The controls: the
// same message refused (never acknowledged) and the table then ended the
// same way is an ordinary end p1's Table takes, though p1 holds the
// acknowledgement of its message before; and with the comparison
// switched off (checks.AckHeld) p1's Table takes the end it holds the
// acknowledgement against.
func TestTableDroppedThenBlamed(t *testing.T) {
	pub, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	other, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	for _, c := range []struct {
		name   string
		def    game.Definition
		target func(*table.Action) bool
	}{{"reveal", defOf("pig"), p1Reveal}, {"deal", defOf("kuhn"), p1Pass2}, {"end", defOf("kuhn"), p1EndReveal}} {
		t.Run(c.name+" dropped", func(t *testing.T) {
			ds := &dropStore{target: c.target}
			run, err := playUntilHit(t, c.def, "bl-"+c.name, key, ds)
			require.NoError(t, err)
			p1 := run.tt.Tables["p1"]
			held := p1.LastAck()
			require.NotNil(t, held)
			require.Equal(t, ds.hit.ActionID, held.Action.ActionID, "p1 holds the acknowledgement of the dropped message")
			run.abortLate(t)

			_, err = p1.View(context.Background(), 0)
			d := droppedOf(t, err)
			require.Equal(t, *held, d.Ack)
			require.Equal(t, []string{"p1"}, d.Missing)
			require.Contains(t, d.Error(), d.Ack.Server.Signature, "the error cites the server's signature")
			switch c.name {
			case "reveal":
				require.Equal(t, ds.hit.Reveal.Index, d.Index)
				require.Equal(t, "deadline", d.Reason)
				// A view whose log leaves the Aborted event out: the
				// protocol's abort and pending round say the same.
				_, err := p1.View(context.Background(), 1<<30)
				require.Equal(t, ds.hit.Reveal.Index, droppedOf(t, err).Index, "from the protocol")
			case "deal":
				require.Equal(t, "pass 2", d.Absent[0], "and the keys that rode with it")
				require.Equal(t, "deadline", d.Reason)
			case "end": // an end-of-hand reveal missing at the deadline forfeits as a cheat
				require.Equal(t, []string{"reveal"}, d.Absent)
				require.Equal(t, "cheat", d.Reason)
			}
			t.Log(d.Error())
			require.True(t, client.VerifyTableAck(pub, &d.Ack), "the published key verifies it")
			require.False(t, client.VerifyTableAck(other, &d.Ack), "another key does not")
			_, again := p1.Send(context.Background(), table.Action{Actor: "p1", ActionID: "x", Kind: table.KindAbort})
			var lie *client.Lie
			require.ErrorAs(t, again, &lie, "p1's Table sends nothing more")

			// A restart: p1's seat restored from its secrets, a new Table.
			seat, err := trustseat.Restore(c.def, run.id, "p1", 1, run.seats["p1"].Export())
			require.NoError(t, err)
			fresh := func() *client.Table {
				tb, err := client.NewTable(devFunctions(run.url, "p1"), c.def.Name(), run.id)
				require.NoError(t, err)
				tb.ServerKey = pub
				return tb
			}
			restarted := fresh()
			require.NoError(t, restarted.HoldFrom(seat))
			_, err = restarted.View(context.Background(), 0)
			require.Equal(t, jsonOf(t, d.Ack), jsonOf(t, droppedOf(t, err).Ack), "after a restart, from the seat's secrets")
			_, err = fresh().View(context.Background(), 0)
			require.NoError(t, err, "a Table without the kept acknowledgement takes the end")
			wrongKey := fresh()
			wrongKey.ServerKey = other
			require.ErrorContains(t, wrongKey.HoldFrom(seat), "not signed by the server's key")
		})
		t.Run(c.name+" refused", func(t *testing.T) {
			ds := &dropStore{target: c.target, refuse: true}
			run, err := playUntilHit(t, c.def, "rf-"+c.name, key, ds)
			require.ErrorContains(t, err, "refused by the test")
			p1 := run.tt.Tables["p1"]
			held := p1.LastAck()
			require.NotNil(t, held, "p1 holds the acknowledgement of an earlier message")
			require.NotEqual(t, ds.hit.ActionID, held.Action.ActionID)
			run.abortLate(t)
			v, err := p1.View(context.Background(), 0)
			require.NoError(t, err, "a refused message, then the end: an ordinary end")
			require.Equal(t, []int{1}, v.Outcome.Missing)
		})
		t.Run(c.name+" dropped without AckHeld", func(t *testing.T) {
			checks.Off(t, checks.AckHeld)
			ds := &dropStore{target: c.target}
			run, err := playUntilHit(t, c.def, "off-"+c.name, key, ds)
			require.NoError(t, err)
			p1 := run.tt.Tables["p1"]
			run.abortLate(t)
			v, err := p1.View(context.Background(), 0)
			require.NoError(t, err, "with AckHeld off, p1's Table takes the end")
			require.Equal(t, []int{1}, v.Outcome.Missing)
			held := p1.LastAck()
			require.Equal(t, ds.hit.ActionID, held.Action.ActionID, "though it holds the acknowledgement of the message it is named missing")
			require.True(t, client.VerifyTableAck(pub, held))
		})
	}
}

// droppedOf is err's *client.TableDropped, which must be there.
func droppedOf(t *testing.T, err error) *client.TableDropped {
	t.Helper()
	var d *client.TableDropped
	require.True(t, errors.As(err, &d), "want a TableDropped, got %v", err)
	var lie *client.Lie
	require.ErrorAs(t, err, &lie, "a TableDropped is a lie")
	return d
}

// jsonOf is v as JSON (what a kept acknowledgement is compared by: its
// time comes back without its monotonic reading).
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestTableHoldFromRefusals: a Table takes back only an acknowledgement
// of its own table and player, of a reveal or a deal message; it keeps
// its player's in its player's seat only; a seat that keeps none leaves
// the Table as it was.
func TestTableHoldFromRefusals(t *testing.T) {
	tb, err := client.NewTable(devFunctions("http://127.0.0.1:1", "p1"), "pig", "g1")
	require.NoError(t, err)
	s, err := trustseat.New(defOf("pig"), "g1", "p1", 1, 16)
	require.NoError(t, err)
	require.NoError(t, tb.HoldFrom(s), "nothing kept")
	require.Nil(t, tb.LastAck())
	require.NoError(t, tb.KeepIn(s), "nothing to keep")
	require.Nil(t, s.KeptAck())

	reveal := &table.Reveal{Seat: 1, Index: 3, Digest: strings64('a'), Transcript: strings64('b'), Signature: strings64('c') + strings64('d')}
	for name, c := range map[string]struct {
		ack  client.TableAck
		want string
	}{
		"another table": {client.TableAck{GameID: "g2", Action: table.Action{Actor: "p1", Kind: table.KindReveal, Reveal: reveal}}, `table "g2"'s, not "g1"'s`},
		"another uid":   {client.TableAck{GameID: "g1", Action: table.Action{Actor: "p0", Kind: table.KindReveal, Reveal: reveal}}, `"p0"'s, not "p1"'s`},
		"no reveal":     {client.TableAck{GameID: "g1", Action: table.Action{Actor: "p1", Kind: table.KindAbort}}, "no reveal nor deal message"},
	} {
		b, err := json.Marshal(c.ack)
		require.NoError(t, err)
		require.NoError(t, s.KeepAck(b))
		require.ErrorContains(t, tb.HoldFrom(s), c.want, name)
		require.Nil(t, tb.LastAck(), name)
	}
	require.NoError(t, s.KeepAck([]byte(`{"gameId":"g1","extra":1}`)))
	require.ErrorContains(t, tb.HoldFrom(s), "unknown field")

	// The control: the same acknowledgement, of this table and player,
	// is taken back, and kept again in the player's seat only.
	b, err := json.Marshal(client.TableAck{GameID: "g1", Action: table.Action{Actor: "p1", Kind: table.KindReveal, Reveal: reveal}})
	require.NoError(t, err)
	require.NoError(t, s.KeepAck(b))
	require.NoError(t, tb.HoldFrom(s))
	require.Equal(t, uint32(3), tb.LastAck().Action.Reveal.Index)
	other, err := trustseat.New(defOf("pig"), "g1", "p0", 0, 16)
	require.NoError(t, err)
	require.ErrorContains(t, tb.KeepIn(other), `"p1"'s, the seat "p0"'s`)
	require.Nil(t, other.KeptAck())
}

// strings64 is 64 hex digits c.
func strings64(c byte) string { return string(bytes.Repeat([]byte{c}, 64)) }
