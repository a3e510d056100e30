package rulestest

import (
	"net/http"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/internal/emulator"
)

// The play page (web/play, docs/play.md) reads, once seated, two things
// through listeners: the game document (a get, covered by the read cases)
// and the log, as the listener query that TestSeatedListenerReadsWholeLog
// checks, or, after a reload or a reconnect, the same query starting after
// the last log document the page holds. These are that query's cases, in
// both layouts (g1: a document per action; g3: a document per event).

// logQueryAfter is the page's log query starting after the log document
// afterID of game.
func logQueryAfter(game, afterID string) call {
	q := logQuery()
	q["structuredQuery"].(map[string]any)["startAt"] = map[string]any{"before": false, "values": []any{map[string]any{
		"referenceValue": "projects/" + emulator.DefaultProjectID + "/databases/(default)/documents/games/" + game + "/log/" + afterID}}}
	return call{"POST", "/games/" + game + ":runQuery", q}
}

func TestPlayPageLogQueryAfter(t *testing.T) {
	w := setup(t)
	db := emu.Client(t)
	for _, g := range []string{"g1", "g3"} {
		refs, err := db.Collection("games/"+g+"/log").OrderBy(firestore.DocumentID, firestore.Asc).Documents(t.Context()).GetAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(refs) < 3 {
			t.Fatalf("%s has %d log documents; the test needs 3", g, len(refs))
		}
		first := refs[0].Ref.ID
		for _, tc := range []rulesCase{
			{"seated player's query after a document", "bob", logQueryAfter(g, first), true},
			{"owner's query after a document", "alice", logQueryAfter(g, first), true},
			{"another game's player's query after a document", "carol", logQueryAfter(g, first), false},
			{"query after a document by a player seated nowhere", "dave", logQueryAfter(g, first), false},
			{"unauthenticated query after a document", "", logQueryAfter(g, first), false},
		} {
			t.Run(g+": "+tc.name, func(t *testing.T) {
				code, body := do(t, tc.call, w.tokens[tc.user])
				switch {
				case tc.allow && code != http.StatusOK:
					t.Fatalf("as %q: %d %s, want 200", tc.user, code, body)
				case !tc.allow && (code != http.StatusForbidden || !strings.Contains(string(body), "PERMISSION_DENIED")):
					t.Fatalf("as %q: %d %s, want 403 PERMISSION_DENIED", tc.user, code, body)
				}
			})
		}
		// After a document: exactly the documents that follow it, in order;
		// after the last: nothing.
		for _, after := range []int{0, len(refs) - 2, len(refs) - 1} {
			code, body := do(t, logQueryAfter(g, refs[after].Ref.ID), w.tokens["bob"])
			if code != http.StatusOK {
				t.Fatalf("%s after %s: %d %s", g, refs[after].Ref.ID, code, body)
			}
			got := queryNames(t, body)
			want := refs[after+1:]
			if len(got) != len(want) {
				t.Fatalf("%s after document %d: %d documents, want %d", g, after, len(got), len(want))
			}
			for i, r := range want {
				if !strings.HasSuffix(got[i], "/"+r.Ref.ID) {
					t.Fatalf("%s after document %d: %s at %d, want %s", g, after, got[i], i, r.Ref.ID)
				}
			}
		}
	}
}
