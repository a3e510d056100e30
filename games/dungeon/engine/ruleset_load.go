package engine

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/fairboard/fairboard/internal/strictjson"
	"github.com/fairboard/fairboard/rng"
)

//go:embed rules/default.json
var defaultRulesJSON []byte

// DefaultRulesJSON returns the embedded default ruleset (GAME_RULES.md v1).
func DefaultRulesJSON() []byte { return bytes.Clone(defaultRulesJSON) }

var defaultRules = sync.OnceValue(func() *Ruleset {
	r, err := LoadRules(defaultRulesJSON)
	if err != nil {
		panic("engine: embedded default ruleset is invalid: " + err.Error())
	}
	return r
})

// DefaultRules returns the default ruleset, GAME_RULES.md's values. The
// value is shared; do not modify it.
func DefaultRules() *Ruleset { return defaultRules() }

// RulesError lists every problem found in a ruleset.
type RulesError struct {
	Problems []string
}

// Error joins the problems, one per line after a count.
func (e *RulesError) Error() string {
	return fmt.Sprintf("engine: invalid ruleset (%d problems):\n  %s", len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// LoadRules decodes a ruleset from JSON strictly, validates it and
// compiles it. Decoding refuses what encoding/json would let through: a key
// that matches a field only case-insensitively ("MaxHP" for "maxHp"), a key
// given twice in one object, unknown keys, a value of the wrong type and
// trailing data; that error is a *strictjson.Error with the line and column.
// A validation failure is a *RulesError naming every problem, not just the
// first.
func LoadRules(data []byte) (*Ruleset, error) {
	var r Ruleset
	if err := strictjson.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("engine: decoding ruleset: %w", err)
	}
	if err := r.compile(); err != nil {
		return nil, err
	}
	return &r, nil
}

// Validate compiles a ruleset built in code (for example a modified copy of
// the default) and returns a *RulesError naming every problem.
func (r *Ruleset) Validate() error { return r.compile() }

type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (r *Ruleset) compile() error {
	var p problems
	r.checkNumbers(&p)
	r.compileBoard(&p)
	r.compileDecks(&p)
	r.checkTables(&p)
	if len(p) > 0 {
		r.c = compiled{}
		return &RulesError{Problems: p}
	}
	canon, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("engine: encoding ruleset: %w", err)
	}
	for _, t := range r.Composition {
		for i, o := range t.Options {
			r.c.compW[t.Tier] = append(r.c.compW[t.Tier], rng.Weighted[int]{Item: i, Weight: o.Weight})
		}
	}
	for _, t := range r.Loot {
		for i, o := range t.Outcomes {
			r.c.lootW[t.Tier] = append(r.c.lootW[t.Tier], rng.Weighted[int]{Item: i, Weight: o.Weight})
		}
	}
	sum := sha256.Sum256(canon)
	r.c.hash = hex.EncodeToString(sum[:])
	return nil
}

func (r *Ruleset) checkNumbers(p *problems) {
	atLeast := func(name string, v, min int) {
		if v < min {
			p.add("%s is %d; it must be at least %d", name, v, min)
		}
	}
	atLeast("minPlayers", r.MinPlayers, 2)
	atLeast("maxPlayers", r.MaxPlayers, r.MinPlayers)
	atLeast("maxHp", r.MaxHP, 1)
	atLeast("startHp", r.StartHP, 1)
	atLeast("knockoutHp", r.KnockoutHP, 1)
	if r.StartHP > r.MaxHP {
		p.add("startHp %d exceeds maxHp %d", r.StartHP, r.MaxHP)
	}
	if r.KnockoutHP > r.MaxHP {
		p.add("knockoutHp %d exceeds maxHp %d", r.KnockoutHP, r.MaxHP)
	}
	atLeast("capacity", r.Capacity, 0)
	atLeast("sleepHeal", r.SleepHeal, 0)
	atLeast("springHeal", r.SpringHeal, 0)
	atLeast("spiritDamage", r.SpiritDamage, 0)
	atLeast("duelRounds", r.DuelRounds, 1)
	atLeast("roundLimit", r.RoundLimit, 1)
	atLeast("combatRoundCap", r.CombatRoundCap, 1)
	atLeast("retreatTiles", r.RetreatTiles, 0)
	d := r.Dice
	for _, s := range []struct {
		name  string
		sides int
	}{{"dice.move", d.Move}, {"dice.combat", d.Combat}, {"dice.duel", d.Duel},
		{"dice.turnOrder", d.TurnOrder}, {"dice.earthquake", d.Earthquake}, {"dice.monkCancel", d.MonkCancel}} {
		if s.sides < 1 {
			p.add("%s has %d sides; a die needs at least 1", s.name, s.sides)
		}
	}
	// Tied players re-roll until their places differ: a one-sided die
	// could never separate them.
	if d.TurnOrder == 1 && r.MaxPlayers > 1 {
		p.add("dice.turnOrder has 1 side; tied players could never be separated (need at least 2)")
	}
	c := r.Classes
	atLeast("classes.warriorAttack", c.WarriorAttack, 0)
	atLeast("classes.monkSleepHeal", c.MonkSleepHeal, 0)
	atLeast("classes.scoutMove", c.ScoutMove, 0)
	if c.MonkCancelMin < 1 || (d.MonkCancel >= 1 && c.MonkCancelMin > d.MonkCancel+1) {
		p.add("classes.monkCancelMin is %d; it must be in 1..%d (sides+1 never cancels)", c.MonkCancelMin, d.MonkCancel+1)
	}
	if c.DuelistRerolls < 0 || c.DuelistRerolls > 1 {
		p.add("classes.duelistRerolls is %d; it must be 0 or 1", c.DuelistRerolls)
	}
}

