package bot

import (
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// searchState is a decision of a recorded game: the public view and the
// player who decides, with two or more legal options.
type searchState struct {
	view engine.Public
	uid  string
}

// The phases of a game the decision benchmarks sample: the opening (rounds
// 1-3), the middle (rounds 6-9) and the end (a player 6 tiles or fewer from
// the final tile).
var searchPhases = []string{"opening", "middle", "end"}

func phaseOf(p *engine.Public, r *engine.Ruleset) string {
	for i := range p.Players {
		if r.FinalTile()-p.Players[i].Pos <= 6 {
			return "end"
		}
	}
	switch {
	case p.Round <= 3:
		return "opening"
	case p.Round >= 6 && p.Round <= 9:
		return "middle"
	}
	return ""
}

// recorder plays cautious and keeps a copy of the public view at each
// decision of two or more options, by phase.
type recorder struct {
	states map[string][]searchState
}

func (rc *recorder) Name() string { return "recorder" }

func (rc *recorder) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	if len(engine.LegalActions(p, r, uid, engine.TurnKinds, nil)) > 1 {
		if ph := phaseOf(p, r); ph != "" {
			g := engine.Game{Public: *p}
			rc.states[ph] = append(rc.states[ph], searchState{view: g.Clone().Public, uid: uid})
		}
	}
	return policy.Cautious{}.Choose(p, r, uid)
}

// recordStates returns the decisions of 4-player games of cautious and
// aggressive seats, the seat of the recorder rotating.
func recordStates(b testing.TB) map[string][]searchState {
	b.Helper()
	eng := engine.NewReference(engine.DefaultRules())
	r := NewRunner(eng)
	rc := &recorder{states: map[string][]searchState{}}
	for i := 0; i < 40; i++ {
		seats := make([]Seat, 4)
		for j := range seats {
			seats[j] = Seat{Class: engine.Classes[(i+j)%4], Policy: []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[(i/4+j)%2]}
		}
		seats[i%4].Policy = rc
		if _, _, err := r.Play(fmt.Sprint("bench-states-", i), seats, nil); err != nil {
			b.Fatal(err)
		}
	}
	for _, ph := range searchPhases {
		if len(rc.states[ph]) < 20 {
			b.Fatalf("only %d %s decisions recorded", len(rc.states[ph]), ph)
		}
	}
	return rc.states
}

// BenchmarkSearchDecision times the search bot's decisions of two or more
// options, one op a decision, at mcts:200 and mcts:1000, over recorded
// decisions of the opening, the middle and the end of a game: the median
// and the 95th percentile in wall milliseconds (ms-median, ms-p95) and in
// the deciding thread's CPU milliseconds (cpu-ms-median, cpu-ms-p95: what a
// loaded machine does not swing), and the simulations a second of wall
// time (sims/s) and of the thread's CPU time (sims/cpu-s). The target
// is a median under 30 ms at mcts:1000 on one core. The heuristic's own
// decision on the same states is BenchmarkHeuristicDecision.
//
// The value model is fitted before the runs (PrepareSearch): its one-time
// cost is BenchmarkValueFit's, and every run times decisions only.
func BenchmarkSearchDecision(b *testing.B) {
	states := recordStates(b)
	rules := engine.DefaultRules()
	PrepareSearch(rules, 4)
	for _, n := range []int{200, 1000} {
		for _, ph := range searchPhases {
			b.Run(fmt.Sprintf("mcts:%d/%s", n, ph), func(b *testing.B) {
				m := NewMCTS(n)
				s, _ := StreamFor("bench", 0)
				m.NewGame(s)
				var wall, cpu []float64
				sims0 := m.sims
				start := time.Now()
				unlock := lockThread()
				defer unlock()
				for i := 0; b.Loop(); i++ {
					st := &states[ph][i%len(states[ph])]
					t0, c0 := time.Now(), threadCPU()
					m.Choose(&st.view, rules, st.uid)
					wall = append(wall, float64(time.Since(t0).Microseconds())/1000)
					cpu = append(cpu, float64((threadCPU()-c0).Microseconds())/1000)
				}
				elapsed := time.Since(start).Seconds()
				sims := float64(m.sims - sims0)
				cpuSum := 0.0
				for _, c := range cpu {
					cpuSum += c
				}
				slices.Sort(wall)
				slices.Sort(cpu)
				b.ReportMetric(quantile(wall, 0.5), "ms-median")
				b.ReportMetric(quantile(wall, 0.95), "ms-p95")
				if cpuSum > 0 {
					b.ReportMetric(quantile(cpu, 0.5), "cpu-ms-median")
					b.ReportMetric(quantile(cpu, 0.95), "cpu-ms-p95")
					b.ReportMetric(sims/cpuSum*1000, "sims/cpu-s")
				}
				b.ReportMetric(sims/elapsed, "sims/s")
			})
		}
	}
}

// quantile returns the nearest-rank q-quantile of sorted xs.
func quantile(xs []float64, q float64) float64 {
	k := int(q*float64(len(xs))+0.999999) - 1
	return xs[min(max(k, 0), len(xs)-1)]
}

