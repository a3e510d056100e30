package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functions/functest"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/tablestore"
)

// Kuhn poker through the functions: after every action of whole games,
// nothing a seat reads (its getView answer, an act's answer, a refusal)
// holds the other seat's card before the showdown reveals it, nor the
// undealt card ever. The cards are known here from match on the same seed
// (an independent path). The positive control is the same search on what
// the seat may see: its own card is found in its own view, so the search
// is not blind.
func TestKuhnCardsStayPrivateOverHTTP(t *testing.T) {
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	ctx := context.Background()
	tokens := []string{"dev:u0", "dev:u1"}
	for g := range 12 {
		id := "kuhn-" + strconv.Itoa(g)
		seed := "hidden-" + id
		require.NoError(t, functest.TableLobby(ctx, c, kuhn.Def, id, seed, tokens))
		ref, err := match.New(kuhn.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2)})
		require.NoError(t, err)
		var cards [2]int
		for s := range 2 {
			var p struct{ Card int }
			require.NoError(t, json.Unmarshal(ref.State().AppendPrivate(nil, s), &p))
			cards[s] = p.Card
		}
		var sec struct{ Undealt int }
		require.NoError(t, json.Unmarshal(ref.State().AppendSecret(nil), &sec))
		card := func(v int) string { return fmt.Sprintf(`"card":%d`, v) }
		bots, _ := rng.NewSeeded(seed + "/bots")
		bot := match.NewRandom(bots)
		for n := 0; ; n++ {
			require.Less(t, n, 10)
			shown := ref.State().Outcome().Over && strings.Contains(string(ref.State().AppendPublic(nil)), "shown")
			for s, tok := range tokens {
				view := raw(t, c, "getView", tok, map[string]any{"gameId": id})
				require.Contains(t, view, card(cards[s]), "control: seat %d's own card is in its view", s)
				if !shown {
					require.NotContains(t, view, card(cards[1-s]), "game %s: seat %d reads the other seat's card", id, s)
				}
				require.NotContains(t, view, fmt.Sprintf(`"undealt":%d`, sec.Undealt), "game %s: seat %d reads the undealt card", id, s)
				// A move out of turn is refused; the refusal says nothing of a card.
				bad := raw(t, c, "act", tok, map[string]any{"gameId": id, "actionId": fmt.Sprintf("bad%d-%d", n, s), "version": 0, "move": map[string]any{"kind": "bet"}})
				require.NotContains(t, bad, `"card"`)
			}
			if ref.Over() {
				break
			}
			seat := ref.State().ToMove()
			mv := bot.Choose(nil, seat, ref.State().Legal(seat, nil))
			_, err := ref.Apply(mv)
			require.NoError(t, err)
			v, err := functest.TableView(ctx, c, id, tokens[seat])
			require.NoError(t, err)
			ans := raw(t, c, "act", tokens[seat], map[string]any{"gameId": id, "actionId": fmt.Sprintf("m%d", n), "version": v.Version,
				"move": json.RawMessage(game.AppendMoveJSON(nil, kuhn.Def.Kinds(), mv))})
			require.NotContains(t, ans, card(cards[1-seat])+`}`, "game %s: an act's answer holds the other card", id)
		}
	}
}
