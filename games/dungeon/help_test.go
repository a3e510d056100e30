package dungeon_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

func helpText(h game.Help) string {
	var b strings.Builder
	b.WriteString(h.Summary + "\n")
	for _, s := range h.Sections {
		b.WriteString(s.Title + ": " + s.Intro + "\n")
		for _, it := range s.Items {
			b.WriteString(it.Name + ": " + it.Text + "\n")
		}
	}
	return b.String()
}

// The help says GAME_RULES.md's numbers under the default ruleset (the
// expected phrases written here from GAME_RULES.md), names every class,
// treasure and chance card, and follows a designer's ruleset.
func TestHelpFollowsTheRuleset(t *testing.T) {
	h := dungeon.Def.(game.Helper).Help(dungeon.Def.DefaultRuleset())
	text := helpText(h)
	for _, want := range []string{
		"tiles for 2 to 6 players", "reach tile 35", "Roll a d4", "sleep and heal 3", "You may carry 4 items",
		"Warrior: +1 attack", "rolls a d6: 5 or more cancels the duel. Heals 4 when sleeping", "Scout: +1 to every movement roll",
		"Dagger: Tier 1: +1 attack.", "Relic: Tier 3: +2 attack, +2 defense.", "Elixir: Tier 3: heals you to full.", "Potion: Tier 1: heals 3.",
		"Boots: Tier 1: +1 to every movement roll.", "Healing Spring: You heal 4.", "loses 2 HP", "After 30 rounds you retreat 1 tile",
		"with 5 HP", "Up to 3 rounds", "After 40 rounds it ends anyway",
	} {
		require.Contains(t, text, want)
	}
	require.Len(t, h.Sections[1].Items, len(engine.Classes), "one item per class")
	for _, c := range engine.DefaultRules().Cards() {
		if c.Kind != engine.CardEnemy {
			require.Contains(t, text, c.Name, "card %s", c.ID)
		}
	}
	// A designer's ruleset: the numbers follow it.
	var m map[string]any
	require.NoError(t, json.Unmarshal(engine.DefaultRulesJSON(), &m))
	m["sleepHeal"] = 5.0
	m["roundLimit"] = 25.0
	b, err := json.Marshal(m)
	require.NoError(t, err)
	r, err := dungeon.Def.DecodeRuleset(b)
	require.NoError(t, err)
	text = helpText(dungeon.Def.(game.Helper).Help(r))
	require.Contains(t, text, "sleep and heal 5")
	require.Contains(t, text, "After 25 rounds it ends anyway")
}
