package bot

import (
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// heldOut returns the mean log-likelihood of d's winners under v.
func heldOut(v *valueModel, d *fitData) float64 {
	ll, _, _ := logitStep(v, d)
	return ll
}

// TestValueModelPredicts: a model fitted on some games tells who wins
// other games (seeds it never saw) far better than chance: its mean
// log-likelihood of the winner at a turn's start beats the uniform
// guess's, log(1/4), by more than 0.2 (about 0.36 measured). The positive
// control, the same fit on the same games with each winner replaced by a
// seat drawn at random, learns nothing that holds on the other games.
func TestValueModelPredicts(t *testing.T) {
	r := engine.DefaultRules()
	train := valueSamples(r, 4, 1500, 2, "value-test-train")
	held := valueSamples(r, 4, 1500, 2, "value-test-held")
	require.Greater(t, len(train.players), 10000)
	uniform := math.Log(0.25)

	var v valueModel
	fitValue(&v, train)
	got := heldOut(&v, held)
	t.Logf("held-out log-likelihood %.4f, uniform %.4f", got, uniform)
	require.Greater(t, got, uniform+0.2)

	s, err := rng.NewSeeded("value-test-shuffle")
	require.NoError(t, err)
	noise := *train
	noise.winner = make([]int, len(train.winner))
	for i := range noise.winner {
		w, err := s.UniformInt(0, int64(train.players[i]-1), rng.TagTestOnly, nil)
		require.NoError(t, err)
		noise.winner[i] = int(w)
	}
	var c valueModel
	fitValue(&c, &noise)
	ctl := heldOut(&c, held)
	t.Logf("control (random winners): held-out log-likelihood %.4f", ctl)
	require.Less(t, ctl, uniform+0.05, "a model fitted on random winners must not predict")
}

// TestValueFitIsAPureFunction: the fit depends on the ruleset and the
// number of players only. Fitting twice gives the same weights bit for
// bit, and bots asking for the model at once, from several goroutines,
// all get the one model.
func TestValueFitIsAPureFunction(t *testing.T) {
	r := engine.DefaultRules()
	var a, b valueModel
	fitValue(&a, valueSamples(r, 3, 600, 2, "value-test-pure"))
	fitValue(&b, valueSamples(r, 3, 600, 2, "value-test-pure"))
	require.Equal(t, a.w, b.w)

	got := make([]*valueModel, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = valueFor(r, 4)
		}()
	}
	wg.Wait()
	for _, v := range got {
		require.Same(t, got[0], v)
	}
}

// TestSimulationEndsAtTheDecidersNextTurn pins the horizon: a simulation
// of a decision at turn T of an n-player game stops when turn T + n (the
// deciding player's next turn) begins, and is judged there; only one that
// reaches the game's last round plays on to the end. The last simulation
// of each decision is left in the bot's memory (m.det), which the test
// reads after the decision, over the recorded decisions of every phase.
func TestSimulationEndsAtTheDecidersNextTurn(t *testing.T) {
	rules := engine.DefaultRules()
	m := NewMCTS(40)
	s, err := StreamFor("horizon", 0)
	require.NoError(t, err)
	m.NewGame(s)
	judged, ended := 0, 0
	states := recordStates(t)
	for _, ph := range searchPhases {
		for _, st := range states[ph][:30] {
			m.Choose(&st.view, rules, st.uid)
			p := &m.det.Public
			if p.Phase == engine.PhaseFinished {
				ended++
				continue
			}
			judged++
			require.Equal(t, st.view.Turn+len(st.view.Players), p.Turn, "%s decision at turn %d", ph, st.view.Turn)
			require.False(t, p.EndTriggered, "a simulation in the last round plays to the end")
		}
	}
	t.Logf("%d simulations judged a round later, %d played to the end", judged, ended)
	require.Greater(t, judged, 60)
	require.Greater(t, ended, 0, "some end-of-game decisions play to the end")
}
