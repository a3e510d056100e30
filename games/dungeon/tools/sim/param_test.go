package sim

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// Paths reach numbers at every depth, by key, identifier and position;
// the expected values are read off engine/rules/default.json by hand.
func TestParamPathsReachTheRulesetsNumbers(t *testing.T) {
	js := engine.DefaultRulesJSON()
	for path, want := range map[string]float64{
		"startHp":             10,
		"classes.scoutMove":   1,
		"dice.move":           4,
		"board.zones[2].from": 12,
		"decks[treasure.t1].cards[t1-dagger].atk":   1,
		"decks[treasure.t2].cards[t2-gpotion].heal": 6,
		"composition[2].options[2xT1].weight":       70,
		"composition[3].options[1xT3].enemies[#0]":  3,
		"loot[1].outcomes[none].weight":             50,
		"decks[#0].cards[#2].count":                 3,
	} {
		got, err := ParamValue(js, path)
		require.NoError(t, err, path)
		require.Equal(t, want, got, path)
	}
}

// Every path that leads nowhere, or to something that is not a number, is
// an error naming the path and what is there instead.
func TestParamPathErrorsNameTheProblem(t *testing.T) {
	js := engine.DefaultRulesJSON()
	for path, want := range map[string]string{
		"classes.scoutMov":               `no key "scoutMov" in classes`,
		"startHP":                        `no key "startHP" in the ruleset`,
		"board":                          "names an object, not a number",
		"name":                           `names "reference-v1", not a number`,
		"decks[treasure.t9].cards[x].hp": `no element "treasure.t9" in decks`,
		"decks[#99]":                     "has elements #0..#6, not #99",
		"startHp.x":                      "startHp is not an object",
		"classes[#0]":                    "classes is not an array",
		"":                               "empty path",
		"dice..move":                     "an empty key",
		"decks[":                         "unclosed",
		"decks[#0]x":                     "want . or [ after ]",
	} {
		_, err := ParamValue(js, path)
		require.ErrorContains(t, err, want, "path %q", path)
	}
}

// Setting a number rewrites only it: the ruleset loads, that number has
// the new value, and a value its validation refuses is an error naming
// the path, the value and the reason.
func TestWithParamsSetsOneNumber(t *testing.T) {
	js := engine.DefaultRulesJSON()
	r, err := WithParams(js, Param{"classes.scoutMove", 3}, Param{"decks[enemy.t1].cards[e1-goblin].hp", 7})
	require.NoError(t, err)
	require.Equal(t, 3, r.Classes.ScoutMove)
	require.Equal(t, 7, r.Card("e1-goblin-1").HP)
	def := engine.DefaultRules()
	require.Equal(t, def.Dice, r.Dice, "other numbers unchanged")
	require.Equal(t, def.StartHP, r.StartHP)

	_, err = WithParams(js, Param{"dice.move", 0})
	require.ErrorContains(t, err, "dice.move = 0: the ruleset refuses it")
	require.ErrorContains(t, err, "dice.move")
	_, err = WithParams(js, Param{"startHp", 2.5})
	require.ErrorContains(t, err, "startHp = 2.5")
}

// Params lists every number once, by a path that leads back to it.
func TestParamsListEveryNumberByAWorkingPath(t *testing.T) {
	js := engine.DefaultRulesJSON()
	ps, err := Params(js)
	require.NoError(t, err)
	require.Greater(t, len(ps), 100)
	seen := map[string]bool{}
	for _, p := range ps {
		require.False(t, seen[p.Path], "listed twice: %s", p.Path)
		seen[p.Path] = true
		v, err := ParamValue(js, p.Path)
		require.NoError(t, err, p.Path)
		require.Equal(t, p.Value, v, p.Path)
	}
	for _, p := range []string{"startHp", "classes.scoutMove", "decks[enemy.t1].cards[e1-goblin].hp"} {
		require.True(t, seen[p], p)
	}
}
