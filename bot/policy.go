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
	var buf [legalRoom]engine.Action
	if me, _ := p.Player(uid); me != nil {
		c.chooseInto(&a, p, r, me, engine.LegalActions(p, r, uid, engine.TurnKinds, buf[:0]))
	}
	return a
}

// Choose implements Policy.
func (g Aggressive) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	var buf [legalRoom]engine.Action
	if me, _ := p.Player(uid); me != nil {
		g.chooseInto(&a, p, r, me, engine.LegalActions(p, r, uid, engine.TurnKinds, buf[:0]))
	}
	return a
}

// legalRoom is the room of a decision's buffer of legal actions: enough
// for any turn of the default ruleset (a manage step lists 2 actions per
// item held, plus one).
const legalRoom = 16

// chooser is a Policy that writes its choice into an action in place, as
// the built-in ones do: the runner's loop then copies no Action (216 bytes)
// per decision more than the one it dispatches. me is the player the game
// awaits and legal its legal turn actions (engine.LegalActions), of which
// the choice is one (the zero Action if legal is empty).
type chooser interface {
	chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal []engine.Action)
}

func (Cautious) chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal []engine.Action) {
	choose(a, p, r, me, legal, style{potionAt: r.MaxHP / 2, sleepAt: r.MaxHP * 4 / 10, duel: false})
}

func (Aggressive) chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal []engine.Action) {
	choose(a, p, r, me, legal, style{potionAt: r.MaxHP * 3 / 10, sleepAt: r.MaxHP * 2 / 10, duel: true})
}

type style struct {
	potionAt, sleepAt int // use a potion / sleep at or below this HP
	duel              bool
}

// choose sets *a to the legal action that style s picks for the player me
// (the zero Action when legal is empty). The legal list is in
// engine.LegalActions' order: by kind, then inventory order, then seat
// order.
//
//   - manage: the first potion held (inventory order) when HP is at or
//     below potionAt, else end the step;
//   - preDuel: with the dueling style and more than half the maximum HP,
//     challenge whoever on the tile holds the most valuable item (lowest
//     uid on ties), else skip;
//   - moveOrSleep: sleep at or below sleepAt HP (if not at the maximum),
//     else move;
//   - a duelist's re-roll: re-roll a defense die of at most half the die;
//   - capacity: discard the least valuable item (highest id on ties);
//   - any other step: its one action.
func choose(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal []engine.Action, s style) {
	pick := -1
	switch p.Step {
	case engine.StepManage:
		if me.HP <= s.potionAt {
			pick = firstOf(legal, engine.ActUseItem)
		}
		if pick < 0 {
			pick = firstOf(legal, engine.ActEndManage)
		}
	case engine.StepPreDuel:
		if s.duel && me.HP*2 > r.MaxHP {
			pick = richestTarget(r, p, legal)
		}
		if pick < 0 {
			pick = firstOf(legal, engine.ActSkipDuel)
		}
	case engine.StepMoveOrSleep:
		if me.HP <= s.sleepAt && me.HP < r.MaxHP {
			pick = firstOf(legal, engine.ActSleep)
		} else {
			pick = firstOf(legal, engine.ActMove)
		}
	case engine.StepDuel, engine.StepBracket:
		if d := p.Duel; d != nil && d.Rolled {
			def := d.TDef
			if me.UID == d.Challenger && !d.CDecided {
				def = d.CDef
			}
			pick = firstOf(legal, engine.ActDeclineReroll)
			if def <= r.Dice.Duel/2 {
				pick = firstOf(legal, engine.ActReroll)
			}
		}
	case engine.StepCapacity:
		pick = worstDiscard(r, legal)
	}
	if pick < 0 && len(legal) > 0 {
		pick = 0 // a step of one action: combat, a duel round
	}
	if pick < 0 {
		*a = engine.Action{}
		return
	}
	*a = legal[pick]
}

// firstOf returns the index of the first action of kind k, or -1.
func firstOf(legal []engine.Action, k engine.ActionKind) int {
	for i := range legal {
		if legal[i].Kind == k {
			return i
		}
	}
	return -1
}

// itemValue orders items: tier, then attack + defense.
func itemValue(k *engine.Card) int { return k.Tier*100 + k.Atk + k.Def }

// worstDiscard returns the index of the discard of the item a bot
// discards first: lowest value, then highest id; -1 if there is none.
func worstDiscard(r *engine.Ruleset, legal []engine.Action) int {
	worst := -1
	for i := range legal {
		if legal[i].Kind != engine.ActDiscard {
			continue
		}
		if worst < 0 {
			worst = i
			continue
		}
		id, w := legal[i].CardID, legal[worst].CardID
		v, wv := itemValue(r.Card(id)), itemValue(r.Card(w))
		if v < wv || (v == wv && id > w) {
			worst = i
		}
	}
	return worst
}

// richestTarget returns the index of the challenge of the player holding
// the most valuable item among those the legal challenges name (lowest uid
// on ties), or -1 if none of them holds anything.
func richestTarget(r *engine.Ruleset, p *engine.Public, legal []engine.Action) int {
	best, bestV, bestUID := -1, -1, ""
	for i := range legal {
		if legal[i].Kind != engine.ActOfferDuel {
			continue
		}
		o, _ := p.Player(legal[i].Target)
		if o == nil {
			continue
		}
		for _, id := range o.Items {
			if v := itemValue(r.Card(id)); v > bestV || (v == bestV && o.UID < bestUID) {
				best, bestV, bestUID = i, v, o.UID
			}
		}
	}
	return best
}
