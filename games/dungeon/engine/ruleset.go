package engine

import "github.com/fairboard/fairboard/rng"

// Ruleset is every number and list of the game a designer may change
// (GAME_RULES.md "What a designer can change"), as data. Load one with
// [LoadRules] or take [DefaultRules]; both validate it and compile the
// lookups the engine needs. A loaded Ruleset is immutable and safe to share
// between goroutines.
//
// The tags, the entropy order and the algorithms are not in the ruleset:
// they are the engine's contract. So is the set of decks ([DeckIDs]).
type Ruleset struct {
	Name           string             `json:"name"`
	MinPlayers     int                `json:"minPlayers"`     // >= 2
	MaxPlayers     int                `json:"maxPlayers"`     // >= MinPlayers
	StartHP        int                `json:"startHp"`        // 1..MaxHP
	MaxHP          int                `json:"maxHp"`          // >= 1
	KnockoutHP     int                `json:"knockoutHp"`     // HP after a knock-out, 1..MaxHP
	Capacity       int                `json:"capacity"`       // items a player may keep, >= 0
	SleepHeal      int                `json:"sleepHeal"`      // >= 0
	SpringHeal     int                `json:"springHeal"`     // Healing Spring, >= 0
	SpiritDamage   int                `json:"spiritDamage"`   // Nefarious Spirit, >= 0
	DuelRounds     int                `json:"duelRounds"`     // >= 1
	RoundLimit     int                `json:"roundLimit"`     // >= 1
	CombatRoundCap int                `json:"combatRoundCap"` // >= 1
	RetreatTiles   int                `json:"retreatTiles"`   // tiles back after the cap, >= 0
	Dice           DiceRules          `json:"dice"`
	Classes        ClassRules         `json:"classes"`
	Board          Board              `json:"board"`
	Decks          []DeckSpec         `json:"decks"`
	Composition    []CompositionTable `json:"composition"` // one per tier 1..3
	Loot           []LootTable        `json:"loot"`        // one per tier 1..3

	c compiled
}

// DiceRules are the sides of each die, each >= 1 (the turn-order die >= 2,
// so that tied players can be separated).
type DiceRules struct {
	Move       int `json:"move"`
	Combat     int `json:"combat"`
	Duel       int `json:"duel"`
	TurnOrder  int `json:"turnOrder"`
	Earthquake int `json:"earthquake"`
	MonkCancel int `json:"monkCancel"`
}

// ClassRules are the numbers of the class perks (the perks themselves are
// the engine's).
type ClassRules struct {
	WarriorAttack  int `json:"warriorAttack"`  // added to attack in combat and duels
	MonkCancelMin  int `json:"monkCancelMin"`  // monk.cancel.roll >= this cancels, 1..MonkCancel sides
	MonkSleepHeal  int `json:"monkSleepHeal"`  // replaces SleepHeal for monks
	DuelistRerolls int `json:"duelistRerolls"` // re-rolls per duel, 0 or 1
	ScoutMove      int `json:"scoutMove"`      // added to each movement roll
}

// Board is a line of Length tiles: 0 is the start, Length-1 the final tile.
// Zones give tiles 1..Length-2 their tier; Tiles lists the non-empty ones.
type Board struct {
	Length int        `json:"length"` // >= 3
	Zones  []Zone     `json:"zones"`
	Tiles  []TileSpec `json:"tiles"`
}

// Zone is the tiles From..To (inclusive) of tier Tier (1..3).
type Zone struct {
	Tier int `json:"tier"`
	From int `json:"from"`
	To   int `json:"to"`
}

// TileKind is what a tile does when a player lands on it.
type TileKind string

// The tile kinds. A tile's tier is its zone's.
const (
	TileEmpty    TileKind = "empty"
	TileStart    TileKind = "start"
	TileFinal    TileKind = "final"
	TileTreasure TileKind = "treasure"
	TileEnemy    TileKind = "enemy"
	TileChance   TileKind = "chance"
)

// TileSpec sets the kind of tile Index (1..Length-2, in a zone).
type TileSpec struct {
	Index int      `json:"index"`
	Kind  TileKind `json:"kind"`
}

// The decks, in the spec's StartGame shuffle order.
const (
	DeckTreasureT1 = iota
	DeckTreasureT2
	DeckTreasureT3
	DeckChance
	DeckEnemyT1
	DeckEnemyT2
	DeckEnemyT3
	NumDecks
)

