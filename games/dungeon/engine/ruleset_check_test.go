package engine_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// rulesCase changes one thing in a copy of the default ruleset. want lists
// the problems validation must name, one piece of text each; nil means the
// change is allowed (a value at the edge of its range).
type rulesCase struct {
	name   string
	change func(r *engine.Ruleset)
	want   []string
}

func w(s ...string) []string { return s }

// defaultCopy decodes the embedded default ruleset afresh (unvalidated).
func defaultCopy(t *testing.T) *engine.Ruleset {
	t.Helper()
	var r engine.Ruleset
	if err := json.Unmarshal(engine.DefaultRulesJSON(), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// TestRulesetNumbers: each number at the edge of its range is accepted and
// one step past it is named.
func TestRulesetNumbers(t *testing.T) {
	runRulesCases(t, []rulesCase{
		{"minPlayers 2", func(r *engine.Ruleset) { r.MinPlayers = 2 }, nil},
		{"minPlayers 1", func(r *engine.Ruleset) { r.MinPlayers = 1 }, w("minPlayers is 1; it must be at least 2")},
		{"maxPlayers = minPlayers", func(r *engine.Ruleset) { r.MaxPlayers = 2 }, nil},
		{"maxPlayers < minPlayers", func(r *engine.Ruleset) { r.MinPlayers, r.MaxPlayers = 3, 2 }, w("maxPlayers is 2; it must be at least 3")},
		{"maxHp 0", func(r *engine.Ruleset) { r.MaxHP, r.StartHP, r.KnockoutHP = 0, 0, 0 },
			w("maxHp is 0; it must be at least 1", "startHp is 0", "knockoutHp is 0")},
		{"maxHp 1", func(r *engine.Ruleset) { r.MaxHP, r.StartHP, r.KnockoutHP = 1, 1, 1 }, nil},
		{"startHp 0", func(r *engine.Ruleset) { r.StartHP = 0 }, w("startHp is 0; it must be at least 1")},
		{"startHp = maxHp", func(r *engine.Ruleset) { r.StartHP = r.MaxHP }, nil},
		{"startHp > maxHp", func(r *engine.Ruleset) { r.MaxHP = 9 }, w("startHp 10 exceeds maxHp 9")},
		{"knockoutHp 0", func(r *engine.Ruleset) { r.KnockoutHP = 0 }, w("knockoutHp is 0; it must be at least 1")},
		{"knockoutHp = maxHp", func(r *engine.Ruleset) { r.KnockoutHP = 10 }, nil},
		{"knockoutHp > maxHp", func(r *engine.Ruleset) { r.KnockoutHP = 11 }, w("knockoutHp 11 exceeds maxHp 10")},
		{"zero heals, damage, capacity, retreat", func(r *engine.Ruleset) {
			r.Capacity, r.SleepHeal, r.SpringHeal, r.SpiritDamage, r.RetreatTiles = 0, 0, 0, 0, 0
		}, nil},
		{"capacity -1", func(r *engine.Ruleset) { r.Capacity = -1 }, w("capacity is -1; it must be at least 0")},
		{"sleepHeal -1", func(r *engine.Ruleset) { r.SleepHeal = -1 }, w("sleepHeal is -1")},
		{"springHeal -1", func(r *engine.Ruleset) { r.SpringHeal = -1 }, w("springHeal is -1")},
		{"spiritDamage -1", func(r *engine.Ruleset) { r.SpiritDamage = -1 }, w("spiritDamage is -1")},
		{"retreatTiles -1", func(r *engine.Ruleset) { r.RetreatTiles = -1 }, w("retreatTiles is -1")},
		{"one round of everything", func(r *engine.Ruleset) { r.DuelRounds, r.RoundLimit, r.CombatRoundCap = 1, 1, 1 }, nil},
		{"duelRounds 0", func(r *engine.Ruleset) { r.DuelRounds = 0 }, w("duelRounds is 0; it must be at least 1")},
		{"roundLimit 0", func(r *engine.Ruleset) { r.RoundLimit = 0 }, w("roundLimit is 0; it must be at least 1")},
		{"combatRoundCap 0", func(r *engine.Ruleset) { r.CombatRoundCap = 0 }, w("combatRoundCap is 0; it must be at least 1")},
		{"one-sided dice but turn order", func(r *engine.Ruleset) {
			r.Dice = engine.DiceRules{Move: 1, Combat: 1, Duel: 1, TurnOrder: 2, Earthquake: 1, MonkCancel: 1}
			r.Classes.MonkCancelMin = 1
		}, nil},
		{"dice.move 0", func(r *engine.Ruleset) { r.Dice.Move = 0 }, w("dice.move has 0 sides; a die needs at least 1")},
		{"dice.combat 0", func(r *engine.Ruleset) { r.Dice.Combat = 0 }, w("dice.combat has 0 sides")},
		{"dice.duel 0", func(r *engine.Ruleset) { r.Dice.Duel = 0 }, w("dice.duel has 0 sides")},
		{"dice.earthquake 0", func(r *engine.Ruleset) { r.Dice.Earthquake = 0 }, w("dice.earthquake has 0 sides")},
		{"dice.monkCancel 0", func(r *engine.Ruleset) { r.Dice.MonkCancel = 0 }, w("dice.monkCancel has 0 sides")},
		{"dice.turnOrder 0", func(r *engine.Ruleset) { r.Dice.TurnOrder = 0 }, w("dice.turnOrder has 0 sides")},
		{"dice.turnOrder 1", func(r *engine.Ruleset) { r.Dice.TurnOrder = 1 }, w("dice.turnOrder has 1 side; tied players could never be separated")},
		{"zero class bonuses", func(r *engine.Ruleset) {
			r.Classes.WarriorAttack, r.Classes.MonkSleepHeal, r.Classes.ScoutMove, r.Classes.DuelistRerolls = 0, 0, 0, 0
		}, nil},
		{"warriorAttack -1", func(r *engine.Ruleset) { r.Classes.WarriorAttack = -1 }, w("classes.warriorAttack is -1")},
		{"monkSleepHeal -1", func(r *engine.Ruleset) { r.Classes.MonkSleepHeal = -1 }, w("classes.monkSleepHeal is -1")},
		{"scoutMove -1", func(r *engine.Ruleset) { r.Classes.ScoutMove = -1 }, w("classes.scoutMove is -1")},
		// monkCancelMin is 1..sides+1 (sides+1: the monk never cancels).
		{"monkCancelMin 1", func(r *engine.Ruleset) { r.Classes.MonkCancelMin = 1 }, nil},
		{"monkCancelMin 7 of a d6", func(r *engine.Ruleset) { r.Classes.MonkCancelMin = 7 }, nil},
		{"monkCancelMin 0", func(r *engine.Ruleset) { r.Classes.MonkCancelMin = 0 }, w("classes.monkCancelMin is 0; it must be in 1..7")},
		{"monkCancelMin 8 of a d6", func(r *engine.Ruleset) { r.Classes.MonkCancelMin = 8 }, w("classes.monkCancelMin is 8; it must be in 1..7")},
		{"monkCancelMin 2 of a d1", func(r *engine.Ruleset) { r.Dice.MonkCancel, r.Classes.MonkCancelMin = 1, 2 }, nil},
		{"monkCancelMin 3 of a d1", func(r *engine.Ruleset) { r.Dice.MonkCancel, r.Classes.MonkCancelMin = 1, 3 }, w("classes.monkCancelMin is 3; it must be in 1..2")},
		{"duelistRerolls 1", func(r *engine.Ruleset) { r.Classes.DuelistRerolls = 1 }, nil},
		{"duelistRerolls -1", func(r *engine.Ruleset) { r.Classes.DuelistRerolls = -1 }, w("classes.duelistRerolls is -1; it must be 0 or 1")},
		{"duelistRerolls 2", func(r *engine.Ruleset) { r.Classes.DuelistRerolls = 2 }, w("classes.duelistRerolls is 2; it must be 0 or 1")},
	})
}

// TestRulesetBoard: the board's length, zones and tiles.
func TestRulesetBoard(t *testing.T) {
	runRulesCases(t, []rulesCase{
		{"length 3", func(r *engine.Ruleset) {
			r.Board = engine.Board{Length: 3, Zones: []engine.Zone{{Tier: 1, From: 1, To: 1}}, Tiles: []engine.TileSpec{{Index: 1, Kind: engine.TileEnemy}}}
		}, nil},
		{"length 2", func(r *engine.Ruleset) { r.Board.Length = 2 }, w("board.length is 2; it must be at least 3")},
		{"zone tier 0", func(r *engine.Ruleset) { r.Board.Zones = append(r.Board.Zones, engine.Zone{Tier: 0, From: 1, To: 1}) }, w("board.zones[3] has tier 0; tiers are 1..3")},
		{"zone tier 4", func(r *engine.Ruleset) { r.Board.Zones = append(r.Board.Zones, engine.Zone{Tier: 4, From: 1, To: 1}) }, w("board.zones[3] has tier 4")},
		{"zone on the start", func(r *engine.Ruleset) { r.Board.Zones = append(r.Board.Zones, engine.Zone{Tier: 1, From: 0, To: 0}) },
			w("board.zones[3] covers tiles 0..0; zones lie within 1..34")},
		{"zone on the final tile", func(r *engine.Ruleset) { r.Board.Zones = append(r.Board.Zones, engine.Zone{Tier: 3, From: 35, To: 35}) },
			w("board.zones[3] covers tiles 35..35")},
		{"zone backwards", func(r *engine.Ruleset) { r.Board.Zones = append(r.Board.Zones, engine.Zone{Tier: 3, From: 34, To: 33}) },
			w("board.zones[3] covers tiles 34..33")},
		{"zone of one tile", func(r *engine.Ruleset) {
			r.Board.Zones = append(r.Board.Zones[:2], engine.Zone{Tier: 3, From: 24, To: 24}, engine.Zone{Tier: 3, From: 25, To: 34})
		}, nil},
		{"zones overlapping", func(r *engine.Ruleset) { r.Board.Zones = append(r.Board.Zones, engine.Zone{Tier: 2, From: 11, To: 11}) },
			w("board.zones[3] overlaps another zone at tile 11")},
		{"tile 0", func(r *engine.Ruleset) {
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 0, Kind: engine.TileEnemy})
		}, w("board.tiles[21] index 0 is out of range 1..34")},
		{"the final tile", func(r *engine.Ruleset) {
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 35, Kind: engine.TileEnemy})
		}, w("board.tiles[21] index 35 is out of range 1..34")},
		{"the tile before the final", func(r *engine.Ruleset) {
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 34, Kind: engine.TileEnemy})
		}, nil},
		{"tile 1", func(r *engine.Ruleset) {
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 1, Kind: engine.TileChance})
		}, nil},
		{"a tile set twice", func(r *engine.Ruleset) {
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 2, Kind: engine.TileEnemy})
		}, w("board.tiles[21] sets tile 2 twice")},
		{"an empty tile set", func(r *engine.Ruleset) {
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 1, Kind: engine.TileEmpty})
		}, nil},
		{"a start tile in the middle", func(r *engine.Ruleset) {
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 1, Kind: engine.TileStart})
		}, w(`board.tiles[21] has unknown kind "start"`)},
		{"a tile in no zone", func(r *engine.Ruleset) {
			r.Board.Zones[2].To = 33
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 34, Kind: engine.TileTreasure})
		}, w("board.tiles[21]: treasure tile 34 lies in no zone, so it has no tier")},
		{"an empty tile in no zone", func(r *engine.Ruleset) {
			r.Board.Zones[2].To = 33
			r.Board.Tiles = append(r.Board.Tiles, engine.TileSpec{Index: 34, Kind: engine.TileEmpty})
		}, nil},
	})
}

