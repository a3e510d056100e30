package dungeon_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// The styles play the engine's bots: a seeded match whose seats play
// cautious and aggressive (match.BotByName) ends in exactly the game, log
// and winner that bot.Runner.Play gives the same seed with policy.Cautious
// and policy.Aggressive, as `gamectl sim` plays them.
func TestStylesAreTheEngineBots(t *testing.T) {
	names := []string{"cautious", "aggressive", "aggressive", "cautious", "aggressive"}
	runner := bot.NewRunner(engine.New(engine.DefaultRules(), reducers.Table()))
	for _, seed := range []string{"style-1", "style-2", "style-3", "style-4"} {
		seats := make([]bot.Seat, len(names))
		gseats := make([]game.Seat, len(names))
		pols := make([]game.Policy, len(names))
		classes := policy.DefaultClasses(len(names))
		for i, n := range names {
			p, err := bot.ByName(n)
			require.NoError(t, err)
			seats[i] = bot.Seat{Class: classes[i], Policy: p}
			gseats[i] = game.Seat{Options: []string{string(classes[i])}}
			for _, st := range dungeon.Def.Styles() {
				if st.Name == n {
					pols[i] = st.New(0)
				}
			}
			require.NotNil(t, pols[i], n)
		}
		want, wantLog, err := runner.Play(seed, seats, nil)
		require.NoError(t, err)
		wantJSON, err := want.CanonicalJSON()
		require.NoError(t, err)
		wantLogJSON := logJSON(wantLog)

		m, err := match.New(dungeon.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: gseats})
		require.NoError(t, err)
		gotLog := append([]engine.Event(nil), m.State().(*dungeon.State).EngineEvents()...)
		var legal []game.Move
		for !m.Over() {
			st := m.State()
			legal = st.Legal(st.ToMove(), legal)
			_, err := m.Apply(pols[st.ToMove()].Choose(st, st.ToMove(), legal))
			require.NoError(t, err)
			gotLog = append(gotLog, m.State().(*dungeon.State).EngineEvents()...)
		}
		got, err := m.State().(*dungeon.State).Game().CanonicalJSON()
		require.NoError(t, err)
		require.Equal(t, string(wantJSON), string(got), seed)
		require.Equal(t, wantLogJSON, logJSON(gotLog), seed)
	}
}

// Every engine event of whole games has its summary: its type listed in
// EventTypes, public, and for the types whose values are numbers of the
// engine event, those numbers.
func TestEventSummaries(t *testing.T) {
	listed := map[string]int{}
	for _, e := range dungeon.Def.EventTypes() {
		listed[e.Type] = len(e.Fields)
	}
	for _, seed := range []string{"events-1", "events-2"} {
		m, err := match.New(dungeon.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 6)})
		require.NoError(t, err)
		bots := match.NewRandom(mustSeeded(t, seed+"/bots"))
		check := func(st *dungeon.State, evs []game.Event) {
			eng := st.EngineEvents()
			require.Len(t, evs, len(eng))
			for i, e := range evs {
				x := &eng[i]
				require.Equal(t, x.Type.String(), e.Type)
				require.Contains(t, listed, e.Type)
				require.Equal(t, game.All, e.To)
				seat := func(uid string) int64 {
					if pl, _ := st.Game().Public.Player(uid); pl != nil {
						return int64(pl.Seat)
					}
					return -1
				}
				switch x.Type {
				case engine.EvMoved:
					require.Equal(t, [4]int64{seat(x.UID), int64(x.From), int64(x.To)}, e.Vals)
				case engine.EvDiceRolled:
					require.Equal(t, [4]int64{seat(x.Who), int64(x.Sides), int64(x.Value), int64(x.Total)}, e.Vals)
				case engine.EvTurnStarted:
					require.Equal(t, [4]int64{seat(x.UID), int64(x.Round), int64(x.Turn)}, e.Vals)
				case engine.EvPlayerJoined:
					require.Equal(t, int64(x.Seat), e.Vals[0])
					require.Equal(t, string(engine.Classes[e.Vals[1]]), string(x.Class))
				case engine.EvGameFinished:
					require.Equal(t, seat(x.Winner), e.Vals[0])
				}
			}
		}
		check(m.State().(*dungeon.State), m.Events())
		var legal []game.Move
		for !m.Over() {
			st := m.State()
			legal = st.Legal(st.ToMove(), legal)
			evs, err := m.Apply(bots.Choose(st, st.ToMove(), legal))
			require.NoError(t, err)
			check(m.State().(*dungeon.State), evs)
		}
	}
}
