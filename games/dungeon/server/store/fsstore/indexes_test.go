package fsstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// indexFile is firestore.indexes.json, as the Firebase CLI deploys it.
type indexFile struct {
	Indexes        []json.RawMessage `json:"indexes"`
	FieldOverrides []struct {
		CollectionGroup string            `json:"collectionGroup"`
		FieldPath       string            `json:"fieldPath"`
		Indexes         []json.RawMessage `json:"indexes"`
	} `json:"fieldOverrides"`
}

// TestIndexExemptions: every field the store writes that nothing queries
// is exempt from Firestore's automatic indexes in firestore.indexes.json
// (index entries are billed and stored): each top-level field of every
// private state, record, applied action (runs included), log document
// (both layouts), old audit slot, reveal marker and staged reveal that
// games of each layout wrote (a trustless game among them, stopped with a
// round open and a reveal staged), and the game document's nested maps
// and arrays; the two fields that are queried keep their index: the
// game's playerUids (clients, array-contains) and dueAt (the sweep,
// store.Store.Due). A field added to a document and not exempted fails
// this test.
func TestIndexExemptions(t *testing.T) {
	b, err := os.ReadFile("../../../../../firestore.indexes.json")
	if err != nil {
		t.Fatal(err)
	}
	var f indexFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("firestore.indexes.json: %v", err)
	}
	exempt := map[string]map[string]bool{}
	for _, o := range f.FieldOverrides {
		if len(o.Indexes) != 0 {
			t.Errorf("override %s.%s keeps indexes; every override here is an exemption", o.CollectionGroup, o.FieldPath)
		}
		if exempt[o.CollectionGroup] == nil {
			exempt[o.CollectionGroup] = map[string]bool{}
		}
		if exempt[o.CollectionGroup][o.FieldPath] {
			t.Errorf("override %s.%s twice", o.CollectionGroup, o.FieldPath)
		}
		exempt[o.CollectionGroup][o.FieldPath] = true
	}
	if len(f.FieldOverrides) > 200 {
		t.Errorf("%d overrides; Firestore allows 200 single-field exemptions", len(f.FieldOverrides))
	}

	prev := newStore(t, fsstore.WithPreviousLayout())
	defer prev.Close()
	cur := storeOnEmulator(t)
	defer cur.Close()
	ctx := context.Background()
	for _, g := range []struct {
		id string
		st *fsstore.Store
	}{{"idx-prev", prev}, {"idx-cur", cur}} {
		playWhole(t, newSvc(g.st), g.st, newBotGame(g.id, 2, true))
	}
	tl := trustlesstest.New(t, newSvc(cur), "idx-tl", []string{"p1", "p2", "p3"}, 0)
	tl.Start(t)
	tl.Play(t, func(p *engine.Public) bool { return p.Version >= 30 && p.Trustless.Pending != nil })
	if _, err := tl.Reveal(t, 1); err != nil {
		t.Fatal(err)
	}
	c := cur.Client()
	colls := []string{"private", "actions", "applied", "log", "rngAudit", "reveals", "links"}
	seen := map[string]map[string]bool{}
	for _, id := range []string{"idx-prev", "idx-cur", "idx-tl"} {
		for _, coll := range colls {
			snaps, err := c.Collection("games/" + id + "/" + coll).Documents(ctx).GetAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range snaps {
				for k := range s.Data() {
					if seen[coll] == nil {
						seen[coll] = map[string]bool{}
					}
					seen[coll][k] = true
				}
			}
		}
	}
	for _, coll := range colls {
		if len(seen[coll]) == 0 {
			t.Errorf("the games wrote no %s document", coll)
		}
		for k := range seen[coll] {
			if !exempt[coll][k] {
				t.Errorf("%s.%s is written, never queried, and not exempt from indexing", coll, k)
			}
		}
	}
	for _, id := range []string{"idx-cur", "idx-tl"} {
		game, err := c.Doc("games/" + id).Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range game.Data() {
			switch v.(type) {
			case []any, map[string]any:
				if k != "playerUids" && !exempt["games"][k] {
					t.Errorf("games.%s (a map or an array) is not exempt from indexing", k)
				}
			}
		}
		if _, ok := game.Data()["dueAt"]; ok != (id == "idx-tl") {
			t.Errorf("games/%s has dueAt %v; want it only on the game with a round open", id, ok)
		}
	}
	if exempt["games"]["playerUids"] {
		t.Error("games.playerUids is queried by clients (array-contains) and must keep its index")
	}
	if exempt["games"]["dueAt"] {
		t.Error("games.dueAt is queried by the sweep (store.Store.Due) and must keep its index")
	}
	if due, err := cur.Due(ctx, 1<<62, 0); err != nil || len(due) != 1 || due[0] != "idx-tl" {
		t.Errorf("Due = %v, %v; want the trustless game", due, err)
	}
	groups := slices.Sorted(func(yield func(string) bool) {
		for g := range exempt {
			if !yield(g) {
				return
			}
		}
	})
	// Collections other stores write, whose own index tests check their
	// exemptions.
	others := map[string]string{
		"seats": "tablestore/fstables (TestIndexExemptionsEveryGame)",
		"names": "names/fsnames (TestIndexExemptions)",
		"users": "names/fsnames (TestIndexExemptions)",
		"lobby": "lobby/fslobby (TestIndexExemptionsLobby)",
	}
	for _, g := range groups {
		if g != "games" && seen[g] == nil && others[g] == "" {
			t.Errorf("overrides for %s, a collection no store writes", g)
		}
	}
}