// TestRulesetZoneStart: where a knocked-out player goes, on a board with
// gaps between zones and zones listed out of order. Worked out from the
// rule: the first tile of the tile's zone, tile 0 in the first zone, and
// for a tile in no zone the start of the nearest zone below it.
func TestRulesetZoneStart(t *testing.T) {
	r := defaultCopy(t)
	r.Board = engine.Board{Length: 12, Zones: []engine.Zone{
		{Tier: 2, From: 5, To: 6}, {Tier: 1, From: 2, To: 3}, {Tier: 3, From: 8, To: 10},
	}}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	// tile:      0  1  2  3  4  5  6  7  8  9 10 11
	// zone tier: -  -  1  1  -  2  2  -  3  3  3  -
	want := []int{0, 0, 0, 0, 0, 5, 5, 5, 8, 8, 8, 8}
	tier := []int{0, 0, 1, 1, 0, 2, 2, 0, 3, 3, 3, 0}
	for i := range want {
		if got := r.ZoneStart(i); got != want[i] {
			t.Errorf("ZoneStart(%d) = %d, want %d", i, got, want[i])
		}
		if got := r.Tier(i); got != tier[i] {
			t.Errorf("Tier(%d) = %d, want %d", i, got, tier[i])
		}
	}
	if r.Tile(0) != engine.TileStart || r.Tile(11) != engine.TileFinal || r.Tile(5) != engine.TileEmpty || r.FinalTile() != 11 {
		t.Errorf("tiles: %s %s %s, final %d", r.Tile(0), r.Tile(11), r.Tile(5), r.FinalTile())
	}
}