func (r *Ruleset) compileBoard(p *problems) {
	n := r.Board.Length
	if n < 3 {
		p.add("board.length is %d; it must be at least 3 (start, a tile, final)", n)
		return
	}
	r.c.tiles = make([]TileKind, n)
	r.c.tier = make([]int, n)
	for i := range r.c.tiles {
		r.c.tiles[i] = TileEmpty
	}
	r.c.tiles[0], r.c.tiles[n-1] = TileStart, TileFinal
	firstFrom := n
	for i, z := range r.Board.Zones {
		switch {
		case z.Tier < 1 || z.Tier > 3:
			p.add("board.zones[%d] has tier %d; tiers are 1..3", i, z.Tier)
		case z.From < 1 || z.To > n-2 || z.From > z.To:
			p.add("board.zones[%d] covers tiles %d..%d; zones lie within 1..%d", i, z.From, z.To, n-2)
		default:
			for t := z.From; t <= z.To; t++ {
				if r.c.tier[t] != 0 {
					p.add("board.zones[%d] overlaps another zone at tile %d", i, t)
					break
				}
				r.c.tier[t] = z.Tier
			}
			firstFrom = min(firstFrom, z.From)
		}
	}
	r.c.zoneFrom = make([]int, n)
	start := 0
	for t := 1; t < n; t++ {
		if r.c.tier[t] != 0 && r.c.tier[t-1] != r.c.tier[t] && t != firstFrom {
			start = t
		}
		r.c.zoneFrom[t] = start
	}
	seen := make(map[int]bool, len(r.Board.Tiles))
	for i, ts := range r.Board.Tiles {
		switch {
		case ts.Index < 1 || ts.Index > n-2:
			p.add("board.tiles[%d] index %d is out of range 1..%d", i, ts.Index, n-2)
			continue
		case seen[ts.Index]:
			p.add("board.tiles[%d] sets tile %d twice", i, ts.Index)
			continue
		}
		seen[ts.Index] = true
		switch ts.Kind {
		case TileEmpty:
		case TileTreasure, TileEnemy, TileChance:
			if r.c.tier[ts.Index] == 0 {
				p.add("board.tiles[%d]: %s tile %d lies in no zone, so it has no tier", i, ts.Kind, ts.Index)
			}
		default:
			p.add("board.tiles[%d] has unknown kind %q", i, ts.Kind)
			continue
		}
		r.c.tiles[ts.Index] = ts.Kind
	}
}

// deckKinds lists the card kinds each deck family accepts.
func deckAccepts(deck int, k CardKind) bool {
	switch {
	case deck <= DeckTreasureT3:
		return k == CardWeapon || k == CardArmor || k == CardRelic || k == CardPotion || k == CardSmokeBomb || k == CardBoots
	case deck == DeckChance:
		return k == CardChance
	default:
		return k == CardEnemy
	}
}

func knownEffect(e Effect) bool {
	switch e {
	case EffEarthquake, EffVitalEnergy, EffMysticWave, EffNefariousSpirit, EffHealingSpring, EffWindfall, EffAmbush:
		return true
	}
	return false
}

func (r *Ruleset) compileDecks(p *problems) {
	r.c.index = make(map[string]int32)
	found := [NumDecks]bool{}
	for i, ds := range r.Decks {
		d := -1
		for k, id := range DeckIDs {
			if id == ds.ID {
				d = k
			}
		}
		if d < 0 {
			p.add("decks[%d] has unknown id %q (the decks are %s)", i, ds.ID, strings.Join(DeckIDs[:], ", "))
			continue
		}
		if found[d] {
			p.add("decks[%d]: deck %q is defined twice", i, ds.ID)
			continue
		}
		found[d] = true
		tier := 0 // chance cards have no tier
		switch {
		case d <= DeckTreasureT3:
			tier = d - DeckTreasureT1 + 1
		case d >= DeckEnemyT1:
			tier = d - DeckEnemyT1 + 1
		}
		for j, cs := range ds.Cards {
			where := "decks[" + strconv.Itoa(i) + "].cards[" + strconv.Itoa(j) + "] (" + cs.ID + ")"
			r.checkCard(p, where, d, cs)
			for n := 1; n <= cs.Count; n++ {
				id := cs.ID + "-" + strconv.Itoa(n)
				if _, dup := r.c.index[id]; dup {
					p.add("%s: duplicate card id %q", where, id)
					continue
				}
				r.c.index[id] = int32(len(r.c.cards))
				r.c.cards = append(r.c.cards, Card{ID: id, Name: cs.Name, Kind: cs.Kind, Deck: d, Tier: tier,
					Atk: cs.Atk, Def: cs.Def, Heal: cs.Heal, HealToMax: cs.HealToMax, Move: cs.Move, HP: cs.HP, Effect: cs.Effect})
				r.c.decks[d] = append(r.c.decks[d], id)
			}
		}
	}
	for d, ok := range found {
		if !ok {
			p.add("deck %q is missing", DeckIDs[d])
		} else if len(r.c.decks[d]) == 0 {
			p.add("deck %q has no cards", DeckIDs[d])
		}
	}
	r.c.intern()
}

