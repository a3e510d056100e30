package bot

import (
	"fmt"
	"math"
	"sync"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// The fit: valueFitGames seeded games of n players, every seat's class
// drawn at random and its style too (fitStyle); the features of every
// valueFitStride-th turn's start (the turns of one game share their
// outcome, so the others add little), with the game's winner. Newton's
// method from 0 to convergence, with a small ridge.
//
// Measured (docs/sim.md): the weights of a fit on 2,000 games vary from
// seed to seed enough to move the search bot's win rate by half a point
// (the weight of HP from 0.17 to 0.40), so the fit takes 16,000 games
// (about 3 s of one core); and a fit on games of the two heuristics only
// values HP as players who sleep at 40% use it, half a point worse for the
// search than a fit on varied styles.
const (
	valueFitGames  = 16000
	valueFitStride = 4
	valueFitRidge  = 1e-3
	valueFitIters  = 12
)

// fitStyle is the style of a seat of the fit's games, from the word u: a
// heuristic that challenges (as aggressive does) or not, with even odds,
// sleeps at or below 0%, 10%, ... 40% of the maximum HP and drinks a
// potion at or below 30%, 40%, ... 70% of it (each equally likely). The
// value model so sees every HP level played in several ways, not only as
// the two heuristics play it.
func fitStyle(r *engine.Ruleset, u uint32) policy.Style {
	return policy.Style{
		Duel:     u&1 == 1,
		SleepAt:  int(u>>1%5) * r.MaxHP / 10,
		PotionAt: (3 + int(u>>1/5%5)) * r.MaxHP / 10,
	}
}

// TagValueFit draws the classes and policies of the games a value model is
// fitted on (from a stream seeded by the ruleset's hash, never a game's).
const TagValueFit rng.Tag = "bot.value.fit"

// valueCache holds the fitted models, by ruleset hash and players.
var valueCache struct {
	sync.Mutex
	m map[string]*valueModel
}

// valueFor returns the value model of the ruleset for games of n players,
// fitting it on first use (about two seconds of one core under the
// default ruleset); later calls, from any bot of the process, share it.
func valueFor(r *engine.Ruleset, n int) *valueModel {
	key := fmt.Sprint(r.Hash(), "/", n)
	valueCache.Lock()
	defer valueCache.Unlock()
	if v := valueCache.m[key]; v != nil {
		return v
	}
	if valueCache.m == nil {
		valueCache.m = map[string]*valueModel{}
	}
	v := newValue(r, n)
	valueCache.m[key] = v
	return v
}

// newValue fits the value model of ruleset r for games of n players,
// afresh: valueFitGames games seeded from the ruleset's hash and n.
func newValue(r *engine.Ruleset, n int) *valueModel {
	v := &valueModel{}
	d := valueSamples(r, n, valueFitGames, valueFitStride, fmt.Sprint("bot.value/", r.Hash(), "/", n))
	fitValue(v, d)
	v.prior = d.styles.style(r)
	return v
}

// PrepareSearch fits the search bot's value model for ruleset r and games
// of n players now (2 <= n), if no bot of the process has: otherwise the
// first search decision of such a game fits it (about 3 s of one core).
// Runs and benchmarks call it to keep that one-time cost out of a game's.
func PrepareSearch(r *engine.Ruleset, n int) {
	if n >= 2 && n <= maxSearchSeats {
		valueFor(r, n)
	}
}

// fitData is the fit's sample: the features of every player at each
// recorded turn start (rows of numFeat, players consecutive) and, per
// sample, the number of players and the winner's index among them.
type fitData struct {
	f       []float64
	players []int
	winner  []int
	// styles counts, for each style level a seat of the fit's games
	// played (fitStyle's three draws), its games and its wins.
	styles styleTally
}

// styleTally counts seat-games and wins by each of fitStyle's levels: the
// sleep threshold (0..4), the potion threshold (0..4), challenging or not.
type styleTally struct {
	sleep, potion [5][2]int // [level]{games, wins}
	duel          [2][2]int
}

// best returns the level of counts with the highest win rate; ties go to
// the lowest level. A level never played has no rate and is never best.
func best(counts [][2]int) int {
	b, br := 0, -1.0
	for i, c := range counts {
		if c[0] == 0 {
			continue
		}
		if r := float64(c[1]) / float64(c[0]); r > br {
			b, br = i, r
		}
	}
	return b
}

// style returns the style of the best level of each draw, as fitStyle
// builds it.
func (t *styleTally) style(r *engine.Ruleset) policy.Style {
	sl, po, du := best(t.sleep[:]), best(t.potion[:]), best(t.duel[:])
	return fitStyle(r, uint32(du)|uint32(sl+5*po)<<1)
}

// valueSamples plays `games` seeded games of n players (the seeds and the
// seats' classes and policies from seed) and records every stride-th
// turn's start with the game's winner; a game without a winner (the round
// limit with no bracket winner never happens under sane rules, but a
// ruleset may allow it) adds nothing.
func valueSamples(r *engine.Ruleset, n, games, stride int, seed string) *fitData {
	eng := engine.NewReference(r)
	disp := eng.NewDispatcher()
	disp.Lean(0)
	pick, err := rng.NewSeeded(seed + "/seats")
	if err != nil {
		panic("bot: value fit: " + err.Error())
	}
	d := &fitData{}
	var g engine.Game
	var act engine.Action
	var events []engine.Event
	styles := make([]policy.Style, n)
	styleWords := make([]uint32, n)
	var fc featureCtx
	var row [numFeat]float64
	for k := range games {
		gs := fmt.Sprint(seed, "/", k)
		s, err := rng.NewSeeded(gs)
		if err != nil {
			panic("bot: value fit: " + err.Error())
		}
		g.Reset()
		do := func() {
			if events, err = disp.Dispatch(&g, &act, s, events[:0]); err != nil {
				panic("bot: value fit: " + string(act.Kind) + ": " + err.Error())
			}
		}
		act = engine.Action{Kind: engine.ActCreate, Actor: policy.UID(0), GameID: "fit", Mode: string(rng.ModeSeeded), Seed: gs}
		do()
		for i := range n {
			c, _, err := rng.ChooseOne(pick, engine.Classes, TagValueFit, nil)
			if err != nil {
				panic("bot: value fit: " + err.Error())
			}
			styleWords[i] = pick.Uint32(TagValueFit, nil)
			styles[i] = fitStyle(r, styleWords[i])
			act = engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: c}
			do()
		}
		act = engine.Action{Kind: engine.ActStart, Actor: policy.UID(0)}
		do()
		first, firstRow := len(d.players), len(d.f)
		p := &g.Public
		turn := -1
		for steps := 0; p.Phase == engine.PhasePlaying && steps < rolloutLimit; steps++ {
			if p.Turn != turn && !p.EndTriggered && p.Step != engine.StepBracket && (p.Turn+k)%stride == 0 {
				turn = p.Turn
				fc.init(p, r)
				for i := range p.Players {
					fc.featuresOf(p, r, i, &row)
					d.f = append(d.f, row[:]...)
				}
				d.players = append(d.players, len(p.Players))
				d.winner = append(d.winner, -1)
			}
			me, i := p.Player(p.Awaiting)
			styles[i].Choose(&act, p, r, me)
			do()
		}
		w := -1
		if p.Phase == engine.PhaseFinished && p.Winner != "" {
			_, w = p.Player(p.Winner)
		}
		if w < 0 {
			d.f, d.players, d.winner = d.f[:firstRow], d.players[:first], d.winner[:first]
			continue
		}
		for j := first; j < len(d.winner); j++ {
			d.winner[j] = w
		}
		for i := range n {
			won := 0
			if i == w {
				won = 1
			}
			u := styleWords[i]
			for _, c := range []*[2]int{&d.styles.sleep[u>>1%5], &d.styles.potion[u>>1/5%5], &d.styles.duel[u&1]} {
				c[0]++
				c[1] += won
			}
		}
	}
	return d
}