// TestRulesetDecks: the decks and their cards.
func TestRulesetDecks(t *testing.T) {
	card := func(deck, i int) func(r *engine.Ruleset) *engine.CardSpec {
		return func(r *engine.Ruleset) *engine.CardSpec { return &r.Decks[deck].Cards[i] }
	}
	dagger, potion, elixir, quake, goblin := card(0, 0), card(0, 2), card(2, 2), card(3, 0), card(4, 0)
	runRulesCases(t, []rulesCase{
		{"unknown deck", func(r *engine.Ruleset) { r.Decks[3].ID = "luck" }, w(`decks[3] has unknown id "luck"`, `deck "chance" is missing`)},
		{"a deck twice", func(r *engine.Ruleset) { r.Decks = append(r.Decks, r.Decks[3]) }, w(`decks[7]: deck "chance" is defined twice`)},
		{"a deck missing", func(r *engine.Ruleset) { r.Decks = append(r.Decks[:3:3], r.Decks[4:]...) }, w(`deck "chance" is missing`)},
		{"a deck with no cards", func(r *engine.Ruleset) { r.Decks[3].Cards = nil }, w(`deck "chance" has no cards`)},
		// An empty enemy deck is named once, not again by every composition
		// that draws from it.
		{"an enemy deck with no cards", func(r *engine.Ruleset) {
			for i := range r.Decks {
				if r.Decks[i].ID == "enemy.t1" {
					r.Decks[i].Cards = nil
				}
			}
		}, w(`deck "enemy.t1" has no cards`)},
		{"a card with no id", func(r *engine.Ruleset) { dagger(r).ID = "" }, w("decks[0].cards[0] () has no id")},
		{"count 0", func(r *engine.Ruleset) { dagger(r).Count = 0 }, w("decks[0].cards[0] (t1-dagger) has count 0; it must be at least 1")},
		{"count 1", func(r *engine.Ruleset) { dagger(r).Count = 1 }, nil},
		{"a weapon in the chance deck", func(r *engine.Ruleset) { quake(r).Kind = engine.CardWeapon },
			w(`decks[3].cards[0] (chance-earthquake) has kind "weapon", unknown or not allowed in deck "chance"`)},
		{"an enemy in a treasure deck", func(r *engine.Ruleset) { dagger(r).Kind, dagger(r).HP = engine.CardEnemy, 2 }, w(`has kind "enemy", unknown or not allowed in deck "treasure.t1"`)},
		{"a chance card in a treasure deck", func(r *engine.Ruleset) { dagger(r).Kind, dagger(r).Effect = engine.CardChance, engine.EffWindfall }, w(`has kind "chance", unknown or not allowed`)},
		{"a potion in an enemy deck", func(r *engine.Ruleset) { goblin(r).Kind, goblin(r).Heal = engine.CardPotion, 1 }, w(`has kind "potion", unknown or not allowed in deck "enemy.t1"`)},
		{"every treasure kind", func(r *engine.Ruleset) {
			for i, k := range []engine.CardKind{engine.CardWeapon, engine.CardArmor, engine.CardRelic, engine.CardBoots, engine.CardSmokeBomb} {
				r.Decks[1].Cards = append(r.Decks[1].Cards, engine.CardSpec{ID: "x" + string(rune('a'+i)), Kind: k, Count: 1})
			}
		}, nil},
		{"negative atk", func(r *engine.Ruleset) { dagger(r).Atk = -1 }, w("(t1-dagger) has a negative atk, def, heal or move")},
		{"negative def", func(r *engine.Ruleset) { dagger(r).Def = -1 }, w("has a negative atk, def, heal or move")},
		{"negative heal", func(r *engine.Ruleset) { potion(r).Heal = -1 }, w("has a negative atk, def, heal or move")},
		{"negative move", func(r *engine.Ruleset) { dagger(r).Move = -1 }, w("has a negative atk, def, heal or move")},
		{"negative hp", func(r *engine.Ruleset) { dagger(r).HP = -1 }, w("(t1-dagger) has negative hp -1")},
		{"an enemy with hp 0", func(r *engine.Ruleset) { goblin(r).HP = 0 }, w("(e1-goblin) is an enemy with hp 0; enemies need hp >= 1")},
		{"an enemy with hp 1", func(r *engine.Ruleset) { goblin(r).HP = 1 }, nil},
		{"an enemy with hp -1", func(r *engine.Ruleset) { goblin(r).HP = -1 }, w("has negative hp -1", "is an enemy with hp -1")},
		{"an unknown effect", func(r *engine.Ruleset) { quake(r).Effect = "meteor" }, w(`(chance-earthquake) has unknown chance effect "meteor"`)},
		{"no effect", func(r *engine.Ruleset) { quake(r).Effect = "" }, w(`has unknown chance effect ""`)},
		{"every effect", func(r *engine.Ruleset) {
			for i, e := range []engine.Effect{engine.EffEarthquake, engine.EffVitalEnergy, engine.EffMysticWave, engine.EffNefariousSpirit,
				engine.EffHealingSpring, engine.EffWindfall, engine.EffAmbush} {
				r.Decks[3].Cards = append(r.Decks[3].Cards, engine.CardSpec{ID: "c" + string(rune('a'+i)), Kind: engine.CardChance, Count: 1, Effect: e})
			}
		}, nil},
		{"a potion that heals nothing", func(r *engine.Ruleset) { potion(r).Heal = 0 }, w("(t1-potion) is a potion that heals nothing")},
		{"a potion that heals 1", func(r *engine.Ruleset) { potion(r).Heal = 1 }, nil},
		{"an elixir that heals to the maximum", func(r *engine.Ruleset) { elixir(r).Heal = 0 }, nil},
		{"ids that collide", func(r *engine.Ruleset) { r.Decks[0].Cards[1].ID = "t1-dagger" }, w(`duplicate card id "t1-dagger-1"`, `"t1-dagger-2"`, `"t1-dagger-3"`)},
	})
}

