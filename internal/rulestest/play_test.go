package rulestest

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/internal/emulator"
)

// The play page (web/play, docs/play.md) reads, once seated, exactly two
// things, each through a listener: the game document (a get) and the log
// (a query over games/{id}/log ordered by document id, after the last
// document it has). These are those reads as the page makes them, for a
// seated player, a player of another game, and no one; and the log in its
// two layouts (a document per event, and a document per applied action
// holding {events: [...]}) both read by the same query.

// logQuery is the page's log query: games/{game}/log ordered by document
// id, starting after the document afterID ("" for the whole log).
func logQuery(game, afterID string) call {
	q := map[string]any{
		"from":    []any{map[string]any{"collectionId": "log"}},
		"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "__name__"}, "direction": "ASCENDING"}},
	}
	if afterID != "" {
		q["startAt"] = map[string]any{"before": false, "values": []any{map[string]any{
			"referenceValue": "projects/" + emulator.DefaultProjectID + "/databases/(default)/documents/games/" + game + "/log/" + afterID}}}
	}
	return call{"POST", "/games/" + game + ":runQuery", map[string]any{"structuredQuery": q}}
}

func TestPlayPageReads(t *testing.T) {
	w := setup(t)
	// g1's log holds both layouts: 0001 one event (seeded by setup), then a
	// document per action holding its events.
	db := emu.Client(t)
	if _, err := db.Doc("games/g1/log/0003").Set(t.Context(), map[string]any{"events": []any{
		map[string]any{"seq": 2, "type": "DiceRolled", "value": 3},
		map[string]any{"seq": 3, "type": "Moved", "to": 3},
	}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []rulesCase{
		{"seated player listens to the game document", "bob", call{"GET", "/games/g1", nil}, true},
		{"player of another game listens to it", "carol", call{"GET", "/games/g1", nil}, false},
		{"unauthenticated listens to a game", "", call{"GET", "/games/g1", nil}, false},
		{"seated player queries the log by id", "alice", logQuery("g1", ""), true},
		{"seated player queries the log after a document", "bob", logQuery("g1", "0001"), true},
		{"player of another game queries the log", "carol", logQuery("g1", ""), false},
		{"player seated nowhere queries the log after a document", "dave", logQuery("g1", "0001"), false},
		{"unauthenticated queries the log", "", logQuery("g1", ""), false},
		{"seated player reads an action's log document", "bob", call{"GET", "/games/g1/log/0003", nil}, true},
		{"player of another game reads an action's log document", "carol", call{"GET", "/games/g1/log/0003", nil}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, body := do(t, tc.call, w.tokens[tc.user])
			switch {
			case tc.allow && code != http.StatusOK:
				t.Fatalf("as %q: %d %s, want 200", tc.user, code, body)
			case !tc.allow && (code != http.StatusForbidden || !strings.Contains(string(body), "PERMISSION_DENIED")):
				t.Fatalf("as %q: %d %s, want 403 PERMISSION_DENIED", tc.user, code, body)
			}
		})
	}
	// The query returns both layouts in document order, and after a
	// document only what follows it.
	for _, tc := range []struct {
		after string
		want  []string
	}{{"", []string{"0001", "0003"}}, {"0001", []string{"0003"}}, {"0003", nil}} {
		code, body := do(t, logQuery("g1", tc.after), w.tokens["bob"])
		if code != http.StatusOK {
			t.Fatalf("after %q: %d %s", tc.after, code, body)
		}
		var got []string
		for _, n := range queryNames(t, body) {
			got = append(got, n[strings.LastIndexByte(n, '/')+1:])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("log after %q = %v, want %v", tc.after, got, tc.want)
		}
		if tc.after == "" && !strings.Contains(string(body), `"Moved"`) {
			t.Errorf("the action's document came back without its events: %s", body)
		}
	}
}