// DeckIDs are the deck ids, in the spec's StartGame shuffle order.
var DeckIDs = [NumDecks]string{
	"treasure.t1", "treasure.t2", "treasure.t3", "chance",
	"enemy.t1", "enemy.t2", "enemy.t3",
}

// TreasureDeck returns the treasure deck of tier 1..3.
func TreasureDeck(tier int) int { return DeckTreasureT1 + tier - 1 }

// EnemyDeck returns the enemy deck of tier 1..3.
func EnemyDeck(tier int) int { return DeckEnemyT1 + tier - 1 }

// DeckSpec is one deck: its card groups in initial (pre-shuffle) order.
type DeckSpec struct {
	ID    string     `json:"id"`
	Cards []CardSpec `json:"cards"`
}

// CardKind says what a card does.
type CardKind string

// The card kinds. Treasure decks hold weapon, armor, relic, potion,
// smokeBomb and boots; the chance deck chance cards; enemy decks enemies.
const (
	CardWeapon    CardKind = "weapon"
	CardArmor     CardKind = "armor"
	CardRelic     CardKind = "relic"
	CardPotion    CardKind = "potion"
	CardSmokeBomb CardKind = "smokeBomb"
	CardBoots     CardKind = "boots"
	CardChance    CardKind = "chance"
	CardEnemy     CardKind = "enemy"
)

// Effect is a chance card's effect.
type Effect string

// The chance effects of GAME_RULES.md.
const (
	EffEarthquake      Effect = "earthquake"
	EffVitalEnergy     Effect = "vitalEnergy"
	EffMysticWave      Effect = "mysticWave"
	EffNefariousSpirit Effect = "nefariousSpirit"
	EffHealingSpring   Effect = "healingSpring"
	EffWindfall        Effect = "windfall"
	EffAmbush          Effect = "ambush"
)

// CardSpec is Count copies of a card; their ids are ID-1 .. ID-Count
// ("t1-dagger-1"). Atk and Def are weapon/armor/relic bonuses or enemy
// stats; Heal a potion's (HealToMax for an Elixir); Move the boots' bonus;
// HP an enemy's; Effect a chance card's.
type CardSpec struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	Kind      CardKind `json:"kind"`
	Count     int      `json:"count"`
	Atk       int      `json:"atk,omitempty"`
	Def       int      `json:"def,omitempty"`
	Heal      int      `json:"heal,omitempty"`
	HealToMax bool     `json:"healToMax,omitempty"`
	Move      int      `json:"move,omitempty"`
	HP        int      `json:"hp,omitempty"`
	Effect    Effect   `json:"effect,omitempty"`
}

// CompositionTable is the weighted choice of enemies for an enemy tile of
// Tier. A table with one option draws no RNG (the spec's E1).
type CompositionTable struct {
	Tier    int                 `json:"tier"`
	Options []CompositionOption `json:"options"`
}

// CompositionOption is one choice: Choice is its log name ("2xT1"), Enemies
// the tiers drawn in queue order, Weight a whole number > 0.
type CompositionOption struct {
	Choice  string  `json:"choice"`
	Enemies []int   `json:"enemies"`
	Weight  float64 `json:"weight"`
}

// LootTable is the weighted loot of an enemy of Tier.
type LootTable struct {
	Tier     int           `json:"tier"`
	Outcomes []LootOutcome `json:"outcomes"`
}

// LootOutcome draws one treasure of Tier (0: nothing); Outcome is its log
// name ("T3", "none"); Weight a whole number > 0.
type LootOutcome struct {
	Outcome string  `json:"outcome"`
	Tier    int     `json:"tier"`
	Weight  float64 `json:"weight"`
}

// Card is one physical card, compiled from its [CardSpec].
type Card struct {
	ID        string
	Name      string
	Kind      CardKind
	Deck      int // index into DeckIDs
	Tier      int // 1..3; 0 for chance cards
	Atk, Def  int
	Heal      int
	HealToMax bool
	Move      int
	HP        int
	Effect    Effect
}

// MaxEnemies is the most enemies one composition option may spawn.
const MaxEnemies = 8

