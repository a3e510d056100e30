// Package bot plays the reference game without people: built-in policies
// that pick a legal action deterministically from the public state, and a
// driver ([Runner]) that plays whole seeded games through the engine.
// Bots never call the RNG; they only choose actions.
package bot

import (
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/engine"
)

// Policy chooses the next action for the player uid, which the game awaits.
// It reads only the public state and the ruleset, and must return a legal
// action (the driver treats a rejection as a bug).
type Policy interface {
	Name() string
	Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action
}

// Cautious heals early, sleeps when hurt, never challenges and re-rolls a
// defense die of 3 or less.
type Cautious struct{}

// Aggressive challenges whoever holds the best item when healthy, only
// sleeps when nearly knocked out, and re-rolls a defense die of 3 or less.
type Aggressive struct{}

// Name returns "cautious".
func (Cautious) Name() string { return "cautious" }

// Name returns "aggressive".
func (Aggressive) Name() string { return "aggressive" }

// Names lists the built-in policies.
var Names = []string{"cautious", "aggressive"}

// ByName returns the built-in policy with the name, or an error naming the
// known ones.
func ByName(name string) (Policy, error) {
	switch name {
	case "cautious":
		return Cautious{}, nil
	case "aggressive":
		return Aggressive{}, nil
	}
	return nil, fmt.Errorf("unknown bot %q (known: %s)", name, strings.Join(Names, ", "))
}

// Choose implements Policy.
func (c Cautious) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		c.chooseInto(&a, p, r, me)
	}
	return a
}

// Choose implements Policy.
func (g Aggressive) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		g.chooseInto(&a, p, r, me)
	}
	return a
}

// chooser is a Policy that writes its choice into an action in place, as
// the built-in ones do: the runner's loop then copies no Action (216 bytes)
// per decision.
// me is the player the game awaits.
type chooser interface {
	chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player)
}

func (Cautious) chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player) {
	choose(a, p, r, me, style{potionAt: r.MaxHP / 2, sleepAt: r.MaxHP * 4 / 10, duel: false})
}

func (Aggressive) chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player) {
	choose(a, p, r, me, style{potionAt: r.MaxHP * 3 / 10, sleepAt: r.MaxHP * 2 / 10, duel: true})
}

type style struct {
	potionAt, sleepAt int // use a potion / sleep at or below this HP
	duel              bool
}

// choose sets *a to the action of style s for the player me.
func choose(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, s style) {
	uid := me.UID
	*a = engine.Action{Actor: uid}
	switch p.Step {
	case engine.StepManage:
		a.Kind = engine.ActEndManage
		if me.HP <= s.potionAt {
			for _, id := range me.Items {
				if r.Card(id).Kind == engine.CardPotion {
					a.Kind, a.CardID = engine.ActUseItem, id
					break
				}
			}
		}
	case engine.StepPreDuel:
		a.Kind = engine.ActSkipDuel
		if s.duel && me.HP*2 > r.MaxHP {
			if t := richestOnTile(p, r, me); t != "" {
				a.Kind, a.Target = engine.ActOfferDuel, t
			}
		}
	case engine.StepMoveOrSleep:
		a.Kind = engine.ActMove
		if me.HP <= s.sleepAt && me.HP < r.MaxHP {
			a.Kind = engine.ActSleep
		}
	case engine.StepCombat:
		a.Kind = engine.ActCombatRound
	case engine.StepDuel, engine.StepBracket:
		d := p.Duel
		switch {
		case d != nil && d.Rolled:
			def := d.TDef
			if uid == d.Challenger && !d.CDecided {
				def = d.CDef
			}
			a.Kind = engine.ActDeclineReroll
			if def <= r.Dice.Duel/2 {
				a.Kind = engine.ActReroll
			}
		default:
			a.Kind = engine.ActDuelRound
		}
	case engine.StepCapacity:
		a.Kind, a.CardID = engine.ActDiscard, worstItem(r, me)
	}
}

// itemValue orders items: tier, then attack + defense.
func itemValue(k *engine.Card) int { return k.Tier*100 + k.Atk + k.Def }

// worstItem is the item a bot discards first: lowest value, then highest id.
func worstItem(r *engine.Ruleset, me *engine.Player) string {
	worst := ""
	for _, id := range me.Items {
		if worst == "" {
			worst = id
			continue
		}
		v, w := itemValue(r.Card(id)), itemValue(r.Card(worst))
		if v < w || (v == w && id > worst) {
			worst = id
		}
	}
	return worst
}

// richestOnTile is the player on me's tile holding the most valuable item
// (lowest uid on ties), or "" if no one there holds anything.
func richestOnTile(p *engine.Public, r *engine.Ruleset, me *engine.Player) string {
	best, bestV := "", -1
	for i := range p.Players {
		o := &p.Players[i]
		if o.UID == me.UID || o.Pos != me.Pos {
			continue
		}
		for _, id := range o.Items {
			if v := itemValue(r.Card(id)); v > bestV || (v == bestV && o.UID < best) {
				best, bestV = o.UID, v
			}
		}
	}
	return best
}
