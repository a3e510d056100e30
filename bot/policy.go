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

// Names lists the bots by name: the built-in policies, and the search bot
// mcts:N (N simulations per decision, 1 to MaxSimulations).
var Names = []string{"cautious", "aggressive", "mcts:N"}

// Heuristics lists the built-in (heuristic) policies.
var Heuristics = []string{"cautious", "aggressive"}

// ByName returns the bot with the name ("cautious", "aggressive" or
// "mcts:N"), or an error naming the known ones. A search bot is a new one
// (one per seat: it keeps a seat's memory and stream); the built-in
// policies are values.
func ByName(name string) (Policy, error) {
	switch name {
	case "cautious":
		return Cautious{}, nil
	case "aggressive":
		return Aggressive{}, nil
	}
	switch m, err := parseMCTS(name); {
	case err != nil:
		return nil, err
	case m != nil:
		return m, nil
	}
	return nil, fmt.Errorf("unknown bot %q (known: %s)", name, strings.Join(Names, ", "))
}

// Choose implements Policy.
func (Cautious) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		choose(&a, p, r, me, cautiousStyle(r))
	}
	return a
}

// Choose implements Policy.
func (Aggressive) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		choose(&a, p, r, me, aggressiveStyle(r))
	}
	return a
}

// legalRoom is the room of a decision's buffer of legal actions: enough
// for any turn of the default ruleset (a manage step lists 2 actions per
// item held, plus one).
const legalRoom = 16

// builtInStyle returns the style of a built-in policy (Cautious or
// Aggressive, as a value or a pointer) under the ruleset, and false for any
// other policy: the runner then picks that policy's actions itself (pick),
// with no call through the interface and no Action copied per decision.
func builtInStyle(pol Policy, r *engine.Ruleset) (style, bool) {
	switch pol.(type) {
	case Cautious, *Cautious:
		return cautiousStyle(r), true
	case Aggressive, *Aggressive:
		return aggressiveStyle(r), true
	}
	return style{}, false
}

type style struct {
	potionAt, sleepAt int // use a potion / sleep at or below this HP
	duel              bool
}

// choose sets *a to the action style s picks for the player me, whom the
// game awaits (pick), in the canonical form engine.LegalActions lists it:
// Kind, Actor (me.UID), and the CardID or Target the kind takes; every
// other field zero.
func choose(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, s style) {
	k, card, target := pick(p, r, me, s)
	// Cleared, then set field by field: a literal of four fields assigned
	// through the pointer is built whole on the stack and then copied (360
	// bytes), which cost twice as much.
	*a = engine.Action{}
	a.Kind, a.Actor, a.CardID, a.Target = k, me.UID, card, target
}

// pick returns the kind of the action style s picks for the player me,
// whom the game awaits, and its card or target ("" if the kind takes
// none):
//
//   - manage: use the first potion held (inventory order) when HP is at or
//     below potionAt, else end the step;
//   - preDuel: with the dueling style and more than half the maximum HP,
//     challenge whoever on the tile holds the most valuable item (lowest
//     uid on ties), else skip;
//   - moveOrSleep: sleep at or below sleepAt HP (if not at the maximum),
//     else move;
//   - a duelist's re-roll: re-roll a defense die of at most half the die;
//   - capacity: discard the least valuable item (highest id on ties);
//   - combat, a duel round: the step's one action.
//
// It reads the state as engine.LegalActions does: a potion to use is a
// held card of kind potion, a player to challenge another player on me's
// tile, a card to discard a held one. The policies once picked from the
// list itself; listing it at the decisions that pick (a potion, a
// challenge, a discard) was 3% of a heuristic game's time, where this
// reads only what it picks from. A test (TestBuiltInChoicesAreListed)
// checks over whole games that every choice is listed, equal to the
// listed action field for field.
func pick(p *engine.Public, r *engine.Ruleset, me *engine.Player, s style) (k engine.ActionKind, card, target string) {
	switch p.Step {
	case engine.StepManage:
		k = engine.ActEndManage
		if me.HP <= s.potionAt {
			if id := firstPotion(r, me); id != "" {
				k, card = engine.ActUseItem, id
			}
		}
	case engine.StepPreDuel:
		k = engine.ActSkipDuel
		if s.duel && me.HP*2 > r.MaxHP {
			if t := richestOnTile(p, r, me); t != "" {
				k, target = engine.ActOfferDuel, t
			}
		}
	case engine.StepMoveOrSleep:
		k = engine.ActMove
		if me.HP <= s.sleepAt && me.HP < r.MaxHP {
			k = engine.ActSleep
		}
	case engine.StepCombat:
		k = engine.ActCombatRound
	case engine.StepDuel, engine.StepBracket:
		k = engine.ActDuelRound
		if d := p.Duel; d != nil && d.Rolled {
			def := d.TDef
			if me.UID == d.Challenger && !d.CDecided {
				def = d.CDef
			}
			k = engine.ActDeclineReroll
			if def <= r.Dice.Duel/2 {
				k = engine.ActReroll
			}
		}
	case engine.StepCapacity:
		if id := worstItem(r, me); id != "" {
			k, card = engine.ActDiscard, id
		}
	}
	return k, card, target
}

// firstPotion returns the first potion me holds (inventory order), or "".
func firstPotion(r *engine.Ruleset, me *engine.Player) string {
	for _, id := range me.Items {
		if r.Card(id).Kind == engine.CardPotion {
			return id
		}
	}
	return ""
}

// itemValue orders items: tier, then attack + defense.
func itemValue(k *engine.Card) int { return k.Tier*100 + k.Atk + k.Def }

// worstItem returns the item a bot discards first: lowest value, then
// highest id; "" if me holds nothing.
func worstItem(r *engine.Ruleset, me *engine.Player) string {
	worst, worstV := "", 0
	for _, id := range me.Items {
		v := itemValue(r.Card(id))
		if worst == "" || v < worstV || (v == worstV && id > worst) {
			worst, worstV = id, v
		}
	}
	return worst
}

// richestOnTile returns the player on me's tile holding the most valuable
// item (lowest uid on ties), or "" if no one there holds anything.
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
