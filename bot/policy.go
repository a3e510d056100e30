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
func (c Cautious) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		c.chooseInto(&a, p, r, me, &legalList{})
	}
	return a
}

// Choose implements Policy.
func (g Aggressive) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		g.chooseInto(&a, p, r, me, &legalList{})
	}
	return a
}

// legalRoom is the room of a decision's buffer of legal actions: enough
// for any turn of the default ruleset (a manage step lists 2 actions per
// item held, plus one).
const legalRoom = 16

// legalList is a decision's legal actions (engine.LegalActions), listed
// when first asked for: a policy lists them only where it picks among the
// actions of a kind (an item to use or discard, a player to challenge),
// as most decisions are a step's one action or one of two actions every
// player always has (move or sleep), and listing them at each of a game's
// some 170 decisions was a fifth of a simulated game's time. A search bot
// that has listed them already hands them over (ready).
type legalList struct {
	buf   []engine.Action
	ready bool
}

// get returns the legal turn actions of me, listing them if needed.
func (l *legalList) get(p *engine.Public, r *engine.Ruleset, me *engine.Player) []engine.Action {
	if !l.ready {
		l.buf, l.ready = engine.LegalActions(p, r, me.UID, engine.TurnKinds, l.buf), true
	}
	return l.buf
}

// chooser is a Policy that writes its choice into an action in place, as
// the built-in ones do: the runner's loop then copies no Action (216
// bytes) per decision more than the one it dispatches. me is the player
// the game awaits; legal lists its legal actions when asked (see choose).
type chooser interface {
	chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal *legalList)
}

func (Cautious) chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal *legalList) {
	choose(a, p, r, me, legal, cautiousStyle(r))
}

func (Aggressive) chooseInto(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal *legalList) {
	choose(a, p, r, me, legal, aggressiveStyle(r))
}

type style struct {
	potionAt, sleepAt int // use a potion / sleep at or below this HP
	duel              bool
}

// choose sets *a to the action style s picks for the player me, whom the
// game awaits:
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
//   - combat, a duel round: the step's one action.
//
// An action with a parameter (the potion, the player challenged, the item
// discarded) is one engine.LegalActions lists, picked from the list; the
// others are the actions every player the game awaits in the step may
// send (move and sleep, end the step, skip the duel, fight the round,
// re-roll or not), built directly. The legal-actions test checks that every
// choice is listed.
func choose(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player, legal *legalList, s style) {
	k := engine.ActionKind("")
	pick := -1
	switch p.Step {
	case engine.StepManage:
		k = engine.ActEndManage
		if me.HP <= s.potionAt && holdsPotion(r, me) {
			pick = firstOf(legal.get(p, r, me), engine.ActUseItem)
		}
	case engine.StepPreDuel:
		k = engine.ActSkipDuel
		if s.duel && me.HP*2 > r.MaxHP && holderOnTile(p, me) {
			pick = richestTarget(r, p, legal.get(p, r, me))
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
		pick = worstDiscard(r, legal.get(p, r, me))
	}
	if pick >= 0 {
		*a = legal.buf[pick]
		return
	}
	*a = engine.Action{Kind: k, Actor: me.UID}
}

// holdsPotion reports whether me holds a potion.
func holdsPotion(r *engine.Ruleset, me *engine.Player) bool {
	for _, id := range me.Items {
		if r.Card(id).Kind == engine.CardPotion {
			return true
		}
	}
	return false
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

// holderOnTile reports whether another player on me's tile holds an item:
// whether a dueling style could challenge anyone at all. Most turns no one
// does, and the preDuel step then skips without listing the legal actions
// (listing them at every preDuel step of the aggressive seats was 3% of a
// heuristic game's time).
func holderOnTile(p *engine.Public, me *engine.Player) bool {
	for i := range p.Players {
		if o := &p.Players[i]; o.UID != me.UID && o.Pos == me.Pos && len(o.Items) > 0 {
			return true
		}
	}
	return false
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
