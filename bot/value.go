package bot

import (
	"fmt"
	"math"
	"sync"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/reducers"
	"github.com/fairboard/fairboard/rng"
)

// The value model: what the search bot's simulations end on. A simulation
// plays one round of turns after the decision and then asks the model who
// is likely to win from there, instead of playing the rest of the game out:
// a whole play-out's 0 or 1 is decided mostly by dice rolled long after the
// decision, and that noise hid the differences between a decision's options
// (docs/sim.md, "The search bot").
//
// The model is a conditional logit (a softmax over the players) of a
// linear score of each player's public features (featuresOf): the chance
// that player i wins is exp(w·f_i) / Σ_j exp(w·f_j). Its weights are
// fitted per ruleset and number of players, by maximum likelihood, on the
// turns of seeded games of the heuristic policies (fitValue): whatever
// numbers a designer changes, the model is learnt from games of that
// ruleset, and the fit is a pure function of the ruleset and the number of
// players, so every bot of a process (and every process) gets the same
// weights.

// The features of one player, in the order of valueModel.w. t is the
// expected number of moves the player needs to reach the final tile (its
// distance over its mean move, boots and the scout's perk included),
// sharp = 1/sqrt(1 + the fewest moves any player needs) (a lead counts
// more as the end nears), hp its HP over the maximum, loss the tiles a
// knock-out would cost it (its distance from its zone's first tile) over
// the board's length, danger the mean tier of the enemy tiles among those
// its next move may land on (over 3).
const (
	fRace       = iota // t · sharp
	fMoves             // t
	fMoved             // it has had its turn this round · sharp
	fHP                // hp
	fLowHP             // HP at most a fifth of the maximum
	fMidLoss           // HP at most two fifths of the maximum · loss
	fAtk               // attack bonus (best weapon, the warrior's perk)
	fDef               // defense bonus (best armor)
	fGearEnd           // (attack + defense) · sharp: the bracket at the end
	fHeal              // the HP its potions hold, over the maximum (capped at 1)
	fSmoke             // smoke bombs held (capped at 2)
	fWarrior           // class
	fMonk              //
	fDuelist           //
	fKORisk            // loss · (1 - hp)
	fOneMove           // t <= 1
	fMidHP             // HP at most two fifths of the maximum
	fDanger            // danger · (1 - hp)
	fDangerKO          // danger · loss · (1 - hp)
	fMonkCancel        // a monk whose cancel is unused
	fLeader            // it needs the fewest moves
	numFeat
)

// nonNegative marks the features whose weight the fit keeps at 0 or
// above: gear, potions and bombs held. A player is never worse off for
// holding one more (it may always drop it), and without the bound a noisy
// fit could give a held item a negative value, which the search would then
// act on (dropping what it holds).
var nonNegative = [numFeat]bool{fAtk: true, fDef: true, fGearEnd: true, fHeal: true, fSmoke: true}

// valueModel holds the weights of the features.
type valueModel struct {
	w [numFeat]float64
	// prior is the style whose levels won most often in the fit's games
	// (styleTally.style): the search bot's prior and its own play-out style.
	prior style
}

// featureCtx holds what the features of every player of one state share.
type featureCtx struct {
	moveMean float64
	final    float64
	sharp    float64
	tmin     float64
	t        [maxSearchSeats]float64
	moved    [maxSearchSeats]bool
}

// turnsLeft is the expected number of moves player pl needs to reach the
// final tile.
func turnsLeft(r *engine.Ruleset, pl *engine.Player, moveMean float64) float64 {
	speed := moveMean + float64(pl.MoveBonus)
	if pl.Class == engine.ClassScout {
		speed += float64(r.Classes.ScoutMove)
	}
	return float64(r.FinalTile()-pl.Pos) / max(speed, 0.5)
}

func (fc *featureCtx) init(p *engine.Public, r *engine.Ruleset) {
	fc.moveMean = float64(r.Dice.Move+1) / 2
	fc.final = float64(max(r.FinalTile(), 1))
	fc.tmin = math.Inf(1)
	n := min(len(p.Players), maxSearchSeats)
	for i := range n {
		fc.t[i] = turnsLeft(r, &p.Players[i], fc.moveMean)
		fc.tmin = min(fc.tmin, fc.t[i])
		fc.moved[i] = false
		for k, u := range p.Order {
			if u == p.Players[i].UID {
				fc.moved[i] = k < p.TurnIndex
				break
			}
		}
	}
	fc.sharp = 1 / math.Sqrt(1+max(fc.tmin, 0))
}

