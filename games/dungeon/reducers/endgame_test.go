package reducers_test

import (
	"encoding/json"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// finishOutcomes plays seeded bot games and counts GameFinished outcomes.
func finishOutcomes(t *testing.T, rules *engine.Ruleset, games int) map[string]int {
	t.Helper()
	r := bot.NewRunner(engine.New(rules, reducers.Table()))
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassScout, Policy: policy.Aggressive{}},
		{Class: engine.ClassMonk, Policy: policy.Cautious{}}, {Class: engine.ClassDuelist, Policy: policy.Aggressive{}}}
	out := map[string]int{}
	for i := 0; i < games; i++ {
		g, log, err := r.Play("end-"+string(rune('a'+i%26))+string(rune('a'+i/26)), seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		if end := log[len(log)-1]; end.Type != engine.EvFairnessRevealed {
			t.Fatalf("the log ends with %v, not FairnessRevealed", end.Type)
		}
		last := log[len(log)-2]
		if last.Type != engine.EvGameFinished {
			t.Fatalf("the log's last event but one is %v, not GameFinished", last.Type)
		}
		onFinal := false
		for _, p := range g.Public.Players {
			onFinal = onFinal || p.Pos == rules.FinalTile()
		}
		switch last.Outcome {
		case reducers.EndFinalTile:
			if !onFinal {
				t.Errorf("outcome finalTile but no one is on the final tile")
			}
		case reducers.EndRoundLimit, reducers.EndLeftFinalTile:
			if onFinal {
				t.Errorf("outcome %s but a player is on the final tile", last.Outcome)
			}
		default:
			t.Errorf("unknown outcome %q", last.Outcome)
		}
		if last.Outcome == reducers.EndRoundLimit && last.Round != rules.RoundLimit {
			t.Errorf("round limit outcome in round %d of %d", last.Round, rules.RoundLimit)
		}
		out[last.Outcome]++
	}
	return out
}

func TestGameFinishedOutcomes(t *testing.T) {
	got := finishOutcomes(t, engine.DefaultRules(), 300)
	if got[reducers.EndFinalTile] == 0 || got[reducers.EndLeftFinalTile] == 0 {
		t.Errorf("default rules: want both final-tile endings among 300 games, got %v", got)
	}

	// With a round limit of 3 nobody can reach tile 35: every game ends by
	// the limit.
	var raw map[string]any
	if err := json.Unmarshal(engine.DefaultRulesJSON(), &raw); err != nil {
		t.Fatal(err)
	}
	raw["roundLimit"] = 3
	b, _ := json.Marshal(raw)
	short, err := engine.LoadRules(b)
	if err != nil {
		t.Fatal(err)
	}
	got = finishOutcomes(t, short, 40)
	if got[reducers.EndRoundLimit] != 40 {
		t.Errorf("round limit 3: want 40 round-limit endings, got %v", got)
	}
}
