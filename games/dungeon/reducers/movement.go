package reducers

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
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
	ev := c.Add(engine.EvSlept)
	ev.UID, ev.Amount, ev.HP = pl.UID, got, pl.HP
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
	e := c.Add(engine.EvDiceRolled)
	e.Who, e.Tag, e.Sides, e.Value, e.Total = pl.UID, rng.TagMoveRoll, sides, v, v
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
	moveTo(c, pl, min(c.Rules.FinalTile(), pl.Pos+e.Total), cause) // e.Total read before moveTo adds
}

// moveTo puts a player on a tile and logs it; reaching the final tile
// triggers the end of the game at the end of the round.
func moveTo(c *engine.Ctx, pl *engine.Player, to int, cause string) {
	from := pl.Pos
	pl.Pos = to
	ev := c.Add(engine.EvMoved)
	ev.UID, ev.From, ev.To, ev.Cause = pl.UID, from, to, cause
	if to == c.Rules.FinalTile() {
		c.P.EndTriggered = true
	}
}