// fitValue sets v's weights to the maximum-likelihood fit of the
// conditional logit on d (Newton's method from 0, a small ridge, the
// nonNegative weights held at 0 once a step would take them below).
func fitValue(v *valueModel, d *fitData) {
	v.w = [numFeat]float64{}
	var fixed [numFeat]bool
	last := math.Inf(-1)
	for range valueFitIters {
		ll, grad, hess := logitStep(v, d)
		for k := range numFeat {
			grad[k] -= valueFitRidge * v.w[k]
			hess[k][k] += valueFitRidge
			if fixed[k] {
				for j := range numFeat {
					hess[k][j], hess[j][k] = 0, 0
				}
				hess[k][k], grad[k] = 1, 0
			}
		}
		step := solve(hess, grad)
		for k := range numFeat {
			v.w[k] += step[k]
			if nonNegative[k] && v.w[k] < 0 {
				v.w[k], fixed[k] = 0, true
			}
		}
		if ll-last < 1e-9 {
			break
		}
		last = ll
	}
}

// logitStep returns the mean log-likelihood of d under v, its gradient and
// the negated Hessian (positive semi-definite), all per sample.
func logitStep(v *valueModel, d *fitData) (float64, [numFeat]float64, [numFeat][numFeat]float64) {
	var grad [numFeat]float64
	var hess [numFeat][numFeat]float64
	var ll float64
	off := 0
	for s, n := range d.players {
		rows := d.f[off : off+n*numFeat]
		off += n * numFeat
		var p [maxSearchSeats]float64
		for i := range n {
			p[i] = v.score(rows[i*numFeat : (i+1)*numFeat])
		}
		softmax(p[:n])
		var mu [numFeat]float64
		for i := range n {
			for k, fk := range rows[i*numFeat : (i+1)*numFeat] {
				mu[k] += p[i] * fk
			}
		}
		w := d.winner[s]
		ll += math.Log(max(p[w], 1e-300))
		for k, fk := range rows[w*numFeat : (w+1)*numFeat] {
			grad[k] += fk - mu[k]
		}
		for i := range n {
			row := rows[i*numFeat : (i+1)*numFeat]
			var dev [numFeat]float64
			for k := range numFeat {
				dev[k] = row[k] - mu[k]
			}
			for a := range numFeat {
				if dev[a] == 0 {
					continue
				}
				pa := p[i] * dev[a]
				for b := a; b < numFeat; b++ {
					hess[a][b] += pa * dev[b]
				}
			}
		}
	}
	m := float64(max(len(d.players), 1))
	for a := range numFeat {
		grad[a] /= m
		for b := a; b < numFeat; b++ {
			hess[a][b] /= m
			hess[b][a] = hess[a][b]
		}
	}
	return ll / m, grad, hess
}

// solve returns x with a x = b by Gaussian elimination with partial
// pivoting (a is symmetric positive definite here: the ridge sees to it).
func solve(a [numFeat][numFeat]float64, b [numFeat]float64) [numFeat]float64 {
	const n = numFeat
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		if a[c][c] == 0 {
			continue
		}
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < n; k++ {
				a[r][k] -= f * a[c][k]
			}
			b[r] -= f * b[c]
		}
	}
	var x [n]float64
	for c := n - 1; c >= 0; c-- {
		if a[c][c] == 0 {
			continue
		}
		s := b[c]
		for k := c + 1; k < n; k++ {
			s -= a[c][k] * x[k]
		}
		x[c] = s / a[c][c]
	}
	return x
}