// TestRulesetTables: the composition and loot tables.
func TestRulesetTables(t *testing.T) {
	runRulesCases(t, []rulesCase{
		{"composition tier 0", func(r *engine.Ruleset) { r.Composition[0].Tier = 0 },
			w("composition[0] has tier 0, out of 1..3 or repeated", "composition table for tier 1 is missing")},
		{"composition tier 4", func(r *engine.Ruleset) { r.Composition[2].Tier = 4 },
			w("composition[2] has tier 4", "composition table for tier 3 is missing")},
		{"composition tier repeated", func(r *engine.Ruleset) { r.Composition[1].Tier = 1 },
			w("composition[1] has tier 1, out of 1..3 or repeated", "composition table for tier 2 is missing")},
		{"no options", func(r *engine.Ruleset) { r.Composition[1].Options = nil }, w("composition[1] has no options")},
		{"weight 0", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = 0 }, w("composition[1].options[0] has weight 0; weights are whole numbers > 0")},
		{"weight -1", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = -1 }, w("options[0] has weight -1")},
		{"weight 1.5", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = 1.5 }, w("options[0] has weight 1.5")},
		{"weight +Inf", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = math.Inf(1) }, w("options[0] has weight +Inf")},
		{"weight NaN", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = math.NaN() }, w("options[0] has weight NaN")},
		{"weight 2^31", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = 1 << 31 }, nil},
		{"weight 2^31+1", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = 1<<31 + 1 }, w("options[0] has weight 2.147483649e+09")},
		{"weight 1", func(r *engine.Ruleset) { r.Composition[1].Options[0].Weight = 1 }, nil},
		{"no enemies", func(r *engine.Ruleset) { r.Composition[1].Options[0].Enemies = nil }, w("composition[1].options[0] spawns 0 enemies; options spawn 1..8")},
		{"eight enemies", func(r *engine.Ruleset) { r.Composition[1].Options[0].Enemies = []int{1, 1, 1, 1, 1, 1, 1, 1} }, nil},
		{"nine enemies", func(r *engine.Ruleset) { r.Composition[1].Options[0].Enemies = []int{1, 1, 1, 1, 1, 1, 1, 1, 1} }, w("spawns 9 enemies")},
		{"enemy tier 0", func(r *engine.Ruleset) { r.Composition[1].Options[0].Enemies = []int{0} }, w("composition[1].options[0] names enemy tier 0; tiers are 1..3")},
		{"enemy tier 4", func(r *engine.Ruleset) { r.Composition[1].Options[0].Enemies = []int{4} }, w("names enemy tier 4")},
		{"as many enemies as the deck holds", func(r *engine.Ruleset) {
			r.Decks[6].Cards = r.Decks[6].Cards[2:] // two drakes
			r.Composition[2].Options[2].Enemies = []int{3, 3}
		}, nil},
		{"more enemies than the deck holds", func(r *engine.Ruleset) {
			r.Decks[6].Cards = r.Decks[6].Cards[2:]
			r.Composition[2].Options[2].Enemies = []int{3, 3, 3}
		}, w("composition[2].options[2] draws 3 enemies of tier 3 but deck enemy.t3 has only 2 cards")},
		{"loot tier 0", func(r *engine.Ruleset) { r.Loot[0].Tier = 0 }, w("loot[0] has tier 0, out of 1..3 or repeated", "loot table for tier 1 is missing")},
		{"loot tier 4", func(r *engine.Ruleset) { r.Loot[2].Tier = 4 }, w("loot[2] has tier 4", "loot table for tier 3 is missing")},
		{"loot tier repeated", func(r *engine.Ruleset) { r.Loot[2].Tier = 2 }, w("loot[2] has tier 2", "loot table for tier 3 is missing")},
		{"no outcomes", func(r *engine.Ruleset) { r.Loot[1].Outcomes = nil }, w("loot[1] has no outcomes")},
		{"loot weight 0", func(r *engine.Ruleset) { r.Loot[1].Outcomes[2].Weight = 0 }, w("loot[1].outcomes[2] has weight 0")},
		{"treasure tier -1", func(r *engine.Ruleset) { r.Loot[1].Outcomes[2].Tier = -1 }, w("loot[1].outcomes[2] draws treasure tier -1; tiers are 0 (none) or 1..3")},
		{"treasure tier 4", func(r *engine.Ruleset) { r.Loot[1].Outcomes[2].Tier = 4 }, w("draws treasure tier 4")},
		{"treasure tier 3", func(r *engine.Ruleset) { r.Loot[1].Outcomes[2].Tier = 3 }, nil},
		{"a composition table missing", func(r *engine.Ruleset) { r.Composition = r.Composition[:2] }, w("composition table for tier 3 is missing")},
		{"a loot table missing", func(r *engine.Ruleset) { r.Loot = r.Loot[1:] }, w("loot table for tier 1 is missing")},
	})
}

