package reducers

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// SpawnEnemiesOnTile builds the enemy queue of a fight of the tier on the
// tile. For an enemy tile (cause "tile") the composition is the ruleset's
// weighted table of the tier, picked with weightedPick (tag
// enemy.composition.pick.t<tier>, ctx {tileId, enemyTier}); a table of one
// option (the spec's E1) draws no RNG. An ambush (cause "ambush") is one
// enemy of the tier, no composition. Enemies are drawn from the enemy decks
// in the order the composition names them; a deck with nothing to draw
// spawns nothing. If any enemy was drawn, c.P.Combat is set.
func SpawnEnemiesOnTile(c *engine.Ctx, pl *engine.Player, tile, tier int, cause string) {
	var tiers []int
	one := [1]int{tier}
	if cause == "ambush" {
		tiers = one[:]
	} else {
		opts := c.Rules.CompositionFor(tier).Options
		i := 0
		if len(opts) > 1 {
			pick, err := rng.WeightedPick(c.RNG, c.Rules.CompositionWeights(tier), rng.CompositionTag(tier),
				&rng.Ctx{TileID: tile, EnemyTier: tier})
			if err != nil {
				panic("reducers: " + err.Error())
			}
			i = pick.Item
		}
		ev := c.Add(engine.EvEnemyCompositionChosen)
		ev.TileID, ev.Tier, ev.Choice = tile, tier, opts[i].Choice
		tiers = opts[i].Enemies
	}
	var cb *engine.Combat
	for _, et := range tiers {
		id, ok := draw(c, engine.EnemyDeck(et))
		if !ok {
			continue
		}
		if cb == nil {
			cb = newCombat(c, len(tiers))
			cb.ID, cb.UID, cb.TileID, cb.Tier, cb.Cause = nextID(c, "c"), pl.UID, tile, tier, cause
		}
		k := c.Rules.Card(id)
		cb.Enemies = append(cb.Enemies, engine.Enemy{CardID: id, Tier: et, HP: k.HP, Atk: k.Atk, Def: k.Def})
		ev := c.Add(engine.EvEnemySpawned)
		ev.CombatID, ev.CardID, ev.Tier, ev.HP = cb.ID, id, et, k.HP
	}
	c.P.Combat = cb
}

// combatBox is a Combat with room for a usual enemy queue, so that a fight
// costs one allocation, not two.
type combatBox struct {
	cb      engine.Combat
	enemies [3]engine.Enemy
}

// newCombat returns an empty Combat whose Enemies has room for n enemies:
// the same as &engine.Combat{Enemies: make([]engine.Enemy, 0, n)}, made of
// a recycled fight's memory in lean mode (engine.Ctx.SpareCombat).
func newCombat(c *engine.Ctx, n int) *engine.Combat {
	if cb := c.SpareCombat(); cb != nil && cap(cb.Enemies) >= n {
		*cb = engine.Combat{Enemies: cb.Enemies[:0]}
		return cb
	}
	b := new(combatBox)
	if n <= len(b.enemies) {
		b.cb.Enemies = b.enemies[:0]
	} else {
		b.cb.Enemies = make([]engine.Enemy, 0, n)
	}
	return &b.cb
}

// combatRound is the current player's resolveCombatRound action.
func combatRound(c *engine.Ctx, a *engine.Action) error {
	pl, err := requireTurn(c, a, engine.StepCombat)
	if err != nil {
		return err
	}
	ResolveCombatRound(c, pl)
	advance(c)
	return nil
}

