package policy

import "github.com/fairboard/fairboard/games/dungeon/engine"

// Style is how a built-in policy plays: the HP at or below which it uses
// a potion and sleeps, and whether it challenges. Cautious and Aggressive
// are two styles (CautiousStyle, AggressiveStyle); the search bot plays
// its simulations out with styles of its own (games/dungeon/tools/bot).
type Style struct {
	PotionAt, SleepAt int // use a potion / sleep at or below this HP
	Duel              bool
}

// AggressiveStyle is Aggressive's style under the ruleset.
func AggressiveStyle(r *engine.Ruleset) Style {
	return Style{PotionAt: r.MaxHP * 3 / 10, SleepAt: r.MaxHP * 2 / 10, Duel: true}
}

// CautiousStyle is Cautious's style under the ruleset (the search bot's
// default play-out style).
func CautiousStyle(r *engine.Ruleset) Style {
	return Style{PotionAt: r.MaxHP / 2, SleepAt: r.MaxHP * 4 / 10, Duel: false}
}

// StyleOf returns the style of a built-in policy (Cautious or Aggressive,
// as a value or a pointer) under the ruleset, and false for any other
// policy: a driver then picks that policy's actions itself (Style.Pick),
// with no call through the interface and no Action copied per decision.
func StyleOf(pol Policy, r *engine.Ruleset) (Style, bool) {
	switch pol.(type) {
	case Cautious, *Cautious:
		return CautiousStyle(r), true
	case Aggressive, *Aggressive:
		return AggressiveStyle(r), true
	}
	return Style{}, false
}

// Choose sets *a to the action style s picks for the player me, whom the
// game awaits (Pick), in the canonical form engine.LegalActions lists it:
// Kind, Actor (me.UID), and the CardID or Target the kind takes; every
// other field zero.
func (s Style) Choose(a *engine.Action, p *engine.Public, r *engine.Ruleset, me *engine.Player) {
	k, card, target := s.Pick(p, r, me)
	// Cleared, then set field by field: a literal of four fields assigned
	// through the pointer is built whole on the stack and then copied (360
	// bytes), which cost twice as much.
	*a = engine.Action{}
	a.Kind, a.Actor, a.CardID, a.Target = k, me.UID, card, target
}

// Pick returns the kind of the action style s picks for the player me,
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
func (s Style) Pick(p *engine.Public, r *engine.Ruleset, me *engine.Player) (k engine.ActionKind, card, target string) {
	switch p.Step {
	case engine.StepManage:
		k = engine.ActEndManage
		if me.HP <= s.PotionAt {
			if id := firstPotion(r, me); id != "" {
				k, card = engine.ActUseItem, id
			}
		}
	case engine.StepPreDuel:
		k = engine.ActSkipDuel
		if s.Duel && me.HP*2 > r.MaxHP {
			if t := richestOnTile(p, r, me); t != "" {
				k, target = engine.ActOfferDuel, t
			}
		}
	case engine.StepMoveOrSleep:
		k = engine.ActMove
		if me.HP <= s.SleepAt && me.HP < r.MaxHP {
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
