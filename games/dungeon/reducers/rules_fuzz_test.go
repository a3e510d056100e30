package reducers_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// FuzzLoadRules: a ruleset file is a designer's input. Whatever bytes it
// holds, loading never panics, and a ruleset that loads plays whole bot
// games to their end (or a reported error) without panicking, every state
// passing Game.Check.
func FuzzLoadRules(f *testing.F) {
	def := engine.DefaultRulesJSON()
	f.Add(def)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"minPlayers":2,"maxPlayers":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rules, err := engine.LoadRules(data)
		if err != nil {
			return
		}
		r := bot.NewRunner(engine.New(rules, reducers.Table()))
		r.MaxActions = 20000
		n := min(rules.MaxPlayers, 4)
		if n < rules.MinPlayers {
			n = rules.MinPlayers
		}
		seats := make([]bot.Seat, n)
		for i := range seats {
			seats[i] = bot.Seat{Class: engine.Classes[i%4], Policy: policy.Aggressive{}}
			if i%2 == 1 {
				seats[i].Policy = policy.Cautious{}
			}
		}
		for _, seed := range []string{"fuzz-a", "fuzz-b"} {
			g, _, err := r.Play(seed, seats, nil)
			if err != nil {
				return // reported, not panicked
			}
			if err := g.Check(rules); err != nil {
				t.Fatalf("final state: %v", err)
			}
		}
	})
}