// ResolveCombatRound fights one round. Dice, in the spec's order: player
// attack, player defense (combat.player.*, ctx {combatId, actorUid}), then
// each alive enemy in queue order, attack then defense (combat.enemy.*, ctx
// {combatId, enemyId}). Then all at once: the player hits the first alive
// enemy, every alive enemy hits the player. Enemies at 0 HP die in queue
// order, each followed at once by its loot roll. The fight ends when no
// enemy is alive, the player is knocked out (its turn ends), or after the
// ruleset's round cap (the player retreats).
func ResolveCombatRound(c *engine.Ctx, pl *engine.Player) {
	cb, sides := c.P.Combat, c.Rules.Dice.Combat
	pctx := rng.Ctx{CombatID: cb.ID, ActorUID: pl.UID}
	pa := roll(c, sides, rng.TagCombatPlayerAttack, &pctx)
	emitDice(c, pl.UID, rng.TagCombatPlayerAttack, sides, pa)
	pd := roll(c, sides, rng.TagCombatPlayerDefense, &pctx)
	emitDice(c, pl.UID, rng.TagCombatPlayerDefense, sides, pd)
	var hits [engine.MaxEnemies]int
	var rolled [engine.MaxEnemies]bool
	target, targetDef := -1, 0
	for i := range cb.Enemies {
		e := &cb.Enemies[i]
		if e.HP <= 0 {
			continue
		}
		ectx := rng.Ctx{CombatID: cb.ID, EnemyID: e.CardID}
		ea := roll(c, sides, rng.TagCombatEnemyAttack, &ectx)
		emitDice(c, e.CardID, rng.TagCombatEnemyAttack, sides, ea)
		ed := roll(c, sides, rng.TagCombatEnemyDefense, &ectx)
		emitDice(c, e.CardID, rng.TagCombatEnemyDefense, sides, ed)
		hits[i], rolled[i] = max(0, ea+e.Atk-(pd+pl.DefBonus)), true
		if target < 0 {
			target, targetDef = i, ed+e.Def
		}
	}
	cb.Round++
	// All at once: the player's blow, then the enemies' blows.
	te := &cb.Enemies[target]
	dmg := max(0, pa+attackBonus(c, pl)-targetDef)
	te.HP = max(0, te.HP-dmg)
	ev := c.Add(engine.EvDamageDealt)
	ev.Who, ev.Target, ev.Amount, ev.HP = pl.UID, te.CardID, dmg, te.HP
	for i := range cb.Enemies {
		if rolled[i] { // alive at the start of the round: blows are simultaneous
			damage(c, cb.Enemies[i].CardID, pl, hits[i])
		}
	}
	if te.HP == 0 {
		ev := c.Add(engine.EvEnemyDefeated)
		ev.CombatID, ev.CardID = cb.ID, te.CardID
		ProcessLootDrop(c, pl, te.Tier)
	}
	alive := false
	for i := range cb.Enemies {
		alive = alive || cb.Enemies[i].HP > 0
	}
	switch {
	case pl.HP == 0:
		ev := c.Add(engine.EvCombatEnded)
		ev.CombatID, ev.UID, ev.Outcome = cb.ID, pl.UID, "knockedOut"
		knockOut(c, pl)
		cleanupCombat(c)
		endTurn(c)
	case !alive:
		ev := c.Add(engine.EvCombatEnded)
		ev.CombatID, ev.UID, ev.Outcome = cb.ID, pl.UID, "won"
		c.P.Step = engine.StepPostCombat
	case cb.Round >= c.Rules.CombatRoundCap:
		ev := c.Add(engine.EvCombatEnded)
		ev.CombatID, ev.UID, ev.Outcome = cb.ID, pl.UID, "retreated"
		moveTo(c, pl, max(0, pl.Pos-c.Rules.RetreatTiles), "retreat")
		c.P.Step = engine.StepPostCombat
	}
}

// PostCombat is step 7 (no RNG): the fight's enemy cards go to their
// discard piles.
func PostCombat(c *engine.Ctx) { cleanupCombat(c) }

// cleanupCombat is postCombat: dead and left-over enemy cards go to their
// discard piles, in queue order.
func cleanupCombat(c *engine.Ctx) {
	cb := c.P.Combat
	if cb == nil {
		return
	}
	for i := range cb.Enemies {
		toDiscard(c, cb.Enemies[i].CardID)
	}
	c.P.Combat = nil
	c.RecycleCombat(cb)
}
