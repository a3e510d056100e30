// Package bottest has the helpers tests share that play the dungeon's
// bots for another package: a whole trustless game of bots, exported
// (fairboard-export/v1), for the tests of exports, of gamectl verify and
// of the verifier page. Tests alone import it.
package bottest

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

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
