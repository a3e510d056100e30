package reducers

import (
	"slices"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// resolveTile applies the tile the player stands on: treasure draws the top
// card of its tier, chance draws and applies a chance card, enemy spawns the
// enemy queue (leaving c.P.Combat set), final does nothing more (arrival
// was noted by moveTo).
func resolveTile(c *engine.Ctx, pl *engine.Player) {
	pos := pl.Pos
	switch c.Rules.Tile(pos) {
	case engine.TileTreasure:
		drawTo(c, pl, engine.TreasureDeck(c.Rules.Tier(pos)))
	case engine.TileChance:
		ResolveChanceCard(c, pl)
	case engine.TileEnemy:
		SpawnEnemiesOnTile(c, pl, pos, c.Rules.Tier(pos), "tile")
	}
}

// zoneTier is the tier of the player's zone, 1 outside every zone.
func zoneTier(c *engine.Ctx, pl *engine.Player) int {
	if t := c.Rules.Tier(pl.Pos); t > 0 {
		return t
	}
	return 1
}

// ResolveChanceCard draws the top chance card, applies it and discards it.
// RNG: Earthquake rolls d4 per player in seat order
// (chance.earthquake.backRoll, ctx.actorUid = roller); Vital Energy rolls
// another move.roll and resolves the new tile; Mystic Wave and Nefarious
// Spirit break a tie for the nearest player with chooseOne over the tied
// uids sorted ascending (tiebreak.nearest.pick, ctx.reason).
func ResolveChanceCard(c *engine.Ctx, pl *engine.Player) {
	id, ok := draw(c, engine.DeckChance)
	if !ok {
		return
	}
	ev := c.Add(engine.EvCardDrawn)
	ev.UID, ev.DeckID, ev.CardID = pl.UID, engine.DeckIDs[engine.DeckChance], id
	applyChance(c, pl, id)
	toDiscard(c, id)
}

// applyChance applies one chance card's effect.
func applyChance(c *engine.Ctx, pl *engine.Player, id string) {
	card := c.Rules.Card(id)
	ev := c.Add(engine.EvChanceResolved)
	ev.UID, ev.CardID, ev.Effect = pl.UID, id, string(card.Effect)
	switch card.Effect {
	case engine.EffEarthquake:
		sides := c.Rules.Dice.Earthquake
		for i := range c.P.Players {
			o := &c.P.Players[i]
			v := roll(c, sides, rng.TagEarthquakeBackRoll, &rng.Ctx{ActorUID: o.UID})
			emitDice(c, o.UID, rng.TagEarthquakeBackRoll, sides, v)
			moveTo(c, o, max(0, o.Pos-v), "earthquake")
		}
	case engine.EffVitalEnergy:
		RollMovement(c, pl, "vitalEnergy")
		resolveTile(c, pl)
	case engine.EffMysticWave:
		o := nearest(c, pl, "mysticWave")
		a, b := pl.Pos, o.Pos
		moveTo(c, pl, b, "mysticWave")
		moveTo(c, o, a, "mysticWave")
	case engine.EffNefariousSpirit:
		o := nearest(c, pl, "nefariousSpirit")
		if damage(c, "nefariousSpirit", o, c.Rules.SpiritDamage) {
			knockOut(c, o)
		}
	case engine.EffHealingSpring:
		got := heal(c, pl, c.Rules.SpringHeal)
		ev := c.Add(engine.EvHealed)
		ev.UID, ev.Amount, ev.HP = pl.UID, got, pl.HP
	case engine.EffWindfall:
		drawTo(c, pl, engine.TreasureDeck(zoneTier(c, pl)))
	case engine.EffAmbush:
		SpawnEnemiesOnTile(c, pl, pl.Pos, zoneTier(c, pl), "ambush")
	}
}

// nearest returns the other player nearest to pl by |position difference|;
// a tie is broken by chooseOne over the tied uids sorted ascending (tag
// tiebreak.nearest.pick, ctx.reason) and logged as TieBreakResolved.
func nearest(c *engine.Ctx, pl *engine.Player, reason string) *engine.Player {
	best, n := -1, 0
	var first *engine.Player
	for i := range c.P.Players {
		o := &c.P.Players[i]
		if o.UID == pl.UID {
			continue
		}
		d := o.Pos - pl.Pos
		if d < 0 {
			d = -d
		}
		switch {
		case best < 0 || d < best:
			best, n, first = d, 1, o
		case d == best:
			n++
		}
	}
	if n == 1 {
		return first
	}
	cands := make([]string, 0, n)
	for i := range c.P.Players {
		o := &c.P.Players[i]
		d := o.Pos - pl.Pos
		if o.UID != pl.UID && (d == best || -d == best) {
			cands = append(cands, o.UID)
		}
	}
	slices.Sort(cands)
	uid, _, err := rng.ChooseOne(c.RNG, cands, rng.TagTieBreakNearest, &rng.Ctx{Reason: reason})
	if err != nil {
		panic("reducers: " + err.Error())
	}
	ev := c.Add(engine.EvTieBreakResolved)
	ev.Reason, ev.Candidates, ev.ChosenUID = reason, cands, uid
	o, _ := c.P.Player(uid)
	return o
}
