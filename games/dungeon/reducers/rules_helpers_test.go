package reducers_test

// The rules suite (rules_*_test.go) pins every rule of docs/rules.md
// against outcomes worked out by hand. Each test builds the state it needs
// directly (newGame and the helpers below), scripts the exact 32-bit words
// the RNG will return, dispatches one action through the engine and
// compares the resulting state and log with values computed in comments.
//
// How a word becomes a value (the spec's uniformInt: n = span, limit =
// floor(2^32/n)*n, a word w < limit gives w % n, a word >= limit is
// rejected and the next word is read):
//
//   - d4: n = 4 divides 2^32, every word is accepted, value = 1 + w%4.
//   - d6: limit = floor(4294967296/6)*6 = 715827882*6 = 4294967292; the
//     four words 4294967292..4294967295 are rejected.
//   - weighted picks of the default tables sum to 100: limit =
//     42949672*100 = 4294967200, r = w % 100.
//   - chooseOne of 3: limit = 1431655765*3 = 4294967295, only the word
//     4294967295 is rejected; of 2: every word, index = w % 2.
//   - a shuffle of n cards reads one value j = uniformInt(0, i) for i =
//     n-1 down to 1 and swaps positions i and j.
//
// So the die value v is the word v-1 (die below), and a weighted draw r is
// the word r.

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/rng"
)

// script is an rng.Source returning chosen words in order. Reading past the
// end is recorded (and returns 0) so that the test can fail with a message
// instead of the stream looping.
type script struct {
	words []uint32
	next  int
	over  int
}

func (s *script) Uint32() uint32 {
	if s.next >= len(s.words) {
		s.over++
		return 0
	}
	w := s.words[s.next]
	s.next++
	return w
}

// Words the tests name.
const (
	rejectD6  uint32 = 4294967292 // floor(2^32/6)*6: the first word a d6 rejects
	topD6     uint32 = 4294967291 // the last word a d6 accepts: 4294967291 % 6 = 5, a 6
	reject100 uint32 = 4294967200 // floor(2^32/100)*100: the first word a weight sum of 100 rejects
	top100    uint32 = 4294967199 // the last accepted: r = 99
	reject3   uint32 = 4294967295 // the only word chooseOne of 3 rejects
)

// die returns the word that rolls v on any die (v-1 < every limit).
func die(v int) uint32 { return uint32(v - 1) }

// dice returns the words of several die values.
func dice(vs ...int) []uint32 {
	w := make([]uint32, len(vs))
	for i, v := range vs {
		w[i] = die(v)
	}
	return w
}

// words concatenates word lists.
func words(parts ...[]uint32) []uint32 { return slices.Concat(parts...) }

// identity returns the shuffle words that leave n cards in their order:
// j = i for each i from n-1 down to 1 (the word i gives i % (i+1) = i).
func identity(n int) []uint32 {
	var w []uint32
	for i := n - 1; i >= 1; i-- {
		w = append(w, uint32(i))
	}
	return w
}

// engines holds the engine of each ruleset a test plays under, by hash.
var engines = map[string]*engine.Engine{rules.Hash(): newEngine()}

