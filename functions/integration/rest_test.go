package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// What a player reads of Firestore directly, over its REST API with their
// ID token, as the security rules allow it (the Firebase client SDKs do
// the same over gRPC/WebChannel).

// restGet reads a document (path under .../documents) as the token's user
// and returns its JSON; anything but 200 fails the test.
func restGet(t testing.TB, path, tok string) []byte {
	t.Helper()
	code, body := restDo(t, http.MethodGet, path, tok, nil)
	if code != http.StatusOK {
		t.Fatalf("GET %s as a player: HTTP %d %s", path, code, body)
	}
	return body
}

func restDo(t testing.TB, method, path, tok string, body any) (int, []byte) {
	t.Helper()
	code, out, err := emu.Firestore().REST(context.Background(), method, path, tok, body)
	if err != nil {
		t.Fatal(err)
	}
	return code, out
}

// restDoc is one log event read over REST: its seq and its JSON as the
// player received it (a document of its own in the old layout, an element
// of a per-action document's events array in the current one, given here
// as {"fields": ...} either way).
type restDoc struct {
	seq uint64
	raw []byte
}

// restLogAfter reads the game's log events after seq, in order, with a
// query of the log documents ordered by id as the token's user, as a
// client's listener does (at most 300 documents a call; call again for
// more). It reads both layouts: a document holding an action's events,
// whose events at or before after it drops, and a document of one event.
func restLogAfter(t testing.TB, gameID string, after uint64, tok string) []restDoc {
	t.Helper()
	prefix := fmt.Sprintf("projects/%s/databases/(default)/documents/games/%s/log/", emu.ProjectID(), gameID)
	q := map[string]any{"structuredQuery": map[string]any{
		"from":    []any{map[string]any{"collectionId": "log"}},
		"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "__name__"}, "direction": "ASCENDING"}},
		"startAt": map[string]any{"values": []any{map[string]any{"referenceValue": prefix + fmt.Sprintf("%020d", after)}}, "before": false},
		"limit":   300,
	}}
	code, body := restDo(t, http.MethodPost, "/games/"+gameID+":runQuery", tok, q)
	if code != http.StatusOK {
		t.Fatalf("a player's query of the log after %d: HTTP %d %s", after, code, body)
	}
	var rows []struct {
		Document json.RawMessage `json:"document"`
	}
	if err := json.Unmarshal(body, &rows); err != nil {
		t.Fatalf("runQuery answer %s: %v", body, err)
	}
	var out []restDoc
	for _, r := range rows {
		if r.Document == nil {
			continue
		}
		var d struct {
			Name   string
			Fields struct {
				Events *struct {
					ArrayValue struct {
						Values []struct {
							MapValue json.RawMessage `json:"mapValue"`
						} `json:"values"`
					} `json:"arrayValue"`
				} `json:"events"`
			} `json:"fields"`
		}
		if err := json.Unmarshal(r.Document, &d); err != nil {
			t.Fatal(err)
		}
		last, err := strconv.ParseUint(strings.TrimPrefix(d.Name, prefix), 10, 64)
		if err != nil || !strings.HasPrefix(d.Name, prefix) {
			t.Fatalf("log document %q", d.Name)
		}
		evs := []json.RawMessage{r.Document}
		if d.Fields.Events != nil {
			evs = evs[:0]
			for _, v := range d.Fields.Events.ArrayValue.Values {
				evs = append(evs, v.MapValue)
			}
		}
		for _, raw := range evs {
			seq, err := strconv.ParseUint(restField(t, raw, "seq"), 10, 64)
			if err != nil {
				t.Fatalf("log document %s: an event without a seq: %s", d.Name, raw)
			}
			if seq > after {
				out = append(out, restDoc{seq: seq, raw: raw})
			}
		}
		if len(evs) > 0 && out != nil && out[len(out)-1].seq != last {
			t.Fatalf("log document %s: its last event has seq %d", d.Name, out[len(out)-1].seq)
		}
	}
	return out
}

// restField returns a string field of a REST document, by path through
// map fields ("fairness", "serverSeedHex"); "" if absent.
func restField(t testing.TB, doc []byte, path ...string) string {
	t.Helper()
	var d struct {
		Fields map[string]json.RawMessage `json:"fields"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatalf("REST document %s: %v", doc, err)
	}
	fields := d.Fields
	for i, name := range path {
		var v struct {
			StringValue  *string `json:"stringValue"`
			IntegerValue *string `json:"integerValue"`
			BoolValue    *bool   `json:"booleanValue"`
			MapValue     struct {
				Fields map[string]json.RawMessage `json:"fields"`
			} `json:"mapValue"`
		}
		raw, ok := fields[name]
		if !ok {
			return ""
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if i == len(path)-1 {
			switch {
			case v.StringValue != nil:
				return *v.StringValue
			case v.IntegerValue != nil:
				return *v.IntegerValue
			case v.BoolValue != nil:
				return strconv.FormatBool(*v.BoolValue)
			}
			return string(raw)
		}
		fields = v.MapValue.Fields
	}
	return ""
}

// stringsIn collects every string value of a JSON document (not the keys).
func stringsIn(t testing.TB, raw []byte, into func(s string)) {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			into(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}
