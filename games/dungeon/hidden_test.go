package dungeon_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/match"
)

// Sample keeps the public part and every view, keeps each deck's cards and
// deals them in another order (some deck differs in one of a few samples),
// and leaves the state it samples from alone.
func TestSample(t *testing.T) {
	m := playUntil(t, "sample", step(engine.StepMoveOrSleep))
	st := m.State().(*dungeon.State)
	before := match.StateBytes(st)
	probe := game.FromStream(mustSeeded(t, "sample/probe"))
	differs := false
	for range 4 {
		sm := st.Sample(1, probe).(*dungeon.State)
		require.Equal(t, st.AppendPublic(nil), sm.AppendPublic(nil))
		for s := range st.NumSeats() {
			require.Equal(t, st.AppendView(nil, s), sm.AppendView(nil, s))
			require.Equal(t, st.AppendInfoKey(nil, s), sm.AppendInfoKey(nil, s))
		}
		require.NoError(t, sm.Check())
		a, b := st.Game().Secret.Decks, sm.Game().Secret.Decks
		require.Len(t, b, len(a))
		for i := range a {
			require.ElementsMatch(t, a[i].Cards, b[i].Cards, a[i].ID)
			differs = differs || !slices.Equal(a[i].Cards, b[i].Cards)
		}
	}
	require.True(t, differs, "no sample dealt a deck again")
	require.Equal(t, before, match.StateBytes(st))
}

// The view hides the game id, which names a seeded game's seed.
func TestViewHidesTheSeed(t *testing.T) {
	m := playUntil(t, "view-seed", step(engine.StepMoveOrSleep))
	st := m.State()
	require.Contains(t, string(st.AppendPublic(nil)), "view-seed")
	require.NotContains(t, string(st.AppendView(nil, 0)), "view-seed")
}

// The positive control of the sampler check: a Sample that changes the
// public part (here, one player's HP) is caught by the contract suite.
func TestContractCatchesABadSample(t *testing.T) {
	err := match.CheckContract(badSampleDef{dungeon.Def}, match.ContractOptions{Games: 1, MaxStates: 3})
	require.ErrorContains(t, err, "a state sampled for seat 0 shows it another view")
}

type badSampleDef struct{ game.Definition }

func (d badSampleDef) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := d.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return badSample{st.(*dungeon.State)}, ev, nil
}

type badSample struct{ *dungeon.State }

func (s badSample) Clone() game.State { return badSample{s.State.Clone().(*dungeon.State)} }

func (s badSample) Sample(seat int, rnd game.Rand) game.State {
	sm := s.State.Sample(seat, rnd).(*dungeon.State)
	sm.Game().Public.Players[0].HP--
	return badSample{sm}
}

// A view shows nothing of the secret part: two states that differ only in
// their decks' order (a sample) show every seat the same bytes, and the
// secret part is in the state's bytes (so a sample is another state).
func TestSecretIsNotInTheView(t *testing.T) {
	m := playUntil(t, "secret", step(engine.StepMoveOrSleep))
	st := m.State()
	sm := st.Sample(0, game.FromStream(mustSeeded(t, "secret/probe")))
	require.False(t, bytes.Equal(st.AppendSecret(nil), sm.AppendSecret(nil)))
	require.Equal(t, st.AppendView(nil, 2), sm.AppendView(nil, 2))
	require.Empty(t, st.AppendPrivate(nil, 0))
}
