package fsstore_test

import (
	"context"
	"os"
	"reflect"
	"testing"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/reducers"
	"github.com/fairboard/fairboard/session"
	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/store/fsstore"
	"github.com/fairboard/fairboard/store/storetest"
)

var emu = emulator.NewSuite(emulator.Config{Firestore: true})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

func newStore(t *testing.T) *fsstore.Store {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	c, err := emu.Firestore().Client(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return fsstore.New(c, fsstore.WithCloseClient())
}

func TestFirestoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return newStore(t) })
}

// TestLayout pins the documents an action writes, and that one Apply is
// one transaction run once when nothing contends.
func TestLayout(t *testing.T) {
	s := newStore(t)
	defer s.Close()
	ctx := context.Background()
	eng := engine.New(engine.DefaultRules(), reducers.Table())
	apply := func(a engine.Action) {
		t.Helper()
		_, err := s.Apply(ctx, store.Request{GameID: "g1", ActionID: a.ID, Actor: a.Actor, Kind: a.Kind, Fingerprint: a.ID},
			func(g *engine.Game) (store.Outcome, error) {
				if a.Kind == engine.ActCreate {
					ev, err := eng.Dispatch(g, &a, nil, nil)
					return store.Outcome{Events: ev}, err
				}
				st, err := session.Stream(g)
				if err != nil {
					return store.Outcome{}, err
				}
				ev, err := eng.Dispatch(g, &a, st, nil)
				if err != nil {
					return store.Outcome{}, err
				}
				return store.Outcome{Events: ev}, g.SaveStream(st)
			})
		if err != nil {
			t.Fatal(err)
		}
	}
	apply(engine.Action{Kind: engine.ActCreate, Actor: "u1", ID: "c", GameID: "g1", Mode: "seeded", Seed: "layout"})
	apply(engine.Action{Kind: engine.ActJoin, Actor: "u1", ID: "j1", Seat: 0, Class: engine.ClassWarrior})
	apply(engine.Action{Kind: engine.ActJoin, Actor: "u2", ID: "j2", Seat: 1, Class: engine.ClassScout})
	if st := s.Stats(); st.Transactions != 3 || st.Attempts != 3 {
		t.Errorf("stats %+v; want 3 transactions, 3 attempts", st)
	}
	c := s.Client()
	game, err := c.Doc("games/g1").Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d := game.Data()
	if d["ownerUid"] != "u1" || !reflect.DeepEqual(d["playerUids"], []any{"u1", "u2"}) {
		t.Errorf("derived fields: ownerUid %v playerUids %v", d["ownerUid"], d["playerUids"])
	}
	for _, secret := range []string{"seed", "rngState", "secret", "log"} {
		if _, ok := d[secret]; ok {
			t.Errorf("games/g1 has field %q", secret)
		}
	}
	priv, err := c.Doc("games/g1/private/state").Get(ctx)
	if err != nil || priv.Data()["seed"] != "layout" {
		t.Errorf("private/state: %v, %v", priv.Data(), err)
	}
	logs, err := c.Collection("games/g1/log").Documents(ctx).GetAll()
	if err != nil || len(logs) != 3 || logs[0].Ref.ID != "00000000000000000001" || logs[0].Data()["type"] != "GameCreated" {
		t.Fatalf("log documents: %d, %v", len(logs), err)
	}
	rec, err := c.Doc("games/g1/actions/" + store.RecordKey("u2", "j2")).Get(ctx)
	if err != nil || rec.Data()["version"] != int64(3) || rec.Data()["actor"] != "u2" {
		t.Errorf("actions/j2: %v, %v", rec.Data(), err)
	}
}
