package reducers_test

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// numberPaths lists the paths of every number in a decoded JSON value.
func numberPaths(v any, path string, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			numberPaths(x[k], path+"/"+k, out)
		}
	case []any:
		for i, e := range x {
			numberPaths(e, fmt.Sprintf("%s/%d", path, i), out)
		}
	case float64:
		*out = append(*out, path)
	}
}

// setNumber sets the number at path (as numberPaths spells it) to n.
func setNumber(v any, path []string, n float64) any {
	if len(path) == 0 {
		return n
	}
	switch x := v.(type) {
	case map[string]any:
		x[path[0]] = setNumber(x[path[0]], path[1:], n)
	case []any:
		var i int
		fmt.Sscan(path[0], &i)
		x[i] = setNumber(x[i], path[1:], n)
	}
	return v
}

func splitPath(p string) []string { return strings.Split(p[1:], "/") }

// Designers change numbers. Every number of the default ruleset set to
// each of a few values either is refused by LoadRules with a message, or
// gives a ruleset whose bot games run to their end with consistent states.
func TestEveryRulesetNumberIsSafe(t *testing.T) {
	var paths []string
	var base any
	if err := json.Unmarshal(engine.DefaultRulesJSON(), &base); err != nil {
		t.Fatal(err)
	}
	numberPaths(base, "", &paths)
	if len(paths) < 50 {
		t.Fatalf("only %d numbers found in the default ruleset", len(paths))
	}
	loaded, refused := 0, 0
	for _, p := range paths {
		for _, n := range []float64{0, 1, 2, -1, 7, 100} {
			var doc any
			_ = json.Unmarshal(engine.DefaultRulesJSON(), &doc)
			b, _ := json.Marshal(setNumber(doc, splitPath(p), n))
			rules, err := engine.LoadRules(b)
			if err != nil {
				refused++
				if err.Error() == "" {
					t.Errorf("%s=%v refused without a message", p, n)
				}
				continue
			}
			loaded++
			playTwo(t, rules, fmt.Sprintf("%s=%v", p, n))
		}
	}
	t.Logf("%d numbers × 6 values: %d rulesets loaded and played, %d refused", len(paths), loaded, refused)
}

func playTwo(t *testing.T, rules *engine.Ruleset, what string) {
	t.Helper()
	r := bot.NewRunner(engine.New(rules, reducers.Table()))
	r.MaxActions = 50000
	n := max(rules.MinPlayers, min(rules.MaxPlayers, 4))
	seats := make([]bot.Seat, n)
	for i := range seats {
		seats[i] = bot.Seat{Class: engine.Classes[i%4], Policy: policy.Aggressive{}}
		if i%2 == 1 {
			seats[i].Policy = policy.Cautious{}
		}
	}
	for _, seed := range []string{"n1", "n2"} {
		g, _, err := r.Play(seed, seats, nil)
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		if err := g.Check(rules); err != nil {
			t.Errorf("%s: %v", what, err)
		}
		if g.Public.Phase != engine.PhaseFinished || g.Public.Winner == "" {
			t.Errorf("%s: game ended in phase %s, winner %q", what, g.Public.Phase, g.Public.Winner)
		}
	}
}
