package reducers

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
)

var initTags = [engine.NumDecks]rng.Tag{
	rng.TagInitShuffleTreasureT1, rng.TagInitShuffleTreasureT2, rng.TagInitShuffleTreasureT3,
	rng.TagInitShuffleChance, rng.TagInitShuffleEnemyT1, rng.TagInitShuffleEnemyT2, rng.TagInitShuffleEnemyT3,
}

var drawTags = [engine.NumDecks]rng.Tag{
	rng.TagDrawTreasureT1, rng.TagDrawTreasureT2, rng.TagDrawTreasureT3,
	rng.TagDrawChance, rng.TagDrawEnemyT1, rng.TagDrawEnemyT2, rng.TagDrawEnemyT3,
}

var reshuffleTags = [engine.NumDecks]rng.Tag{
	rng.TagReshuffleTreasureT1, rng.TagReshuffleTreasureT2, rng.TagReshuffleTreasureT3,
	rng.TagReshuffleChance, rng.TagReshuffleEnemyT1, rng.TagReshuffleEnemyT2, rng.TagReshuffleEnemyT3,
}

// shuffleDeck shuffles deck d's draw pile in place with one rng.Shuffle and
// logs DeckShuffled with the commitment to the new order (Ctx.CommitShuffle;
// the order itself, and the spec's headPreview, stay out of the log).
func shuffleDeck(c *engine.Ctx, d int, tag rng.Tag) {
	cards := c.G.Secret.Decks[d].Cards
	rng.Shuffle(c.RNG, cards, tag, &rng.Ctx{DeckID: engine.DeckIDs[d]})
	commit := c.CommitShuffle(d, tag)
	e := c.Add(engine.EvDeckShuffled)
	e.DeckID, e.Size, e.Tag, e.Commitment = engine.DeckIDs[d], len(cards), tag, commit
}

// ReshuffleDeckIfEmpty shuffles deck d's discard pile into it when its draw
// pile is empty and the discard pile is not (tag deck.reshuffle.<deckId>,
// one shuffle); it reports whether it did.
//
// In a trustless game nothing is shuffled: at that same moment the discard
// pile becomes the public draw pile, in its order (oldest first), and
// DeckRefilled {deckId, size} is logged; the draws take cards from it at
// random (draw).
func ReshuffleDeckIfEmpty(c *engine.Ctx, d int) bool {
	if c.P.RNG.Mode == rng.ModeTrustless {
		pub := &c.P.Decks[d]
		if len(pub.Pile) > 0 || len(pub.Discard) == 0 {
			return false
		}
		pub.Pile, pub.Discard = pub.Discard, pub.Pile[:0]
		if len(pub.Discard) == 0 && cap(pub.Discard) == 0 {
			pub.Discard = nil
		}
		pub.Size = len(pub.Pile)
		e := c.Add(engine.EvDeckRefilled)
		e.DeckID, e.Size = engine.DeckIDs[d], pub.Size
		return true
	}
	sec, pub := &c.G.Secret.Decks[d], &c.P.Decks[d]
	if len(sec.Cards) > 0 || len(pub.Discard) == 0 {
		return false
	}
	sec.Cards, pub.Discard = pub.Discard, sec.Cards[:0]
	if len(pub.Discard) == 0 && cap(pub.Discard) == 0 {
		pub.Discard = nil
	}
	pub.Size = len(sec.Cards)
	shuffleDeck(c, d, reshuffleTags[d])
	return true
}

// draw takes the top card of deck d: if the draw pile is empty its discard
// pile is shuffled in first; if both are empty nothing is drawn ("", false).
// When the draw empties the pile, the discard pile is shuffled in at once.
// Draws never call the RNG themselves, but in a trustless game, where a
// draw takes a card uniformly from the public pile with the action's
// stream (rng/trustless.DrawFromPile, tag deck.draw.<deckId>): j = the
// spec's uniformInt(0, size-1), the card at j swapped with the last and
// removed. No order exists before the draw.
func draw(c *engine.Ctx, d int) (string, bool) {
	if c.P.RNG.Mode == rng.ModeTrustless {
		return drawLazily(c, d)
	}
	ReshuffleDeckIfEmpty(c, d)
	sec := &c.G.Secret.Decks[d]
	if len(sec.Cards) == 0 {
		return "", false
	}
	id := sec.Cards[0]
	copy(sec.Cards, sec.Cards[1:])
	sec.Cards = sec.Cards[:len(sec.Cards)-1]
	c.P.Decks[d].Size = len(sec.Cards)
	if len(sec.Cards) == 0 {
		ReshuffleDeckIfEmpty(c, d)
	}
	return id, true
}

// drawLazily is draw in a trustless game.
func drawLazily(c *engine.Ctx, d int) (string, bool) {
	ReshuffleDeckIfEmpty(c, d)
	pub := &c.P.Decks[d]
	if len(pub.Pile) == 0 {
		return "", false
	}
	id, rest, err := trustless.DrawFromPile(c.RNG, pub.Pile, drawTags[d], &rng.Ctx{DeckID: engine.DeckIDs[d]})
	if err != nil {
		panic("reducers: " + err.Error()) // cannot happen: the pile is not empty
	}
	pub.Pile, pub.Size = rest, len(rest)
	if len(rest) == 0 {
		ReshuffleDeckIfEmpty(c, d)
	}
	return id, true
}

// drawTo draws the top card of deck d into the player's inventory and logs
// CardDrawn; it reports whether a card was drawn.
func drawTo(c *engine.Ctx, pl *engine.Player, d int) bool {
	id, ok := draw(c, d)
	if !ok {
		return false
	}
	giveItem(c, pl, id)
	ev := c.Add(engine.EvCardDrawn)
	ev.UID, ev.DeckID, ev.CardID = pl.UID, engine.DeckIDs[d], id
	return true
}

// toDiscard puts a card on its deck's discard pile.
func toDiscard(c *engine.Ctx, id string) {
	d := c.Rules.Card(id).Deck
	c.P.Decks[d].Discard = append(c.P.Decks[d].Discard, id)
}

// ProcessLootDrop rolls the loot of a dead enemy of the tier (tag
// loot.drop.roll.t<tier>, ctx.enemyTier, the ruleset's weights) and draws
// the treasure it names into the player's inventory.
func ProcessLootDrop(c *engine.Ctx, pl *engine.Player, tier int) {
	pick, err := rng.WeightedPick(c.RNG, c.Rules.LootWeights(tier), rng.LootTag(tier), &rng.Ctx{EnemyTier: tier})
	if err != nil {
		panic("reducers: " + err.Error())
	}
	out := c.Rules.LootFor(tier).Outcomes[pick.Item]
	ev := c.Add(engine.EvLootRoll)
	ev.EnemyTier, ev.Outcome = tier, out.Outcome
	if out.Tier > 0 {
		drawTo(c, pl, engine.TreasureDeck(out.Tier))
	}
}
