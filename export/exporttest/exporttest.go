// Package exporttest has the helpers the tests of exports share: reading
// and rewriting an export's log entries, to tamper with a copy, and
// playing a trustless game to export.
package exporttest

import (
	"encoding/json"
	"testing"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/export"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
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

// Trustless plays a whole trustless bot game of n players in process
// (bot.Runner.PlayTrustless: each seat its own chain, key and replica) and
// returns its export; stop, if not nil, ends the play early (the export of
// a game in progress).
func Trustless(t testing.TB, gameID string, n int, stop func(g *engine.Game) bool) (*export.Export, *engine.Game) {
	t.Helper()
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.Record = true
	seats := make([]bot.Seat, n)
	for i := range seats {
		seats[i] = bot.Seat{Class: engine.Classes[i%4], Policy: []policy.Policy{policy.Aggressive{}, policy.Cautious{}}[i%2]}
	}
	g := &engine.Game{}
	if _, err := r.PlayTrustless(g, bot.TrustlessConfig{GameID: gameID, Stop: stop}, seats); err != nil {
		t.Fatal(err)
	}
	x, err := export.Build(g, eng.Rules(), r.Actions(), r.Events())
	if err != nil {
		t.Fatal(err)
	}
	return x, g
}
