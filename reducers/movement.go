package reducers

import (
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// move is the moveOrSleep step's move: roll, move, resolve the tile.
func move(c *engine.Ctx, a *engine.Action) error {
	pl, err := requireTurn(c, a, engine.StepMoveOrSleep)
	if err != nil {
		return err
	}
	c.P.Step = engine.StepResolveTile
	RollMovement(c, pl, "move")
	resolveTile(c, pl)
	if c.P.Combat != nil {
		c.P.Step = engine.StepCombat
	}
	advance(c)
	return nil
}

// sleep heals instead of moving (monks heal the monk amount).
func sleep(c *engine.Ctx, a *engine.Action) error {
	pl, err := requireTurn(c, a, engine.StepMoveOrSleep)
	if err != nil {
		return err
	}
	n := c.Rules.SleepHeal
	if pl.Class == engine.ClassMonk {
		n = c.Rules.Classes.MonkSleepHeal
	}
	got := heal(c, pl, n)
	c.Emit(engine.Event{Type: engine.EvSlept, UID: pl.UID, Amount: got, HP: pl.HP})
	c.P.Step = engine.StepPostCombat
	advance(c)
	return nil
}

// RollMovement rolls the movement die (tag move.roll, ctx.turn and
// ctx.actorUid), adds the modifiers (boots, then the scout's perk) and moves
// the player forward, stopping on the final tile (the excess is lost).
// Arriving on the final tile triggers the end of the game at the end of the
// round. cause is logged on Moved ("move", "vitalEnergy").
func RollMovement(c *engine.Ctx, pl *engine.Player, cause string) {
	sides := c.Rules.Dice.Move
	v := roll(c, sides, rng.TagMoveRoll, &rng.Ctx{Turn: c.P.Turn, ActorUID: pl.UID})
	e := engine.Event{Type: engine.EvDiceRolled, Who: pl.UID, Tag: rng.TagMoveRoll, Sides: sides, Value: v, Total: v}
	if pl.MoveBonus > 0 {
		e.Mods[e.NMods] = pl.MoveBonus
		e.NMods++
		e.Total += pl.MoveBonus
	}
	if pl.Class == engine.ClassScout && c.Rules.Classes.ScoutMove > 0 {
		e.Mods[e.NMods] = c.Rules.Classes.ScoutMove
		e.NMods++
		e.Total += c.Rules.Classes.ScoutMove
	}
	c.Emit(e)
	moveTo(c, pl, min(c.Rules.FinalTile(), pl.Pos+e.Total), cause)
}

// moveTo puts a player on a tile and logs it; reaching the final tile
// triggers the end of the game at the end of the round.
func moveTo(c *engine.Ctx, pl *engine.Player, to int, cause string) {
	from := pl.Pos
	pl.Pos = to
	c.Emit(engine.Event{Type: engine.EvMoved, UID: pl.UID, From: from, To: to, Cause: cause})
	if to == c.Rules.FinalTile() {
		c.P.EndTriggered = true
	}
}
