package bot

import (
	"math"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
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
	prior policy.Style
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
