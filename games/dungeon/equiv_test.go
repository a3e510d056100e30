package dungeon_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// direct plays a seeded game on engine.New(reducers.Table()) without the
// adapter: create, joins p1..pN with the classes, start, then at every
// decision the awaited player's engine.LegalActions entry at the index
// pick gives, on the stream rng.NewSeeded(seed). It returns the game and
// its whole log.
func direct(t *testing.T, seed string, classes []engine.Class, pick func(n int) int) (*engine.Game, []engine.Event) {
	t.Helper()
	rules := engine.DefaultRules()
	eng := engine.New(rules, reducers.Table())
	s, err := rng.NewSeeded(seed)
	require.NoError(t, err)
	g := &engine.Game{}
	var log []engine.Event
	do := func(a engine.Action) {
		log, err = eng.Dispatch(g, &a, s, log)
		require.NoError(t, err, a.Kind)
	}
	do(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "bot-" + seed, Mode: "seeded", Seed: seed})
	for i, c := range classes {
		do(engine.Action{Kind: engine.ActJoin, Actor: "p" + string(rune('1'+i)), Seat: i, Class: c})
	}
	do(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	var legal []engine.Action
	for g.Public.Phase == engine.PhasePlaying {
		legal = engine.LegalActions(&g.Public, rules, g.Public.Awaiting, engine.TurnKinds, legal)
		require.NotEmpty(t, legal)
		do(legal[pick(len(legal))])
	}
	return g, log
}

// picker returns a deterministic choice of an index among n, from its own
// seeded stream (never the game's).
func picker(t *testing.T, seed string) func(n int) int {
	s, err := rng.NewSeeded(seed + "/pick")
	require.NoError(t, err)
	return func(n int) int {
		v, err := s.UniformInt(0, int64(n-1), "test.pick", nil)
		require.NoError(t, err)
		return int(v)
	}
}

// A seeded game played through the machinery (match.New, a move chosen at
// every decision by its index in Legal) ends in exactly the engine game,
// log and winner that the same choices dispatched directly on the engine
// give: the same canonical JSON, the same events byte for byte. The match
// is played in full (its recorder wraps the stream: the adapter relays
// its draws, game.StreamFor); a lean match (the bare stream, which the
// adapter hands to the engine itself) is quiet and keeps no events: that
// it plays the same game is TestQuietPlaysTheSameGame's.
func TestMatchIsTheEngineGame(t *testing.T) {
	classes := []engine.Class{engine.ClassScout, engine.ClassDuelist, engine.ClassMonk}
	for _, seed := range []string{"equiv-1", "equiv-2", "equiv-3"} {
		for _, lean := range []bool{false} {
			wantGame, wantLog := direct(t, seed, classes, picker(t, seed))
			seats := make([]game.Seat, len(classes))
			for i, c := range classes {
				seats[i] = game.Seat{Options: []string{string(c)}}
			}
			m, err := match.New(dungeon.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: seats, Lean: lean})
			require.NoError(t, err)
			pick := picker(t, seed)
			gotLog := append([]engine.Event(nil), m.State().(*dungeon.State).EngineEvents()...)
			var legal []game.Move
			for !m.Over() {
				st := m.State()
				legal = st.Legal(st.ToMove(), legal)
				_, err := m.Apply(legal[pick(len(legal))])
				require.NoError(t, err)
				gotLog = append(gotLog, m.State().(*dungeon.State).EngineEvents()...)
			}
			want, err := wantGame.CanonicalJSON()
			require.NoError(t, err)
			got, err := m.State().(*dungeon.State).Game().CanonicalJSON()
			require.NoError(t, err)
			require.Equal(t, string(want), string(got), "%s lean %v", seed, lean)
			require.Equal(t, logJSON(wantLog), logJSON(gotLog), "%s lean %v", seed, lean)
			require.Greater(t, len(wantLog), 200, "a whole game")
			o := m.State().Outcome()
			require.True(t, o.Over)
			if wantGame.Public.Winner == "" {
				require.Empty(t, o.Winners)
			} else {
				pl, _ := wantGame.Public.Player(wantGame.Public.Winner)
				require.Equal(t, []int{pl.Seat}, o.Winners)
				require.Equal(t, 1.0, o.Payoffs[pl.Seat])
			}
			if !lean {
				// The log the match keeps is the engine log's summary,
				// event for event.
				require.Len(t, m.Events(), len(wantLog))
				for i, e := range m.Events() {
					require.Equal(t, wantLog[i].Type.String(), e.Type)
				}
			}
		}
	}
}

func logJSON(log []engine.Event) string {
	var b []byte
	for i := range log {
		b = log[i].AppendJSON(b)
		b = append(b, '\n')
	}
	return string(b)
}

// A crypto match replays from its recorded draws (a game.Scripted relayed
// to the engine, the server seed included) to the same bytes; a seeded
// one from its seed.
func TestReplays(t *testing.T) {
	for _, cfg := range []match.Config{{Mode: rng.ModeCrypto}, {Mode: rng.ModeSeeded, Seed: "replay"}} {
		cfg.Seats = make([]game.Seat, 4)
		m, err := match.New(dungeon.Def, cfg)
		require.NoError(t, err)
		bot := match.NewRandom(mustSeeded(t, "replay/bot"))
		var legal []game.Move
		for !m.Over() {
			legal = m.State().Legal(m.State().ToMove(), legal)
			_, err := m.Apply(bot.Choose(m.State(), m.State().ToMove(), legal))
			require.NoError(t, err)
		}
		r, err := match.Replay(dungeon.Def, cfg, m.Moves(), m.Draws())
		require.NoError(t, err)
		require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
		require.Equal(t, string(m.LogJSON()), string(r.LogJSON()))
		var pub engine.Public
		require.NoError(t, json.Unmarshal(m.State().AppendPublic(nil), &pub))
		require.Equal(t, cfg.Mode, pub.RNG.Mode)
	}
}

func mustSeeded(t *testing.T, seed string) *rng.Stream {
	s, err := rng.NewSeeded(seed)
	require.NoError(t, err)
	return s
}

// The positive control: the direct game the comparison uses tells two
// games apart (another choice at each decision gives other bytes).
func TestDirectGamesDiffer(t *testing.T) {
	classes := []engine.Class{engine.ClassScout, engine.ClassDuelist, engine.ClassMonk}
	a, _ := direct(t, "equiv-1", classes, picker(t, "equiv-1"))
	b, _ := direct(t, "equiv-1", classes, func(int) int { return 0 })
	ja, _ := a.CanonicalJSON()
	jb, _ := b.CanonicalJSON()
	require.NotEqual(t, string(ja), string(jb))
}
