package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/tablestore"
)

// Leduc hold'em through the functions: after every action of whole hands,
// nothing a seat reads (its getView answer, an act's answer, a refusal)
// holds the other seat's card, by name or by number, before a showdown
// shows it, nor the deck's remainder ever; at a showdown both cards are in
// both views. The cards are known here from match on the same seed (an
// independent path). The positive control is the same search on what the
// seat may see: its own card, by name in its view and by number in its
// Dealt event, is found, so the search is not blind.
func TestLeducCardsStayPrivateOverHTTP(t *testing.T) {
	c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
	ctx := context.Background()
	tokens := []string{"dev:u0", "dev:u1"}
	showdowns := 0
	for g := range 16 {
		id := "leduc-" + strconv.Itoa(g)
		seed := "hidden-" + id
		require.NoError(t, functest.TableLobby(ctx, c, leduc.Def, id, seed, tokens))
		ref, err := match.New(leduc.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2)})
		require.NoError(t, err)
		st := ref.State().(*leduc.State)
		cards := [2]int{st.Card(0), st.Card(1)}
		seen := func(card int) []string {
			return []string{`"` + leduc.CardName(card) + `"`, fmt.Sprintf(`"card":%d,`, card)}
		}
		bots, _ := rng.NewSeeded(seed + "/bots")
		bot := match.NewRandom(bots)
		for n := 0; ; n++ {
			require.Less(t, n, 20)
			shown := strings.Contains(string(st.AppendPublic(nil)), "shown")
			for s, tok := range tokens {
				view := raw(t, c, "getView", tok, map[string]any{"gameId": id})
				for _, w := range seen(cards[s]) {
					require.Contains(t, view, w, "control: seat %d's own card is in its view", s)
				}
				for _, w := range seen(cards[1-s])[:1] {
					if shown {
						require.Contains(t, view, w, "game %s: a showdown shows seat %d the other card", id, s)
					} else {
						require.NotContains(t, view, w, "game %s: seat %d reads the other seat's card", id, s)
					}
				}
				require.NotContains(t, view, seen(cards[1-s])[1], "game %s: seat %d reads the other seat's Dealt event", id, s)
				require.NotContains(t, view, `"deck"`, "game %s: seat %d reads the deck's remainder", id, s)
				bad := raw(t, c, "act", tok, map[string]any{"gameId": id, "actionId": fmt.Sprintf("bad%d-%d", n, s), "version": 0, "move": map[string]any{"kind": "fold"}})
				require.NotContains(t, bad, `"card"`)
			}
			if ref.Over() {
				if shown {
					showdowns++
				}
				break
			}
			seat := st.ToMove()
			mv := bot.Choose(nil, seat, st.Legal(seat, nil))
			_, err := ref.Apply(mv)
			require.NoError(t, err)
			v, err := functest.TableView(ctx, c, id, tokens[seat])
			require.NoError(t, err)
			ans := raw(t, c, "act", tokens[seat], map[string]any{"gameId": id, "actionId": fmt.Sprintf("m%d", n), "version": v.Version,
				"move": json.RawMessage(game.AppendMoveJSON(nil, leduc.Def.Kinds(), mv))})
			if !strings.Contains(string(st.AppendPublic(nil)), "shown") {
				require.NotContains(t, ans, `"`+leduc.CardName(cards[1-seat])+`"`, "game %s: an act's answer holds the other card", id)
				require.NotContains(t, ans, fmt.Sprintf(`"card":%d,`, cards[1-seat]), "game %s: an act's answer holds the other card", id)
			}
		}
	}
	require.Positive(t, showdowns, "some hands reach a showdown")
}
