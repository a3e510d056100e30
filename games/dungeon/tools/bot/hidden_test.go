package bot_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// Whole bot games in every mode: after every action, nothing public (the
// events the action emitted, the Public state) names a card that is still
// in a draw pile, once that pile's latest shuffle has happened; and no seed,
// contribution, salt or generator state appears before the game's end.
// The positive control, once per game: the same scan finds a pile card
// planted in a copy of Public.
func TestNothingPublicTellsAnUndrawnCard(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeCrypto, rng.ModeFair} {
		for game := range 12 {
			t.Run(fmt.Sprintf("%s/%d", mode, game), func(t *testing.T) {
				r := bot.NewRunner(eng)
				cfg := bot.Config{Create: engine.Action{GameID: "hidden", Mode: string(mode)}}
				switch mode {
				case rng.ModeSeeded:
					cfg.Create.Seed = fmt.Sprint("hidden-", game)
				default:
					seed, err := fair.NewServerSeed()
					require.NoError(t, err)
					cfg.Create.ServerSeed = seed
					if mode == rng.ModeFair {
						cfg.Entropy = []string{"", "0badc0de", fmt.Sprintf("%02x", game)}
					}
				}
				actions, shuffles, draws := 0, 0, 0
				planted := false
				cfg.After = func(g *engine.Game, events []engine.Event) error {
					actions++
					shuffles, draws = shuffles+checkHidden(t, g, events, cfg, &planted), draws+countDraws(events)
					return nil
				}
				seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassMonk, Policy: policy.Aggressive{}},
					{Class: engine.ClassDuelist, Policy: policy.Aggressive{}}, {Class: engine.ClassScout, Policy: policy.Cautious{}}}
				var g engine.Game
				require.NoError(t, r.PlayWith(&g, cfg, seats))
				require.Equal(t, engine.PhaseFinished, g.Public.Phase)
				require.GreaterOrEqual(t, shuffles, engine.NumDecks)
				require.Positive(t, draws)
				require.True(t, planted, "the scan's positive control did not run")
				t.Logf("%d actions, %d shuffles, %d draws checked", actions, shuffles, draws)
			})
		}
	}
}

// namesPileCard returns an error naming a card still in a draw pile that
// Public (pub, its JSON) or an event (js) since its deck's last shuffle
// among them names.
func namesPileCard(g *engine.Game, pub []byte, js []string, lastShuffle map[string]int) error {
	for _, d := range g.Secret.Decks {
		from := lastShuffle[d.ID] // 0 when the deck was not shuffled now: every event counts
		for _, id := range d.Cards {
			q := `"` + id + `"`
			if strings.Contains(string(pub), q) {
				return fmt.Errorf("Public names %s, still in the %s pile", id, d.ID)
			}
			for i := from; i < len(js); i++ {
				if strings.Contains(js[i], q) {
					return fmt.Errorf("event %s names %s, still in the %s pile", js[i], id, d.ID)
				}
			}
		}
	}
	return nil
}

// countDraws counts the events that show a card drawn from a pile.
func countDraws(events []engine.Event) int {
	n := 0
	for _, e := range events {
		if e.Type == engine.EvCardDrawn || e.Type == engine.EvEnemySpawned {
			n++
		}
	}
	return n
}

// checkHidden checks one action's events and the state after it, and
// returns the number of shuffles it emitted. At the game's first shuffle
// (planted false, then set) it runs the scan's positive control too.
func checkHidden(t *testing.T, g *engine.Game, events []engine.Event, cfg bot.Config, planted *bool) int {
	t.Helper()
	pub, err := json.Marshal(g.Public)
	require.NoError(t, err)
	ended := g.Public.Phase == engine.PhaseFinished
	// The last shuffle of each deck among these events, by index.
	lastShuffle := map[string]int{}
	shuffles := 0
	js := make([]string, len(events))
	for i := range events {
		js[i] = string(events[i].AppendJSON(nil))
		require.NotContains(t, js[i], "headPreview")
		if events[i].Type == engine.EvDeckShuffled {
			lastShuffle[events[i].DeckID] = i
			shuffles++
		}
	}
	if err := namesPileCard(g, pub, js, lastShuffle); err != nil {
		t.Fatal(err)
	}
	// The positive control, once per game (at its first shuffle): the
	// same scan finds a pile card planted in a copy of Public.
	if shuffles > 0 && len(g.Secret.Decks) > 0 && len(g.Secret.Decks[0].Cards) > 0 && !*planted {
		*planted = true
		leak := g.Clone()
		leak.Public.LastActionID = g.Secret.Decks[0].Cards[0]
		lp, err := json.Marshal(leak.Public)
		require.NoError(t, err)
		require.Error(t, namesPileCard(leak, lp, js, lastShuffle), "a pile card planted in Public is found")
	}
	if ended {
		return shuffles
	}
	// Before the end: no secret at all in anything public.
	secrets := []string{g.Secret.ServerSeed, g.Secret.GameSeed, g.Secret.RNGState, cfg.Create.ServerSeed}
	if g.Secret.Seed != "" {
		secrets = append(secrets, `"`+g.Secret.Seed+`"`)
	}
	for _, e := range g.Secret.Entropy {
		if len(e) >= 4 {
			secrets = append(secrets, e)
		}
	}
	for _, s := range g.Secret.Shuffles {
		secrets = append(secrets, s.Salt.String())
	}
	if !g.Secret.SaltKey.IsZero() {
		secrets = append(secrets, g.Secret.SaltKey.String())
	}
	for _, s := range secrets {
		if s == "" || s == `""` {
			continue
		}
		require.NotContains(t, string(pub), s)
		for _, j := range js {
			require.NotContains(t, j, s)
		}
	}
	require.False(t, strings.Contains(string(pub), "serverSeed") || strings.Contains(string(pub), "gameSeed"))
	return shuffles
}