// variant returns the default ruleset with the JSON fields set (path
// "classes.duelistRerolls" style), registered for do.
func variant(t *testing.T, set map[string]any) *engine.Ruleset {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(engine.DefaultRulesJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	for path, v := range set {
		m := doc
		keys := strings.Split(path, ".")
		for _, k := range keys[:len(keys)-1] {
			m = m[k].(map[string]any)
		}
		m[keys[len(keys)-1]] = v
	}
	b, _ := json.Marshal(doc)
	r, err := engine.LoadRules(b)
	if err != nil {
		t.Fatal(err)
	}
	if engines[r.Hash()] == nil {
		engines[r.Hash()] = engine.New(r, reducers.Table())
	}
	return r
}

// engineOf returns the engine of the ruleset a game was made under (the
// default's for a game not yet created).
func engineOf(g *engine.Game) *engine.Engine {
	if e := engines[g.Public.RulesHash]; e != nil {
		return e
	}
	return engines[rules.Hash()]
}

// ruleOf returns the ruleset a game was made under.
func ruleOf(g *engine.Game) *engine.Ruleset { return engineOf(g).Rules() }

// pc returns a seated player: uid, seat, class, tile, HP and items.
func pc(uid string, seat int, class engine.Class, pos, hp int, items ...string) engine.Player {
	return engine.Player{UID: uid, Seat: seat, Class: class, Pos: pos, HP: hp, Items: items}
}

// Short names of the classes.
const (
	warrior = engine.ClassWarrior
	monk    = engine.ClassMonk
	duelist = engine.ClassDuelist
	scout   = engine.ClassScout
)

// newGame builds a game in play under the default ruleset: the players in
// turn order (each seated at its own Seat), round 1, the first player's
// turn in step moveOrSleep, every card not held by a player in its deck's
// draw pile in the ruleset's initial order.
func newGame(ps ...engine.Player) *engine.Game { return newGameOn(rules, ps...) }

// newGameOn is newGame under the ruleset r.
func newGameOn(r *engine.Ruleset, ps ...engine.Player) *engine.Game {
	g := &engine.Game{}
	p := &g.Public
	p.GameID, p.Owner, p.RulesHash = "rules-test", ps[0].UID, r.Hash()
	p.Phase, p.Version = engine.PhasePlaying, 9
	p.RNG.Mode = rng.ModeSeeded
	g.Secret.Seed = "scripted"
	p.Round, p.Turn = 1, 1
	for _, pl := range ps {
		pl.Items = slices.Clone(pl.Items)
		setBonuses(r, &pl)
		p.Players = append(p.Players, pl)
		p.Order = append(p.Order, pl.UID)
	}
	slices.SortFunc(p.Players, func(a, b engine.Player) int { return a.Seat - b.Seat })
	p.Decks = make([]engine.DeckInfo, engine.NumDecks)
	g.Secret.Decks = make([]engine.SecretDeck, engine.NumDecks)
	for d := range engine.NumDecks {
		p.Decks[d].ID, g.Secret.Decks[d].ID = engine.DeckIDs[d], engine.DeckIDs[d]
	}
	refill(g)
	turnOf(g, ps[0].UID, engine.StepMoveOrSleep)
	return g
}

// setBonuses derives a built player's bonuses from its items as
// GAME_RULES says (written apart from the reducers' own recompute): the
// best weapon's attack, the best armor's defense (a relic is both), the
// best boots' move.
func setBonuses(r *engine.Ruleset, pl *engine.Player) {
	pl.AtkBonus, pl.DefBonus, pl.MoveBonus = 0, 0, 0
	for _, id := range pl.Items {
		k := r.Card(id)
		if k.Kind == engine.CardWeapon || k.Kind == engine.CardRelic {
			pl.AtkBonus = max(pl.AtkBonus, k.Atk)
		}
		if k.Kind == engine.CardArmor || k.Kind == engine.CardRelic {
			pl.DefBonus = max(pl.DefBonus, k.Def)
		}
		if k.Kind == engine.CardBoots {
			pl.MoveBonus = max(pl.MoveBonus, k.Move)
		}
	}
}

// refill puts every card that is in no inventory, discard pile or enemy
// queue into its deck's draw pile, keeping the cards already there on top
// in their order and adding the others in the ruleset's initial order.
func refill(g *engine.Game) {
	r := ruleOf(g)
	placed := map[string]bool{}
	for _, pl := range g.Public.Players {
		for _, id := range pl.Items {
			placed[id] = true
		}
	}
	for _, d := range g.Public.Decks {
		for _, id := range d.Discard {
			placed[id] = true
		}
	}
	if cb := g.Public.Combat; cb != nil {
		for _, e := range cb.Enemies {
			placed[e.CardID] = true
		}
	}
	for d := range engine.NumDecks {
		var pile []string
		for _, id := range g.Secret.Decks[d].Cards {
			if !placed[id] {
				pile = append(pile, id)
				placed[id] = true
			}
		}
		for _, id := range r.InitialDeck(d) {
			if !placed[id] {
				pile = append(pile, id)
			}
		}
		g.Secret.Decks[d].Cards = pile
		g.Public.Decks[d].Size = len(pile)
	}
}

// stack puts the cards on top of deck d's draw pile, first card on top.
func stack(g *engine.Game, d int, ids ...string) {
	sec := &g.Secret.Decks[d]
	rest := slices.DeleteFunc(slices.Clone(sec.Cards), func(id string) bool { return slices.Contains(ids, id) })
	sec.Cards = append(slices.Clone(ids), rest...)
	refill(g)
}

// piles sets deck d's draw pile and discard pile exactly; the deck's other
// cards are then nowhere, so the game no longer passes Game.Check (do then
// skips that check).
func piles(g *engine.Game, d int, draw, discard []string) {
	g.Secret.Decks[d].Cards = slices.Clone(draw)
	g.Public.Decks[d].Size = len(draw)
	g.Public.Decks[d].Discard = slices.Clone(discard)
}

// turnOf makes it uid's turn, in the step, awaiting uid.
func turnOf(g *engine.Game, uid string, step engine.Step) {
	p := &g.Public
	p.Current, p.Awaiting, p.Step = uid, uid, step
	p.TurnIndex = slices.Index(p.Order, uid)
}

// foe returns an enemy of the queue with the card's stats at full HP.
func foe(id string) engine.Enemy {
	k := rules.Card(id)
	return engine.Enemy{CardID: id, Tier: k.Tier, HP: k.HP, Atk: k.Atk, Def: k.Def}
}

// hurt returns the enemy with hp left.
func hurt(e engine.Enemy, hp int) engine.Enemy { e.HP = hp; return e }

// fight puts the current player in a fight (combat id "c1") against the
// enemies on its tile, in step combat.
func fight(g *engine.Game, tier int, es ...engine.Enemy) {
	p := &g.Public
	pl, _ := p.Player(p.Current)
	p.NextID = max(p.NextID, 1)
	p.Combat = &engine.Combat{ID: "c1", UID: pl.UID, TileID: pl.Pos, Tier: tier, Cause: "tile", Enemies: es}
	p.Step = engine.StepCombat
	refill(g)
}

// duel puts the current player in a duel (id "d1") against the target, in
// step duel.
func duel(g *engine.Game, target string) {
	p := &g.Public
	p.NextID = max(p.NextID, 1)
	p.Duel = &engine.Duel{ID: "d1", Challenger: p.Current, Target: target}
	p.Step = engine.StepDuel
}
