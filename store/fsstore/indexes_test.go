package fsstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/fairboard/fairboard/store/fsstore"
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
// private state, record, applied action, log document (both layouts) and
// old audit slot that games of each layout wrote, and the game document's
// nested maps and arrays; the one field clients query, the game's
// playerUids (array-contains), keeps its index. A field added to a
// document and not exempted fails this test.
func TestIndexExemptions(t *testing.T) {
	b, err := os.ReadFile("../../firestore.indexes.json")
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
		playWhole(t, newSvc(g.st), g.st, newBotGame(g.id, 3, true))
	}
	c := cur.Client()
	seen := map[string]map[string]bool{}
	for _, id := range []string{"idx-prev", "idx-cur"} {
		for _, coll := range []string{"private", "actions", "applied", "log", "rngAudit"} {
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
	for _, coll := range []string{"private", "actions", "applied", "log", "rngAudit"} {
		if len(seen[coll]) == 0 {
			t.Errorf("the games wrote no %s document", coll)
		}
		for k := range seen[coll] {
			if !exempt[coll][k] {
				t.Errorf("%s.%s is written, never queried, and not exempt from indexing", coll, k)
			}
		}
	}
	game, err := c.Doc("games/idx-cur").Get(ctx)
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
	if exempt["games"]["playerUids"] {
		t.Error("games.playerUids is queried by clients (array-contains) and must keep its index")
	}
	groups := slices.Sorted(func(yield func(string) bool) {
		for g := range exempt {
			if !yield(g) {
				return
			}
		}
	})
	for _, g := range groups {
		if g != "games" && seen[g] == nil {
			t.Errorf("overrides for %s, a collection the store does not write", g)
		}
	}
}
