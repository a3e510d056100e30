package fsstore_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// compareReads reads the game id's document, its private state and the
// record of action actionID by actor with the masked read (mask) and
// with the library's GetAll, the independent reading, and returns how
// they differ (nil: the masked read is the library's, the private
// state's audit ring left out, each field with its type).
func compareReads(t *testing.T, st *fsstore.Store, mask []string, id, actor, actionID string) []string {
	t.Helper()
	ctx := context.Background()
	g := st.Client().Collection("games").Doc(id)
	refs := []*firestore.DocumentRef{g, g.Collection("private").Doc("state"), g.Collection("actions").Doc(store.RecordKey(actor, actionID))}
	masked, err := fsstore.ReadMaskedForTest(ctx, st.RPC(), refs, mask)
	if err != nil {
		t.Fatal(err)
	}
	lib, err := st.Client().GetAll(ctx, refs)
	if err != nil {
		t.Fatal(err)
	}
	var diffs []string
	for i, snap := range lib {
		m := masked[i]
		if m.Exists != snap.Exists() {
			diffs = append(diffs, fmt.Sprintf("%s: exists %v, the library says %v", refs[i].Path, m.Exists, snap.Exists()))
			continue
		}
		if !snap.Exists() {
			continue
		}
		want := snap.Data()
		if i == 1 {
			if _, ok := m.Data["auditRing"]; ok {
				diffs = append(diffs, "the masked read returned the audit ring")
			}
			delete(want, "auditRing")
		}
		if !m.Updated.Equal(snap.UpdateTime) {
			diffs = append(diffs, fmt.Sprintf("%s: updated %v, the library says %v", refs[i].Path, m.Updated, snap.UpdateTime))
		}
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if !reflect.DeepEqual(m.Data[k], want[k]) {
				diffs = append(diffs, fmt.Sprintf("%s: %s = %#v, the library reads %#v", refs[i].Path, k, m.Data[k], want[k]))
			}
		}
		for k := range m.Data {
			if _, ok := want[k]; !ok {
				diffs = append(diffs, fmt.Sprintf("%s: %s read, the library reads none", refs[i].Path, k))
			}
		}
	}
	return diffs
}

// TestMaskedReadIsTheLibrarysRead: the read of every attempt (one
// BatchGetDocuments with the read mask, converted from protobuf by the
// store) returns, after every action of whole games, what the library's
// GetAll reads (its DocumentSnapshot.Data, an independent conversion):
// each field of the game document, of the private state (its audit ring
// left out, which the library reads) and of the action's record, with its
// type (int64 is not float64, nil is not an empty array), and the same
// update times; a record not there is missing in both. Games of both
// layouts: one with audit on and one off written by this release, one
// with audit on written by the previous release (WithPreviousLayout)
// then played on by this one. Positive control: a mask without one of
// the game's fields ("phase") differs.
func TestMaskedReadIsTheLibrarysRead(t *testing.T) {
	cur := newStore(t)
	prev := storeOnEmulator(t, fsstore.WithPreviousLayout())
	ctx := context.Background()
	mask := fsstore.ReadMask()
	rang := 0
	play := func(svc *service.Service, st *fsstore.Store, b *botGame, actions int, p *engine.Public) {
		t.Helper()
		for range actions {
			a, ok := b.next(p)
			if !ok {
				return
			}
			if _, err := svc.Do(ctx, b.id, a); err != nil {
				t.Fatalf("%s %s: %v", b.id, a.Kind, err)
			}
			if d := compareReads(t, cur, mask, b.id, a.Actor, a.ID); d != nil {
				t.Fatalf("%s after %s %s:\n%v", b.id, a.Kind, a.ID, d)
			}
			if d := compareReads(t, cur, mask, b.id, a.Actor, a.ID+"-never"); d != nil {
				t.Fatalf("%s, a record not there:\n%v", b.id, d)
			}
			full, err := st.State(ctx, b.id)
			if err != nil {
				t.Fatal(err)
			}
			*p = full.Public
		}
		snap, err := st.Client().Collection("games").Doc(b.id).Collection("private").Doc("state").Get(ctx)
		if err == nil {
			if ring, ok := snap.Data()["auditRing"].(map[string]any); ok {
				rang += len(ring)
			}
		}
	}
	for _, audited := range []bool{false, true} {
		var p engine.Public
		play(newSvc(cur), cur, newBotGame(fmt.Sprintf("masked-%v", audited), 3, audited), 60, &p)
	}
	var p engine.Public
	old := newBotGame("masked-old", 3, true)
	play(newSvc(prev), prev, old, 40, &p)
	play(newSvc(cur), cur, old, 30, &p)
	if rang == 0 {
		t.Fatal("no game held an audit ring: the ring's absence from the read was not tested")
	}
	// The positive control: a field left out of the mask is seen.
	without := slices.DeleteFunc(slices.Clone(mask), func(f string) bool { return f == "phase" })
	if len(without) != len(mask)-1 {
		t.Fatalf("the read mask %v has no phase", mask)
	}
	if d := compareReads(t, cur, without, "masked-true", "p1", "create"); d == nil {
		t.Fatal("a mask without phase read what the library reads: the comparison cannot see a missing field")
	}
}

// TestMaskedReadCommitLosesToAConcurrentWrite: the masked read is no
// lock, and the commit after it is conditional on the game document as
// read: an action of another instance that lands between an attempt's
// read and its commit makes the commit fail its precondition, and the
// attempt is made again on a new read (the mutator runs twice), so both
// actions apply, in order, once each.
func TestMaskedReadCommitLosesToAConcurrentWrite(t *testing.T) {
	a := newStore(t)
	b := storeOnEmulator(t)
	ctx := context.Background()
	if _, err := a.Apply(ctx, store.Request{GameID: "hot", ActionID: "a0", Actor: "u"}, bump); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	interfere := func(g *engine.Game, st []engine.Action) (store.Outcome, error) {
		if calls.Add(1) == 1 {
			// Between this attempt's read and its commit, another
			// instance's action lands.
			if _, err := b.Apply(ctx, store.Request{GameID: "hot", ActionID: "b1", Actor: "u"}, bump); err != nil {
				return store.Outcome{}, err
			}
		}
		return bump(g, st)
	}
	s0 := a.Stats()
	r, err := a.Apply(ctx, store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}, interfere)
	if err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("the mutator ran %d times, want 2 (the first commit refused)", n)
	}
	if n := a.Stats().Attempts - s0.Attempts; n != 2 {
		t.Fatalf("%d attempts, want 2", n)
	}
	if r.Version != 3 {
		t.Fatalf("the action applied at version %d, want 3 (after the other's 2)", r.Version)
	}
	mustVersion(t, a, 3)
}

// TestNewRPCReachesTheEmulator: with FIRESTORE_EMULATOR_HOST set, as a
// deployment's functions on the emulators have it, NewRPC's client reads
// the emulator as its owner: a store with it applies actions and replays
// one from its record.
func TestNewRPCReachesTheEmulator(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", emu.Firestore().Host)
	ctx := context.Background()
	rc, err := fsstore.NewRPC(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := fsstore.New(emu.Client(t), fsstore.WithRPC(rc), fsstore.WithCloseClient())
	defer st.Close()
	for _, id := range []string{"a0", "a1", "a1"} {
		if _, err := st.Apply(ctx, store.Request{GameID: "hot", ActionID: id, Actor: "u"}, bump); err != nil {
			t.Fatal(err)
		}
	}
	if n := st.Stats().PlainReplays; n != 1 {
		t.Fatalf("%d replays answered from the record, want 1", n)
	}
	mustVersion(t, st, 2)
}
