package dungeon_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/fixtures"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
)

// replayer plays a fixture's turn actions through the adapter (State.Apply
// of the move that stands for each), as a store would: a stream restored
// from the game before each move (session.Stream), saved into the game
// after it (engine.Game.SaveStream), the audit kept. It returns the log
// (engine events as JSON) and the audit entries.
type replayer struct {
	t     *testing.T
	st    *dungeon.State
	log   []json.RawMessage
	audit []json.RawMessage
}

func (r *replayer) auditor() rng.Auditor {
	return rng.AuditorFunc(func(e rng.Entry) {
		b, err := json.Marshal(e)
		require.NoError(r.t, err)
		r.audit = append(r.audit, b)
	})
}

func (r *replayer) keep(evs []engine.Event) {
	for i := range evs {
		r.log = append(r.log, evs[i].AppendJSON(nil))
	}
}

func (r *replayer) apply(a engine.Action) {
	g := r.st.Game()
	s, err := session.Stream(g, rng.WithAuditor(r.auditor()))
	require.NoError(r.t, err)
	pl, _ := g.Public.Player(a.Actor)
	require.NotNil(r.t, pl, a.Actor)
	m, ok := r.st.Move(pl.Seat, &a)
	require.True(r.t, ok, "no move stands for %+v", a)
	_, err = r.st.Apply(m, game.FromStream(s), nil)
	require.NoError(r.t, err, a.Kind)
	r.keep(r.st.EngineEvents())
	require.NoError(r.t, g.SaveStream(s))
}

// check compares the replay with the fixture's recorded log, audit and
// final hash. The adapter dispatches no action id (a move has none: the
// id is a store's de-duplication key), so the final state's lastActionId
// is set to the fixture's last action's before it is hashed.
func (r *replayer) check(f *fixtures.Fixture) {
	require.Equal(r.t, raw(f.Log), raw(r.log), "log")
	require.Equal(r.t, raw(f.Audit), raw(r.audit), "audit")
	g := r.st.Game().Clone()
	require.Empty(r.t, g.Public.LastActionID)
	g.Public.LastActionID = f.Actions[len(f.Actions)-1].ID
	h, err := g.Hash()
	require.NoError(r.t, err)
	require.Equal(r.t, f.FinalHash, h, "final state")
}

func raw(l []json.RawMessage) []string {
	out := make([]string, len(l))
	for i, b := range l {
		out[i] = string(b)
	}
	return out
}

// The whole seeded four-player game of fixtures/testdata/05-game-4p.json:
// Setup (on the seeded stream of its seed, with its classes) makes its
// create, joins and start, every other action is a move, and the log, the
// audit and the final state are the recorded ones.
func TestFixtureGame(t *testing.T) {
	f, err := fixtures.Load("fixtures/testdata/05-game-4p.json")
	require.NoError(t, err)
	rules := dungeon.DefaultRules()
	require.Equal(t, f.RulesHash, rules.Hash())
	seats := make([]game.Seat, len(f.Players))
	for i, p := range f.Players {
		require.Equal(t, i, p.Seat)
		seats[i] = game.Seat{Options: []string{string(p.Class)}}
	}
	require.Equal(t, engine.ActStart, f.Actions[len(f.Players)+1].Kind)
	r := &replayer{t: t}
	s, err := rng.NewSeeded(f.Seed, rng.WithAuditor(r.auditor()))
	require.NoError(t, err)
	st, _, err := dungeon.Def.Setup(rules, seats, game.FromStream(s), nil)
	require.NoError(t, err)
	r.st = st.(*dungeon.State)
	r.keep(r.st.EngineEvents())
	require.NoError(t, r.st.Game().SaveStream(s))
	for _, a := range f.Actions[len(f.Players)+2:] {
		r.apply(a)
	}
	require.Equal(t, game.Nobody, r.st.ToMove())
	r.check(f)
}

// The duel with a re-roll of fixtures/testdata/04-duel-reroll.json, from
// its starting state (FromGame), move by move.
func TestFixtureDuel(t *testing.T) {
	f, err := fixtures.Load("fixtures/testdata/04-duel-reroll.json")
	require.NoError(t, err)
	require.NotNil(t, f.Initial)
	st, err := dungeon.FromGame(dungeon.DefaultRules(), f.Initial)
	require.NoError(t, err)
	r := &replayer{t: t, st: st}
	for _, a := range f.Actions {
		r.apply(a)
	}
	r.check(f)
}

// The positive control: a replay that differs by one move (keeping the die
// the fixture re-rolls) gives another log, which the comparison sees.
func TestFixtureCheckCatches(t *testing.T) {
	f, err := fixtures.Load("fixtures/testdata/04-duel-reroll.json")
	require.NoError(t, err)
	st, err := dungeon.FromGame(dungeon.DefaultRules(), f.Initial)
	require.NoError(t, err)
	r := &replayer{t: t, st: st}
	require.Equal(t, engine.ActReroll, f.Actions[2].Kind)
	r.apply(f.Actions[0])
	r.apply(f.Actions[1])
	n := len(r.log)
	require.Equal(t, raw(f.Log[:n]), raw(r.log))
	a := f.Actions[2]
	a.Kind = engine.ActDeclineReroll
	r.apply(a)
	require.NotEqual(t, raw(f.Log[:len(r.log)]), raw(r.log))
}