// featuresOf writes the features of player i of p (after init on p).
func (fc *featureCtx) featuresOf(p *engine.Public, r *engine.Ruleset, i int, f *[numFeat]float64) {
	pl := &p.Players[i]
	maxHP := float64(max(r.MaxHP, 1))
	hp := float64(pl.HP) / maxHP
	loss := float64(pl.Pos-r.ZoneStart(pl.Pos)) / fc.final
	atk, def := float64(pl.AtkBonus), float64(pl.DefBonus)
	if pl.Class == engine.ClassWarrior {
		atk += float64(r.Classes.WarriorAttack)
	}
	var heal, smoke float64
	for _, id := range pl.Items {
		switch k := r.Card(id); k.Kind {
		case engine.CardPotion:
			if k.HealToMax {
				heal += maxHP
			} else {
				heal += float64(k.Heal)
			}
		case engine.CardSmokeBomb:
			smoke++
		}
	}
	reach := r.Dice.Move + pl.MoveBonus
	if pl.Class == engine.ClassScout {
		reach += r.Classes.ScoutMove
	}
	danger := 0.0
	for x := pl.Pos + 1 + reach - r.Dice.Move; x <= pl.Pos+reach; x++ {
		if x >= 0 && x < r.FinalTile() && r.Tile(x) == engine.TileEnemy {
			danger += float64(r.Tier(x))
		}
	}
	danger /= 3 * float64(max(r.Dice.Move, 1))
	t := fc.t[i]
	low, mid := b2f(pl.HP*5 <= r.MaxHP), b2f(pl.HP*5 <= 2*r.MaxHP)
	*f = [numFeat]float64{
		fRace:       t * fc.sharp,
		fMoves:      t,
		fMoved:      b2f(fc.moved[i]) * fc.sharp,
		fHP:         hp,
		fLowHP:      low,
		fMidLoss:    mid * loss,
		fAtk:        atk,
		fDef:        def,
		fGearEnd:    (atk + def) * fc.sharp,
		fHeal:       min(heal, maxHP) / maxHP,
		fSmoke:      min(smoke, 2),
		fWarrior:    b2f(pl.Class == engine.ClassWarrior),
		fMonk:       b2f(pl.Class == engine.ClassMonk),
		fDuelist:    b2f(pl.Class == engine.ClassDuelist),
		fKORisk:     loss * (1 - hp),
		fOneMove:    b2f(t <= 1),
		fMidHP:      mid,
		fDanger:     danger * (1 - hp),
		fDangerKO:   danger * loss * (1 - hp),
		fMonkCancel: b2f(pl.Class == engine.ClassMonk && !pl.MonkCancelUsed),
		fLeader:     b2f(t == fc.tmin),
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// eval writes each player's chance to win p into out (by index in
// Players; at most maxSearchSeats).
func (v *valueModel) eval(p *engine.Public, r *engine.Ruleset, fc *featureCtx, out []float32) {
	fc.init(p, r)
	n := min(len(p.Players), maxSearchSeats)
	var s [maxSearchSeats]float64
	var f [numFeat]float64
	for i := range n {
		fc.featuresOf(p, r, i, &f)
		s[i] = v.score(f[:])
	}
	softmax(s[:n])
	for i := range n {
		out[i] = float32(s[i])
	}
}

// score is the model's linear score of one player's features f.
func (v *valueModel) score(f []float64) float64 {
	x := 0.0
	for k, fk := range f {
		x += v.w[k] * fk
	}
	return x
}

// softmax turns the scores s into probabilities, in place (shifted by the
// largest score first, so that no exponential overflows).
func softmax(s []float64) {
	top := math.Inf(-1)
	for _, x := range s {
		top = max(top, x)
	}
	sum := 0.0
	for i := range s {
		s[i] = math.Exp(s[i] - top)
		sum += s[i]
	}
	for i := range s {
		s[i] /= sum
	}
}

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
func fitStyle(r *engine.Ruleset, u uint32) style {
	return style{
		duel:     u&1 == 1,
		sleepAt:  int(u>>1%5) * r.MaxHP / 10,
		potionAt: (3 + int(u>>1/5%5)) * r.MaxHP / 10,
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
func (t *styleTally) style(r *engine.Ruleset) style {
	sl, po, du := best(t.sleep[:]), best(t.potion[:]), best(t.duel[:])
	return fitStyle(r, uint32(du)|uint32(sl+5*po)<<1)
}

// valueSamples plays `games` seeded games of n players (the seeds and the
// seats' classes and policies from seed) and records every stride-th
// turn's start with the game's winner; a game without a winner (the round
// limit with no bracket winner never happens under sane rules, but a
// ruleset may allow it) adds nothing.
func valueSamples(r *engine.Ruleset, n, games, stride int, seed string) *fitData {
	eng := engine.New(r, reducers.Table())
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
	styles := make([]style, n)
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
		act = engine.Action{Kind: engine.ActCreate, Actor: UID(0), GameID: "fit", Mode: string(rng.ModeSeeded), Seed: gs}
		do()
		for i := range n {
			c, _, err := rng.ChooseOne(pick, engine.Classes, TagValueFit, nil)
			if err != nil {
				panic("bot: value fit: " + err.Error())
			}
			styleWords[i] = pick.Uint32(TagValueFit, nil)
			styles[i] = fitStyle(r, styleWords[i])
			act = engine.Action{Kind: engine.ActJoin, Actor: UID(i), Seat: i, Class: c}
			do()
		}
		act = engine.Action{Kind: engine.ActStart, Actor: UID(0)}
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
			choose(&act, p, r, me, styles[i])
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
