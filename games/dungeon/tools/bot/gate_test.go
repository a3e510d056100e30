package bot

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// TestGateByHand: the gate's answers for paired rewards written by hand.
// Option 1 against option 0 (the prior's), n samples: it passes when the
// mean difference exceeds half its standard error, sd/sqrt(n), and never
// on fewer than 10 samples each.
func TestGateByHand(t *testing.T) {
	m := &MCTS{}
	set := func(d []float32) {
		m.outs = [][]float32{make([]float32, len(d)), slices.Clone(d)}
	}
	// d = 0.2, 0 alternating over 100 samples: mean 0.1, sd 0.1005,
	// se 0.01005: z = 9.95 passes.
	var d []float32
	for k := range 100 {
		d = append(d, float32(0.2*float64(1-k%2)))
	}
	set(d)
	require.True(t, m.better(1, 0))
	// mean 0.004 over 100 samples of ±0.1 plus 0.004: sd 0.1005, se
	// 0.01005, z = 0.398 < 0.5: held back.
	for k := range d {
		d[k] = 0.004 + float32(0.1*float64(1-2*(k%2)))
	}
	set(d)
	require.False(t, m.better(1, 0))
	// mean 0.006, z = 0.597 > 0.5: passes.
	for k := range d {
		d[k] = 0.006 + float32(0.1*float64(1-2*(k%2)))
	}
	set(d)
	require.True(t, m.better(1, 0))
	// the same with the options' roles swapped: a loss, held back.
	m.outs[0], m.outs[1] = m.outs[1], m.outs[0]
	require.False(t, m.better(1, 0))
	// No spread: the sign decides, from 10 samples on.
	set([]float32{0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01})
	require.True(t, m.better(1, 0), "10 samples are enough")
	set([]float32{0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01})
	require.False(t, m.better(1, 0), "9 samples are not")
}

// TestHalvingShares: the N simulations of a decision are shared by
// sequential halving, every option getting the same count each round and
// the better half going on. Counts worked out by hand for N = 100: two
// options, one round of 50 each; three, ceil(log2 3) = 2 rounds, 100/(3·2)
// = 16 each, then the remaining 52 over the better two, 26 each (42, 42,
// 16); four, 100/(4·2) = 12 each, then 52 over two (38, 38, 12, 12). The
// options that go on are the better ones on the samples all were
// simulated on, and the winner the best of the last round.
func TestHalvingShares(t *testing.T) {
	want := map[int][]int{2: {50, 50}, 3: {42, 42, 16}, 4: {38, 38, 12, 12}}
	rules := engine.DefaultRules()
	m := NewMCTS(100)
	s, err := StreamFor("halving", 0)
	require.NoError(t, err)
	m.NewGame(s)
	seen := map[int]int{}
	states := recordStates(t)
	for _, ph := range searchPhases {
		for _, st := range states[ph] {
			m.Choose(&st.view, rules, st.uid)
			w, ok := want[len(m.legal)]
			if !ok {
				continue
			}
			seen[len(m.legal)]++
			got := make([]int, len(m.legal))
			for i := range got {
				got[i] = len(m.outs[i])
			}
			slices.Sort(got)
			slices.Reverse(got)
			require.Equal(t, w, got, "%d options", len(m.legal))
			if len(w) > 2 {
				// The first round's samples are the same for every option:
				// the options that went on did no worse on them than those
				// dropped, and the winner no worse than the runner-up on all.
				first := w[len(w)-1]
				mean := func(i, n int) float64 {
					sum := 0.0
					for _, x := range m.outs[i][:n] {
						sum += float64(x)
					}
					return sum / float64(n)
				}
				lo, hi := 2.0, -1.0
				for i := range m.legal {
					if len(m.outs[i]) == first {
						hi = max(hi, mean(i, first))
					} else {
						lo = min(lo, mean(i, first))
					}
				}
				require.LessOrEqual(t, hi, lo+1e-6, "a dropped option did better in the first round than one that went on")
				win := int(m.nodes[m.cands[0]].index)
				for i := range m.legal {
					if len(m.outs[i]) == w[0] && i != win {
						require.LessOrEqual(t, mean(i, w[0]), mean(win, w[0])+1e-6, "the halving's winner is not the best of the last round")
					}
				}
			}
		}
	}
	t.Logf("decisions by number of options: %v", seen)
	require.Greater(t, seen[2], 0)
	require.Greater(t, seen[3]+seen[4], 0)
}

// TestEvidenceBoundary: with two options the bot may leave its prior from
// 10 simulations each (N = 20) and never below (N = 19: 9 each), over the
// recorded decisions of two options.
func TestEvidenceBoundary(t *testing.T) {
	rules := engine.DefaultRules()
	left := map[int]int{}
	states := recordStates(t)
	for _, n := range []int{19, 20} {
		m := NewMCTS(n)
		s, err := StreamFor("evidence", 0)
		require.NoError(t, err)
		m.NewGame(s)
		for _, ph := range searchPhases {
			for _, st := range states[ph] {
				a := m.Choose(&st.view, rules, st.uid)
				if len(m.legal) != 2 {
					continue
				}
				me, _ := st.view.Player(st.uid)
				if a != m.legal[m.hint(&st.view, me, m.legal)] {
					left[n]++
				}
			}
		}
	}
	t.Logf("decisions of two options where the bot left its prior: %v", left)
	require.Zero(t, left[19])
	require.Greater(t, left[20], 0)
}
