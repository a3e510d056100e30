package sim

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// DuelCancelReasons are the reasons of DuelCancelled events the engine
// emits (reducers/duel.go): a smoke bomb spent by the target, a monk's
// cancel roll. A reason outside this list fails the game with an error
// naming it, rather than going uncounted.
var DuelCancelReasons = []string{"monk", "smokeBomb"}

// The fixed per-player counters of a game, in players.csv column order
// after the identifying columns. The ruleset's own (cancellation reasons,
// loot outcomes, items, chance effects) follow them; see schema.
const (
	cKnockouts = iota
	cChallenges
	cFought
	cDecided
	cChallengesWon
	cCombat // cCombat + 3*(tier-1) + {0: fought, 1: won, 2: rounds}
	nFixed  = cCombat + 3*3
)

// schema lays out the per-player counters of one ruleset: the fixed ones,
// then one per duel cancellation reason, per loot outcome of each tier, per
// usable item kind and per chance effect. It fixes the columns of
// players.csv before the first game.
type schema struct {
	width   int      // counters per player
	reasons []string // DuelCancelReasons
	loot    [4][]string
	lootAt  [4]int // first counter of tier t's outcomes
	items   []string
	itemAt  int
	itemOf  map[string]int // card id ("t1-potion-2") → index in items
	effects []string
	chAt    int
}

// newSchema derives the counters of a ruleset: loot outcomes from its loot
// tables, items from the potions and smoke bombs of its treasure decks (the
// cards a player uses), effects from its chance deck. Lists are sorted, as
// the measures are.
func newSchema(r *engine.Ruleset) *schema {
	s := &schema{reasons: DuelCancelReasons, itemOf: map[string]int{}}
	at := nFixed + len(s.reasons)
	for tier := 1; tier <= 3; tier++ {
		s.lootAt[tier] = at
		if t := r.LootFor(tier); t != nil {
			for _, o := range t.Outcomes {
				if !slices.Contains(s.loot[tier], o.Outcome) {
					s.loot[tier] = append(s.loot[tier], o.Outcome)
				}
			}
		}
		slices.Sort(s.loot[tier])
		at += len(s.loot[tier])
	}
	var effects []string
	for _, c := range r.Cards() {
		switch c.Kind {
		case engine.CardPotion, engine.CardSmokeBomb:
			if k := cardKind(c.ID); !slices.Contains(s.items, k) {
				s.items = append(s.items, k)
			}
		case engine.CardChance:
			if !slices.Contains(effects, string(c.Effect)) {
				effects = append(effects, string(c.Effect))
			}
		}
	}
	slices.Sort(s.items)
	slices.Sort(effects)
	s.effects = effects
	for _, c := range r.Cards() {
		if i := slices.Index(s.items, cardKind(c.ID)); i >= 0 && (c.Kind == engine.CardPotion || c.Kind == engine.CardSmokeBomb) {
			s.itemOf[c.ID] = i
		}
	}
	s.itemAt = at
	s.chAt = at + len(s.items)
	s.width = s.chAt + len(s.effects)
	return s
}

// reason returns the counter of a duel cancellation reason.
func (s *schema) reason(r string) (int, error) {
	if i := slices.Index(s.reasons, r); i >= 0 {
		return nFixed + i, nil
	}
	return 0, fmt.Errorf("sim: duel cancelled for an unknown reason %q (add it to sim.DuelCancelReasons)", r)
}

// lootOutcome returns the counter of a loot outcome of a tier.
func (s *schema) lootOutcome(tier int, outcome string) (int, error) {
	if tier >= 1 && tier <= 3 {
		if i := slices.Index(s.loot[tier], outcome); i >= 0 {
			return s.lootAt[tier] + i, nil
		}
	}
	return 0, fmt.Errorf("sim: loot outcome %q of tier %d is not in the ruleset", outcome, tier)
}

// item returns the counter of a used card.
func (s *schema) item(cardID string) (int, error) {
	if i, ok := s.itemOf[cardID]; ok {
		return s.itemAt + i, nil
	}
	return 0, fmt.Errorf("sim: item %q used, but it is no potion or smoke bomb of the ruleset", cardID)
}

// effect returns the counter of a chance effect.
func (s *schema) effect(e string) (int, error) {
	if i := slices.Index(s.effects, e); i >= 0 {
		return s.chAt + i, nil
	}
	return 0, fmt.Errorf("sim: chance effect %q is not in the ruleset's chance deck", e)
}

// header returns the counters' players.csv column names, in order.
func (s *schema) header() []string {
	h := []string{"knockouts", "challenges", "challenges_fought", "challenges_decided", "challenges_won"}
	for tier := 1; tier <= 3; tier++ {
		t := strconv.Itoa(tier)
		h = append(h, "combats_t"+t, "combats_won_t"+t, "combat_rounds_t"+t)
	}
	for _, r := range s.reasons {
		h = append(h, "challenges_cancelled_"+r)
	}
	for tier := 1; tier <= 3; tier++ {
		for _, o := range s.loot[tier] {
			h = append(h, "loot_t"+strconv.Itoa(tier)+"_"+o)
		}
	}
	for _, it := range s.items {
		h = append(h, "used_"+it)
	}
	for _, e := range s.effects {
		h = append(h, "chance_"+e)
	}
	return h
}
