package fsstore_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// gameDocs reads every document of game id (the game, its private state,
// and each document of its collections) with the library, by path
// relative to the game.
func gameDocs(t *testing.T, c *firestore.Client, id string) map[string]map[string]any {
	t.Helper()
	ctx := context.Background()
	g := c.Collection("games").Doc(id)
	out := map[string]map[string]any{}
	snap, err := g.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out[""] = snap.Data()
	for _, coll := range []string{"private", "log", "actions", "applied", "reveals", "links", "rngAudit"} {
		for _, s := range mustDocs(t, g.Collection(coll).Query) {
			out[coll+"/"+s.Ref.ID] = s.Data()
		}
	}
	return out
}

// docsDiffer says how two games' documents differ (nil: none), each
// value compared with its type (reflect.DeepEqual: int64 is not float64,
// nil is not an empty array).
func docsDiffer(a, b map[string]map[string]any) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(a)) {
		d, ok := b[p]
		switch {
		case !ok:
			out = append(out, p+": missing")
		case !reflect.DeepEqual(a[p], d):
			out = append(out, fmt.Sprintf("%s: %v, then %v", p, a[p], d))
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p+": only in the second")
		}
	}
	return out
}

// TestRawCommitIsTheLibrarysCommit: a store whose commit builds its
// writes' protobuf itself (WithRPC, the deployed store's) writes the
// same documents as one committing through the library's WriteBatch
// (WithLibraryCommit, the library's reflection an independent
// conversion): the same seeded 3-player game with audit on, played whole
// on each (the emulator reset between them), leaves every document equal
// with its types (the game, the private state with its ring, each log,
// applied and record document), and the game and private state equal
// after every action. Positive control: the comparison sees an integer
// turned into a double.
func TestRawCommitIsTheLibrarysCommit(t *testing.T) {
	ctx := context.Background()
	play := func(st *fsstore.Store) (steps []map[string]map[string]any, end map[string]map[string]any) {
		b := newBotGame("commit", 3, true)
		svc := newSvc(st)
		var p engine.Public
		for {
			a, ok := b.next(&p)
			if !ok {
				break
			}
			if _, err := svc.Do(ctx, b.id, a); err != nil {
				t.Fatalf("%s: %v", a.Kind, err)
			}
			got, err := st.Game(ctx, b.id)
			if err != nil {
				t.Fatal(err)
			}
			p = *got
			g := st.Client().Collection("games").Doc(b.id)
			snaps, err := st.Client().GetAll(ctx, []*firestore.DocumentRef{g, g.Collection("private").Doc("state")})
			if err != nil {
				t.Fatal(err)
			}
			steps = append(steps, map[string]map[string]any{"": snaps[0].Data(), "private/state": snaps[1].Data()})
		}
		return steps, gameDocs(t, st.Client(), b.id)
	}
	libSteps, libEnd := play(newStore(t, fsstore.WithLibraryCommit()))
	rawSteps, rawEnd := play(newStore(t))
	if len(libSteps) != len(rawSteps) {
		t.Fatalf("%d actions through the library's commit, %d through the raw one", len(libSteps), len(rawSteps))
	}
	for i := range libSteps {
		if d := docsDiffer(libSteps[i], rawSteps[i]); d != nil {
			t.Fatalf("after action %d:\n%v", i, d)
		}
	}
	if d := docsDiffer(libEnd, rawEnd); d != nil {
		t.Fatalf("the finished game:\n%v", d)
	}
	ring, _ := rawEnd["private/state"]["auditRing"].(map[string]any)
	if len(rawEnd) < 100 || len(ring) == 0 {
		t.Fatalf("%d documents, a ring of %d entries: the game was too short to compare", len(rawEnd), len(ring))
	}
	// The positive control.
	bent := maps.Clone(rawEnd)
	bent[""] = maps.Clone(bent[""])
	bent[""]["version"] = float64(bent[""]["version"].(int64))
	if docsDiffer(libEnd, bent) == nil {
		t.Fatal("a version stored as a double compared equal")
	}
}