func (r *Ruleset) checkCard(p *problems, where string, deck int, cs CardSpec) {
	if cs.ID == "" {
		p.add("%s has no id", where)
	}
	if cs.Count < 1 {
		p.add("%s has count %d; it must be at least 1", where, cs.Count)
	}
	if !deckAccepts(deck, cs.Kind) {
		p.add("%s has kind %q, unknown or not allowed in deck %q", where, cs.Kind, DeckIDs[deck])
	}
	if cs.Atk < 0 || cs.Def < 0 || cs.Heal < 0 || cs.Move < 0 {
		p.add("%s has a negative atk, def, heal or move", where)
	}
	if cs.HP < 0 {
		p.add("%s has negative hp %d", where, cs.HP)
	}
	switch cs.Kind {
	case CardEnemy:
		if cs.HP < 1 {
			p.add("%s is an enemy with hp %d; enemies need hp >= 1", where, cs.HP)
		}
	case CardChance:
		if !knownEffect(cs.Effect) {
			p.add("%s has unknown chance effect %q", where, cs.Effect)
		}
	case CardPotion:
		if cs.Heal == 0 && !cs.HealToMax {
			p.add("%s is a potion that heals nothing", where)
		}
	}
}

func checkWeight(p *problems, where string, w float64) {
	if math.IsNaN(w) || math.IsInf(w, 0) || w <= 0 || w != math.Trunc(w) || w > 1<<31 {
		p.add("%s has weight %v; weights are whole numbers > 0", where, w)
	}
}

func (r *Ruleset) checkTables(p *problems) {
	var compSeen, lootSeen [4]bool
	for i, t := range r.Composition {
		where := "composition[" + strconv.Itoa(i) + "]"
		if t.Tier < 1 || t.Tier > 3 || compSeen[t.Tier] {
			p.add("%s has tier %d, out of 1..3 or repeated", where, t.Tier)
			continue
		}
		compSeen[t.Tier] = true
		if len(t.Options) == 0 {
			p.add("%s has no options", where)
		}
		for j, o := range t.Options {
			ow := where + ".options[" + strconv.Itoa(j) + "]"
			checkWeight(p, ow, o.Weight)
			if len(o.Enemies) == 0 || len(o.Enemies) > MaxEnemies {
				p.add("%s spawns %d enemies; options spawn 1..%d", ow, len(o.Enemies), MaxEnemies)
			}
			var need [4]int
			for _, et := range o.Enemies {
				if et < 1 || et > 3 {
					p.add("%s names enemy tier %d; tiers are 1..3", ow, et)
					continue
				}
				need[et]++
			}
			for et := 1; et <= 3; et++ {
				if have := len(r.c.decks[EnemyDeck(et)]); need[et] > have && have > 0 {
					p.add("%s draws %d enemies of tier %d but deck enemy.t%d has only %d cards", ow, need[et], et, et, have)
				}
			}
		}
	}
	for i, t := range r.Loot {
		where := "loot[" + strconv.Itoa(i) + "]"
		if t.Tier < 1 || t.Tier > 3 || lootSeen[t.Tier] {
			p.add("%s has tier %d, out of 1..3 or repeated", where, t.Tier)
			continue
		}
		lootSeen[t.Tier] = true
		if len(t.Outcomes) == 0 {
			p.add("%s has no outcomes", where)
		}
		for j, o := range t.Outcomes {
			ow := where + ".outcomes[" + strconv.Itoa(j) + "]"
			checkWeight(p, ow, o.Weight)
			if o.Tier < 0 || o.Tier > 3 {
				p.add("%s draws treasure tier %d; tiers are 0 (none) or 1..3", ow, o.Tier)
			}
		}
	}
	for t := 1; t <= 3; t++ {
		if !compSeen[t] {
			p.add("composition table for tier %d is missing", t)
		}
		if !lootSeen[t] {
			p.add("loot table for tier %d is missing", t)
		}
	}
}

// ReadRulesFile reads the ruleset at path and loads it (LoadRules). The
// error names the file: it could not be read (wrapping the *fs.PathError),
// or what LoadRules refused in it.
func ReadRulesFile(path string) (*Ruleset, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read ruleset: %w", err)
	}
	r, err := LoadRules(data)
	if err != nil {
		return nil, fmt.Errorf("invalid ruleset %s: %w", path, err)
	}
	return r, nil
}
