package rulestest

import (
	"fmt"
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

// check sends the case's request as its user: 200, or 403
// PERMISSION_DENIED.
func (tc rulesCase) check(t *testing.T, w world) {
	t.Helper()
	code, body := do(t, tc.call, w.tokens[tc.user])
	switch {
	case tc.allow && code != http.StatusOK:
		t.Fatalf("as %q: %d %s, want 200", tc.user, code, body)
	case !tc.allow && (code != http.StatusForbidden || !strings.Contains(string(body), "PERMISSION_DENIED")):
		t.Fatalf("as %q: %d %s, want 403 PERMISSION_DENIED", tc.user, code, body)
	}
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
			t.Run(g+": "+tc.name, func(t *testing.T) { tc.check(t, w) })
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

// In a trustless game the page also listens, once seated, to the open
// round's reveal markers: games/{id}/reveals ordered by id from
// "{index:020}-" to before "{index:020}." (web/play/src/backend.ts). The
// chain heads, keys and the pending record it shows are fields of the game
// document (the read cases' get); the links are in the log. These are the
// marker query's cases: the seated players' (allowed, and exactly the
// round's markers), nobody else's.
func roundQuery(game string, index int) call {
	q := collQuery("reveals")
	ref := func(suffix string) map[string]any {
		return map[string]any{"referenceValue": "projects/" + emulator.DefaultProjectID + "/databases/(default)/documents/games/" + game +
			"/reveals/" + fmt.Sprintf("%020d", index) + suffix}
	}
	sq := q["structuredQuery"].(map[string]any)
	sq["startAt"] = map[string]any{"before": true, "values": []any{ref("-")}}
	sq["endAt"] = map[string]any{"before": true, "values": []any{ref(".")}}
	return call{"POST", "/games/" + game + ":runQuery", q}
}

func TestPlayPageRoundMarkersQuery(t *testing.T) {
	w := setup(t)
	for _, tc := range []rulesCase{
		{"seated player's query of the round's markers", "bob", roundQuery("g4", 1), true},
		{"owner's query of the round's markers", "alice", roundQuery("g4", 1), true},
		{"another game's player's query of the round's markers", "carol", roundQuery("g4", 1), false},
		{"query of the round's markers by a player seated nowhere", "dave", roundQuery("g4", 1), false},
		{"unauthenticated query of the round's markers", "", roundQuery("g4", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, w) })
	}
	// Round 1 holds alice's marker (seat 0); round 2 none yet.
	for idx, want := range map[int][]string{1: {fmt.Sprintf("%020d-000", 1)}, 2: nil} {
		code, body := do(t, roundQuery("g4", idx), w.tokens["bob"])
		if code != http.StatusOK {
			t.Fatalf("round %d: %d %s", idx, code, body)
		}
		got := queryNames(t, body)
		if len(got) != len(want) {
			t.Fatalf("round %d: %v, want %v", idx, got, want)
		}
		for i := range want {
			if !strings.HasSuffix(got[i], "/"+want[i]) {
				t.Fatalf("round %d: %v, want %v", idx, got, want)
			}
		}
	}
}
