package rulestest

import (
	"encoding/json"
	"testing"
)

// call is one end-user REST request to the Firestore emulator.
type call struct {
	method string
	path   string // after ".../documents", e.g. "/games/g1" or ":runQuery"
	body   any    // marshalled as JSON when not nil
}

// do sends c with the given ID token ("" sends no Authorization header) and
// returns the HTTP status and the body.
func do(t *testing.T, c call, idToken string) (int, []byte) {
	t.Helper()
	code, out, err := emu.Firestore().REST(t.Context(), c.method, c.path, idToken, c.body)
	if err != nil {
		t.Fatal(err)
	}
	return code, out
}

// fields builds a REST document body with string fields.
func fields(kv ...string) map[string]any {
	f := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		f[kv[i]] = map[string]any{"stringValue": kv[i+1]}
	}
	return map[string]any{"fields": f}
}

// query is a runQuery body over the collection (or, with
// allDescendants, every collection of that id) filtered by
// field array-contains value; an empty field means no filter.
func query(collection string, allDescendants bool, field, value string) map[string]any {
	q := map[string]any{"from": []any{map[string]any{"collectionId": collection, "allDescendants": allDescendants}}}
	if field != "" {
		q["where"] = map[string]any{"fieldFilter": map[string]any{
			"field": map[string]any{"fieldPath": field},
			"op":    "ARRAY_CONTAINS",
			"value": map[string]any{"stringValue": value},
		}}
	}
	return map[string]any{"structuredQuery": q}
}

// queryNames returns the document names a runQuery answer holds.
func queryNames(t *testing.T, body []byte) []string {
	t.Helper()
	var rows []struct {
		Document *struct {
			Name string `json:"name"`
		} `json:"document"`
	}
	if err := json.Unmarshal(body, &rows); err != nil {
		t.Fatalf("runQuery answer %s: %v", body, err)
	}
	var names []string
	for _, r := range rows {
		if r.Document != nil {
			names = append(names, r.Document.Name)
		}
	}
	return names
}

// logQuery is the runQuery body of a listener on a game's log: the log
// collection under the game (the request's parent), ordered by document
// id, as the client SDKs' onSnapshot of that query sends it.
// collQuery is a listener's query of a collection under the game, ordered
// by id.
func collQuery(coll string) map[string]any {
	return map[string]any{"structuredQuery": map[string]any{
		"from":    []any{map[string]any{"collectionId": coll}},
		"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "__name__"}, "direction": "ASCENDING"}},
	}}
}

func logQuery() map[string]any {
	return map[string]any{"structuredQuery": map[string]any{
		"from":    []any{map[string]any{"collectionId": "log"}},
		"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "__name__"}, "direction": "ASCENDING"}},
	}}
}