// runRulesCases applies each case to a fresh copy of the default ruleset.
func runRulesCases(t *testing.T, cases []rulesCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := defaultCopy(t)
			c.change(r)
			err := r.Validate()
			if c.want == nil {
				if err != nil || len(r.Hash()) != 64 {
					t.Fatalf("a value at the edge was refused: %v", err)
				}
				return
			}
			var re *engine.RulesError
			if !errors.As(err, &re) {
				t.Fatalf("Validate = %v, want a *RulesError", err)
			}
			if len(re.Problems) != len(c.want) {
				t.Fatalf("%d problems %q, want %d naming %q", len(re.Problems), re.Problems, len(c.want), c.want)
			}
			for _, s := range c.want {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("problems %q do not name %q", re.Problems, s)
				}
			}
			if !strings.HasPrefix(err.Error(), "engine: invalid ruleset (") || r.Hash() != "" {
				t.Errorf("Error() = %q, hash %q", err.Error(), r.Hash())
			}
		})
	}
}

// TestRulesetCompiled: what validation builds from the default ruleset,
// read off the JSON by hand.
func TestRulesetCompiled(t *testing.T) {
	r := engine.DefaultRules()
	// The hash is SHA-256 of encoding/json of the ruleset.
	canon, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(canon)
	if r.Hash() != hex.EncodeToString(sum[:]) {
		t.Errorf("Hash() = %s, want SHA-256 of the canonical JSON", r.Hash())
	}
	// chance: earthquake x2, mystic x2, spirit x2, vital x2, spring x2,
	// windfall, ambush, in the file's order.
	chance := []string{"chance-earthquake-1", "chance-earthquake-2", "chance-mystic-1", "chance-mystic-2",
		"chance-spirit-1", "chance-spirit-2", "chance-vital-1", "chance-vital-2", "chance-spring-1",
		"chance-spring-2", "chance-windfall-1", "chance-ambush-1"}
	if got := r.InitialDeck(engine.DeckChance); !reflect.DeepEqual(got, chance) {
		t.Errorf("InitialDeck(chance) = %v", got)
	}
	if k := r.Card("e3-drake-2"); k == nil || k.Deck != engine.DeckEnemyT3 || k.Tier != 3 || k.HP != 8 || k.Atk != 3 || k.Kind != engine.CardEnemy {
		t.Errorf("e3-drake-2 = %+v", k)
	}
	if k := r.Card("chance-ambush-1"); k == nil || k.Tier != 0 || k.Effect != engine.EffAmbush {
		t.Errorf("chance-ambush-1 = %+v", k)
	}
	if k := r.Card("t2-sword-1"); k == nil || k.Tier != 2 || k.Deck != engine.DeckTreasureT2 {
		t.Errorf("t2-sword-1 = %+v", k)
	}
	for _, id := range []string{"t1-dagger-4", "t1-dagger", "", "chance-ambush-2"} {
		if r.Card(id) != nil {
			t.Errorf("Card(%q) exists", id)
		}
	}
	if got := r.CompositionWeights(3); !reflect.DeepEqual(got, []rng.Weighted[int]{{Item: 0, Weight: 70}, {Item: 1, Weight: 20}, {Item: 2, Weight: 10}}) {
		t.Errorf("CompositionWeights(3) = %v", got)
	}
	if got := r.LootWeights(2); !reflect.DeepEqual(got, []rng.Weighted[int]{{Item: 0, Weight: 70}, {Item: 1, Weight: 15}, {Item: 2, Weight: 15}}) {
		t.Errorf("LootWeights(2) = %v", got)
	}
	if c := r.CompositionFor(2); c == nil || c.Options[1].Choice != "1xT2" {
		t.Errorf("CompositionFor(2) = %+v", c)
	}
	if l := r.LootFor(3); l == nil || l.Outcomes[0].Outcome != "T3" || l.Outcomes[0].Tier != 3 {
		t.Errorf("LootFor(3) = %+v", l)
	}
	if r.CompositionFor(0) != nil || r.CompositionFor(4) != nil || r.LootFor(0) != nil || r.LootFor(4) != nil {
		t.Error("tables for tiers 0 or 4 exist")
	}
	if engine.TreasureDeck(1) != engine.DeckTreasureT1 || engine.TreasureDeck(3) != engine.DeckTreasureT3 ||
		engine.EnemyDeck(1) != engine.DeckEnemyT1 || engine.EnemyDeck(3) != engine.DeckEnemyT3 {
		t.Error("TreasureDeck or EnemyDeck")
	}
	// A second validation of a valid copy gives the same hash; breaking it
	// clears the hash, and mending it brings it back.
	c := defaultCopy(t)
	if err := c.Validate(); err != nil || c.Hash() != r.Hash() {
		t.Fatalf("a copy: %v, hash %s", err, c.Hash())
	}
	c.MaxHP = 0
	if c.Validate() == nil || c.Hash() != "" || c.Card("t1-dagger-1") != nil {
		t.Error("an invalid ruleset keeps its hash or cards")
	}
	c.MaxHP = 10
	if c.Validate() != nil || c.Hash() != r.Hash() {
		t.Error("mending the ruleset does not restore its hash")
	}
}

