package play_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	fbmatch "github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// seatView is how a table's page makes a seat's view of its two Firestore
// documents (tablewatch.ts, composeState): the public part alone when the
// seat has no private part, else {"public":P,"private":Q}.
func seatView(pub, priv []byte) string {
	if len(priv) == 0 {
		return string(pub)
	}
	return `{"public":` + string(pub) + `,"private":` + string(priv) + `}`
}

// The page's listeners make a seat's view of the table's public document
// (AppendPublic) and the seat's own (AppendPrivate), where getView answers
// the game's AppendView: the two must be the same bytes for every table
// game of the registry, at every state of seeded random games, for every
// seat. A game whose view has another form fails here (and would show its
// seats another board by listeners than by getView). Positive control: a
// view with a field added is caught by the same comparison.
func TestSeatViewIsPublicAndPrivate(t *testing.T) {
	checked := 0
	for _, def := range registry.All() {
		if def.Name() == registry.Dungeon { // the dungeon keeps its own path and page
			continue
		}
		for g := range 5 {
			seed := fmt.Sprintf("seatview/%s/%d", def.Name(), g)
			bots, err := rng.NewSeeded(seed + "/bots")
			require.NoError(t, err)
			bot := fbmatch.NewRandom(bots)
			m, err := fbmatch.New(def, fbmatch.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2)})
			require.NoError(t, err)
			for step := 0; ; step++ {
				require.Less(t, step, 10000)
				st := m.State()
				for seat := range 2 {
					view := string(st.AppendView(nil, seat))
					require.Equal(t, view, seatView(st.AppendPublic(nil), st.AppendPrivate(nil, seat)), "%s, seat %d, step %d", def.Name(), seat, step)
					require.NotEqual(t, view+" ", seatView(st.AppendPublic(nil), st.AppendPrivate(nil, seat)), "the positive control")
					checked++
				}
				if m.Over() {
					break
				}
				mv := bot.Choose(nil, st.ToMove(), st.Legal(st.ToMove(), nil))
				_, err := m.Apply(mv)
				require.NoError(t, err)
			}
		}
	}
	t.Logf("%d seat views checked", checked)
}
