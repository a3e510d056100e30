// Package exporttest has the helpers the tests of exports share: reading
// and rewriting an export's log entries, to tamper with a copy (a
// trustless game of the dungeon's bots to export is bottest.Trustless,
// games/dungeon/tools/bot/bottest).
package exporttest

import (
	"encoding/json"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
)

// Event decodes log entry i of x, failing the test if it does not decode.
func Event(t testing.TB, x *export.Export, i int) engine.Event {
	t.Helper()
	var e engine.Event
	if err := json.Unmarshal(x.Log[i], &e); err != nil {
		t.Fatalf("log entry %d: %v", i, err)
	}
	return e
}

// SetEvent writes e as log entry i of x, encoded as the engine encodes it.
func SetEvent(x *export.Export, i int, e engine.Event) { x.Log[i] = e.AppendJSON(nil) }

// Find returns the index of the first log event of the type, failing the
// test if there is none.
func Find(t testing.TB, x *export.Export, typ engine.EventType) int {
	t.Helper()
	for i := range x.Log {
		if Event(t, x, i).Type == typ {
			return i
		}
	}
	t.Fatalf("no %s in the log", typ)
	return -1
}