// TestLoadRulesRejectsBadJSON: syntax errors, wrong types and trailing
// data are refused before validation, naming the decoding.
func TestLoadRulesRejectsBadJSON(t *testing.T) {
	good := string(engine.DefaultRulesJSON())
	for name, in := range map[string]string{
		"not JSON":       "{",
		"a wrong type":   strings.Replace(good, `"maxHp": 10`, `"maxHp": "ten"`, 1),
		"trailing data":  good + " {}",
		"a second value": good + " 1",
	} {
		_, err := engine.LoadRules([]byte(in))
		if err == nil || !strings.HasPrefix(err.Error(), "engine: decoding ruleset: ") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := engine.LoadRules([]byte(good + "\n\t ")); err != nil {
		t.Errorf("trailing white space refused: %v", err)
	}
}

// Each card carries its deck's tier: treasure.tK and enemy.tK cards tier K,
// chance cards none (0), in every deck of the default ruleset.
func TestCardTierIsItsDecks(t *testing.T) {
	r := engine.DefaultRules()
	want := map[int]int{engine.DeckChance: 0}
	for tier := 1; tier <= 3; tier++ {
		want[engine.TreasureDeck(tier)], want[engine.EnemyDeck(tier)] = tier, tier
	}
	for d, tier := range want {
		ids := r.InitialDeck(d)
		if len(ids) == 0 {
			t.Fatalf("deck %s has no cards", engine.DeckIDs[d])
		}
		for _, id := range ids {
			if c := r.Card(id); c == nil || c.Tier != tier || c.Deck != d {
				t.Fatalf("card %s of deck %s: %+v, want tier %d", id, engine.DeckIDs[d], c, tier)
			}
		}
	}
}
