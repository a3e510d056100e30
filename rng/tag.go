package rng

// Tag names the purpose of one random decision, for audit and log
// correlation. Tags are dot-separated and spelled exactly as the spec's
// canonical list spells them.
type Tag string

// Game setup.
const (
	TagTurnOrderRoll     Tag = "turnOrder.roll"
	TagTurnOrderTieBreak Tag = "turnOrder.tieBreak.reroll"

	TagInitShuffleTreasureT1 Tag = "deck.initShuffle.treasure.t1"
	TagInitShuffleTreasureT2 Tag = "deck.initShuffle.treasure.t2"
	TagInitShuffleTreasureT3 Tag = "deck.initShuffle.treasure.t3"
	TagInitShuffleChance     Tag = "deck.initShuffle.chance"
	TagInitShuffleEnemyT1    Tag = "deck.initShuffle.enemy.t1"
	TagInitShuffleEnemyT2    Tag = "deck.initShuffle.enemy.t2"
	TagInitShuffleEnemyT3    Tag = "deck.initShuffle.enemy.t3"
)

// Per turn.
const (
	TagMoveRoll           Tag = "move.roll"
	TagEarthquakeBackRoll Tag = "chance.earthquake.backRoll"
	TagMonkCancelRoll     Tag = "monk.cancel.roll"
)

// Combat and duels.
const (
	TagCombatPlayerAttack  Tag = "combat.player.attack"
	TagCombatPlayerDefense Tag = "combat.player.defense"
	TagCombatEnemyAttack   Tag = "combat.enemy.attack"
	TagCombatEnemyDefense  Tag = "combat.enemy.defense"
	TagDuelPlayerAttack    Tag = "duel.player.attack"
	TagDuelPlayerDefense   Tag = "duel.player.defense"
	TagDuelDefenseReroll   Tag = "duel.defense.reroll"
)

// Enemies and loot.
const (
	TagEnemyCompositionT1 Tag = "enemy.composition.pick.t1"
	TagEnemyCompositionT2 Tag = "enemy.composition.pick.t2"
	TagEnemyCompositionT3 Tag = "enemy.composition.pick.t3"
	TagLootDropT1         Tag = "loot.drop.roll.t1"
	TagLootDropT2         Tag = "loot.drop.roll.t2"
	TagLootDropT3         Tag = "loot.drop.roll.t3"
)

// Tie-breakers, fallbacks and fixtures.
const (
	TagTieBreakNearest Tag = "tiebreak.nearest.pick"
	TagRandomSample    Tag = "random.sample"
	TagTestOnly        Tag = "test.only"
)

// Deck reshuffles, one per deck.
const (
	TagReshuffleTreasureT1 Tag = "deck.reshuffle.treasure.t1"
	TagReshuffleTreasureT2 Tag = "deck.reshuffle.treasure.t2"
	TagReshuffleTreasureT3 Tag = "deck.reshuffle.treasure.t3"
	TagReshuffleChance     Tag = "deck.reshuffle.chance"
	TagReshuffleEnemyT1    Tag = "deck.reshuffle.enemy.t1"
	TagReshuffleEnemyT2    Tag = "deck.reshuffle.enemy.t2"
	TagReshuffleEnemyT3    Tag = "deck.reshuffle.enemy.t3"
)

// Lazy draws from a public pile, one per deck (trustless games, which
// never order a deck in advance: see rng/trustless.DrawFromPile).
const (
	TagDrawTreasureT1 Tag = "deck.draw.treasure.t1"
	TagDrawTreasureT2 Tag = "deck.draw.treasure.t2"
	TagDrawTreasureT3 Tag = "deck.draw.treasure.t3"
	TagDrawChance     Tag = "deck.draw.chance"
	TagDrawEnemyT1    Tag = "deck.draw.enemy.t1"
	TagDrawEnemyT2    Tag = "deck.draw.enemy.t2"
	TagDrawEnemyT3    Tag = "deck.draw.enemy.t3"
)

// Tiered tags, indexed by tier 1..3 (index 0 is unused).
var (
	tagComposition = [4]Tag{"", TagEnemyCompositionT1, TagEnemyCompositionT2, TagEnemyCompositionT3}
	tagLoot        = [4]Tag{"", TagLootDropT1, TagLootDropT2, TagLootDropT3}
)

// CompositionTag returns "enemy.composition.pick.t<tier>" for tier 1..3 and
// [TagRandomSample] for any other tier.
func CompositionTag(tier int) Tag {
	if tier < 1 || tier > 3 {
		return TagRandomSample
	}
	return tagComposition[tier]
}

// LootTag returns "loot.drop.roll.t<tier>" for tier 1..3 and [TagRandomSample]
// for any other tier.
func LootTag(tier int) Tag {
	if tier < 1 || tier > 3 {
		return TagRandomSample
	}
	return tagLoot[tier]
}

// InitShuffleTag returns "deck.initShuffle.<deckID>", the tag of a deck's
// shuffle at StartGame (deckID as "treasure.t1", "chance", "enemy.t3", ...).
func InitShuffleTag(deckID string) Tag { return Tag("deck.initShuffle." + deckID) }

// ReshuffleTag returns "deck.reshuffle.<deckID>", the tag of the shuffle of a
// deck's discard pile when the deck runs out.
func ReshuffleTag(deckID string) Tag { return Tag("deck.reshuffle." + deckID) }

// DrawTag returns "deck.draw.<deckID>", the tag of a trustless game's lazy
// draw of one card from the deck's public pile.
func DrawTag(deckID string) Tag { return Tag("deck.draw." + deckID) }