// BenchmarkHeuristicDecision is the baseline of BenchmarkSearchDecision:
// the cautious policy's decision on the same recorded states.
func BenchmarkHeuristicDecision(b *testing.B) {
	states := recordStates(b)
	rules := engine.DefaultRules()
	all := slices.Concat(states["opening"], states["middle"], states["end"])
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st := &all[i%len(all)]
		policy.Cautious{}.Choose(&st.view, rules, st.uid)
	}
}

// BenchmarkSearchSimulations is the search bot's simulations a second
// (sims/s) at the opening decisions, mcts:200: a simulation deals the
// undrawn cards, copies the view, plays its root action and the rest of
// the game. Its baseline is BenchmarkHeuristicRollout: the clone of a real
// game at the same point played to its end by the cautious policy.
func BenchmarkSearchSimulations(b *testing.B) {
	states := recordStates(b)["opening"]
	rules := engine.DefaultRules()
	PrepareSearch(rules, 4)
	m := NewMCTS(200)
	s, _ := StreamFor("bench", 0)
	m.NewGame(s)
	b.ReportAllocs()
	sims0 := m.sims
	for i := 0; b.Loop(); i++ {
		st := &states[i%len(states)]
		m.Choose(&st.view, rules, st.uid)
	}
	b.ReportMetric(float64(m.sims-sims0)/b.Elapsed().Seconds(), "sims/s")
}

// BenchmarkHeuristicRollout clones a game at an opening decision and plays
// it to its end with the cautious policy in every seat, leanly (no log):
// the cost of a simulation without the search.
func BenchmarkHeuristicRollout(b *testing.B) {
	eng := engine.NewReference(engine.DefaultRules())
	r := NewRunner(eng)
	r.MaxActions = 1
	base := &engine.Game{}
	st, _ := rng.NewSeeded("bench-rollout")
	seats := []Seat{{engine.ClassWarrior, policy.Cautious{}}, {engine.ClassMonk, policy.Cautious{}}, {engine.ClassDuelist, policy.Cautious{}}, {engine.ClassScout, policy.Cautious{}}}
	_ = r.PlayGame(base, st, "bench-rollout", seats)
	state, _ := st.State()
	disp := eng.NewDispatcher()
	disp.Lean(0)
	rules := eng.Rules()
	var a engine.Action
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g := base.Clone()
		s, _ := rng.Restore(state, "", rng.WithSeq(uint64(i)))
		g.Public.RNG.Seq = uint64(i)
		for g.Public.Phase == engine.PhasePlaying {
			me, _ := g.Public.Player(g.Public.Awaiting)
			policy.CautiousStyle(rules).Choose(&a, &g.Public, rules, me)
			if _, err := disp.Dispatch(g, &a, s, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rollouts/s")
}

// BenchmarkSearchMargins measures what the search's gate can see, at
// mcts:1000 over the recorded decisions by phase (one op a decision): how
// often the halving's best option is not the prior's choice
// (%-best-not-prior) and how often the bot plays it (%-played-not-prior:
// the gate let it), and on the decisions of the first kind the median of
// the best option's observed gain over the prior's choice, in points of
// win chance (pp-gain), and the median gain the gate lets through at that
// noise (pp-gate: gateMargin standard errors).
func BenchmarkSearchMargins(b *testing.B) {
	states := recordStates(b)
	rules := engine.DefaultRules()
	PrepareSearch(rules, 4)
	for _, ph := range searchPhases {
		b.Run(ph, func(b *testing.B) {
			m := NewMCTS(1000)
			s, _ := StreamFor("bench", 0)
			m.NewGame(s)
			var detectable, gain []float64
			decisions, left := 0, 0
			for i := 0; b.Loop(); i++ {
				st := &states[ph][i%len(states[ph])]
				played := m.Choose(&st.view, rules, st.uid)
				decisions++
				me, _ := st.view.Player(st.uid)
				h, best := m.hint(&st.view, me, m.legal), int(m.nodes[m.cands[0]].index)
				if best == h {
					continue
				}
				if played == m.legal[best] {
					left++
				}
				x, y := m.outs[best], m.outs[h]
				n := min(len(x), len(y))
				var sum, sq float64
				for k := range n {
					d := float64(x[k] - y[k])
					sum, sq = sum+d, sq+d*d
				}
				mean := sum / float64(n)
				sd := math.Sqrt((sq - sum*mean) / float64(n-1))
				detectable = append(detectable, 100*gateMargin*sd/math.Sqrt(float64(n)))
				gain = append(gain, 100*mean)
			}
			b.ReportMetric(100*float64(len(gain))/float64(decisions), "%-best-not-prior")
			b.ReportMetric(100*float64(left)/float64(decisions), "%-played-not-prior")
			if len(gain) > 0 {
				for _, xs := range [][]float64{detectable, gain} {
					slices.Sort(xs)
				}
				b.ReportMetric(quantile(gain, 0.5), "pp-gain")
				b.ReportMetric(quantile(detectable, 0.5), "pp-gate")
			}
		})
	}
}

// BenchmarkValueFit is the value model's fit for the default ruleset and
// four players, from its games to its weights, done afresh at every op
// (the cache PrepareSearch fills is not used): what a process pays once
// per ruleset and number of players before its first search decision.
func BenchmarkValueFit(b *testing.B) {
	r := engine.DefaultRules()
	for b.Loop() {
		newValue(r, 4)
	}
}