// compiled holds the lookups built by validation.
type compiled struct {
	compW    [4][]rng.Weighted[int] // composition weights by tier, item = option index
	lootW    [4][]rng.Weighted[int] // loot weights by tier, item = outcome index
	hash     string
	cards    []Card
	index    map[string]int32
	ids      cardIDs            // the fast path of Card
	decks    [NumDecks][]string // initial order
	tiles    []TileKind
	tier     []int
	zoneFrom []int
}

// Hash returns the ruleset's content hash: hex SHA-256 of its canonical
// JSON (encoding/json of the Ruleset, fields in declaration order).
func (r *Ruleset) Hash() string { return r.c.hash }

// Card returns the card with the id, or nil if there is none.
func (r *Ruleset) Card(id string) *Card {
	if i := r.c.ids.find(id, r.c.cards); i >= 0 {
		return &r.c.cards[i]
	}
	i, ok := r.c.index[id]
	if !ok {
		return nil
	}
	return &r.c.cards[i]
}

// Cards returns every card, deck by deck in DeckIDs order. The slice is
// the ruleset's; do not modify it.
func (r *Ruleset) Cards() []Card { return r.c.cards }

// InitialDeck returns deck d's cards in their pre-shuffle order; the
// caller must copy before modifying.
func (r *Ruleset) InitialDeck(d int) []string { return r.c.decks[d] }

// FinalTile returns the index of the final tile, Board.Length-1.
func (r *Ruleset) FinalTile() int { return r.Board.Length - 1 }

// Tile returns the kind of tile i (0..FinalTile).
func (r *Ruleset) Tile(i int) TileKind { return r.c.tiles[i] }

// Tier returns the tier of tile i's zone, 0 if it is in none.
func (r *Ruleset) Tier(i int) int { return r.c.tier[i] }

// ZoneStart returns the first tile of tile i's zone, where a knocked-out
// player goes: tile 0 in zone 1 (and for tile 0); for a tile in no zone,
// the start of the nearest zone below it.
func (r *Ruleset) ZoneStart(i int) int { return r.c.zoneFrom[i] }

// Composition returns the table of tier 1..3.
func (r *Ruleset) CompositionFor(tier int) *CompositionTable {
	for i := range r.Composition {
		if r.Composition[i].Tier == tier {
			return &r.Composition[i]
		}
	}
	return nil
}

// LootFor returns the loot table of tier 1..3.
func (r *Ruleset) LootFor(tier int) *LootTable {
	for i := range r.Loot {
		if r.Loot[i].Tier == tier {
			return &r.Loot[i]
		}
	}
	return nil
}

// CompositionWeights returns tier's composition options as weighted items
// (item = option index) for rng.WeightedPick; shared, do not modify.
func (r *Ruleset) CompositionWeights(tier int) []rng.Weighted[int] { return r.c.compW[tier] }

// LootWeights returns tier's loot outcomes as weighted items (item =
// outcome index) for rng.WeightedPick; shared, do not modify.
func (r *Ruleset) LootWeights(tier int) []rng.Weighted[int] { return r.c.lootW[tier] }

// MaxRandomActions bounds the number of actions that can draw randomness
// in one game under the ruleset: in a trustless game, the number of
// reveal rounds, which no seat's chain may run out of (create refuses a
// chain shorter than this). It is a bound, not the usual count: a
// 4-player bot game under the default ruleset has a few hundred.
//
// Each action draws in one round at most, and only these can draw: the
// start (turn order); in each turn (RoundLimit rounds of MaxPlayers turns)
// a challenge (a monk's cancel roll), DuelRounds duel rounds, two re-rolls
// (one per duelist and duel), the move or the sleep, CombatRoundCap
// combat rounds (one fight a turn: a move resolves one tile), and one more
// for a decision that ends the last round and so starts the bracket; in
// the bracket, MaxPlayers-1 matches of DuelRounds rounds, each waiting for
// at most two re-roll decisions. Under the default ruleset:
// 1 + 40 × 6 × (1 + 3 + 2 + 1 + 30) + 1 + 5 × 3 × 2 = 8,912.
func (r *Ruleset) MaxRandomActions() int {
	perTurn := 1 + r.DuelRounds + 2 + 1 + r.CombatRoundCap
	return 1 + r.RoundLimit*r.MaxPlayers*perTurn + 1 + (r.MaxPlayers-1)*r.DuelRounds*2
}
