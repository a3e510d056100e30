package reducers

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// beginTurn starts the turn of Order[TurnIndex].
func beginTurn(c *engine.Ctx) {
	p := c.P
	p.Current = p.Order[p.TurnIndex]
	p.Turn++
	p.Step = engine.StepStart
	ev := c.Add(engine.EvTurnStarted)
	ev.UID, ev.Round, ev.Turn = p.Current, p.Round, p.Turn
}

// endTurn passes to the next player; after the last one the round ends,
// and the game ends with it if a player reached the final tile during the
// round or the round limit is reached.
func endTurn(c *engine.Ctx) {
	p := c.P
	p.TurnIndex++
	if p.TurnIndex == len(p.Order) {
		c.Add(engine.EvRoundEnded).Round = p.Round
		if p.EndTriggered || p.Round >= c.Rules.RoundLimit {
			startEndgame(c)
			return
		}
		p.Round++
		p.TurnIndex = 0
	}
	beginTurn(c)
}

// sharesTile reports whether another player stands on the player's tile.
func sharesTile(c *engine.Ctx, pl *engine.Player) bool {
	for i := range c.P.Players {
		o := &c.P.Players[i]
		if o.UID != pl.UID && o.Pos == pl.Pos {
			return true
		}
	}
	return false
}

// advance moves the game through every step that needs no decision and
// sets Public.Awaiting to whoever must act next.
func advance(c *engine.Ctx) {
	p := c.P
	var cur *engine.Player // the current player, looked up again after endTurn
	for p.Phase == engine.PhasePlaying {
		if p.Step == engine.StepBracket {
			if bracketWaits(c) {
				return
			}
			continue
		}
		if cur == nil {
			cur = current(c)
		}
		switch p.Step {
		case engine.StepStart:
			p.Step = engine.StepManage
		case engine.StepManage:
			if len(cur.Items) > 0 {
				p.Awaiting = cur.UID
				return
			}
			p.Step = engine.StepPreDuel
		case engine.StepPreDuel:
			if sharesTile(c, cur) {
				p.Awaiting = cur.UID
				return
			}
			p.Step = engine.StepMoveOrSleep
		case engine.StepMoveOrSleep, engine.StepCombat:
			p.Awaiting = cur.UID
			return
		case engine.StepDuel:
			p.Awaiting = duelAwaiting(c)
			return
		case engine.StepResolveTile, engine.StepPostCombat:
			cleanupCombat(c)
			p.Step = engine.StepCapacity
		case engine.StepCapacity:
			if len(cur.Items) > c.Rules.Capacity {
				p.Awaiting = cur.UID
				return
			}
			endTurn(c)
			cur = nil
		default:
			panic("reducers: advance from unknown step " + string(p.Step))
		}
	}
	p.Awaiting = ""
}

// useItem uses a potion in the manage step; it goes to its discard pile.
func useItem(c *engine.Ctx, a *engine.Action) error {
	pl, err := requireTurn(c, a, engine.StepManage)
	if err != nil {
		return err
	}
	i := holds(pl, a.CardID)
	if i < 0 {
		return reject(engine.CodeItemNotHeld, pl.UID+" does not hold "+a.CardID)
	}
	card := c.Rules.Card(a.CardID)
	if card.Kind != engine.CardPotion {
		return reject(engine.CodeInvalidAction, a.CardID+" is not a potion; only potions are used in manage")
	}
	removeItem(c, pl, i)
	n := card.Heal
	if card.HealToMax {
		n = c.Rules.MaxHP
	}
	got := heal(c, pl, n)
	toDiscard(c, a.CardID)
	ev := c.Add(engine.EvItemUsed)
	ev.UID, ev.CardID, ev.Amount, ev.HP = pl.UID, a.CardID, got, pl.HP
	advance(c)
	return nil
}

// dropItem drops any held item in the manage step, to its discard pile.
func dropItem(c *engine.Ctx, a *engine.Action) error {
	return discardHeld(c, a, engine.StepManage, engine.EvItemDropped)
}

// endManage ends the manage step.
func endManage(c *engine.Ctx, a *engine.Action) error {
	if _, err := requireTurn(c, a, engine.StepManage); err != nil {
		return err
	}
	c.P.Step = engine.StepPreDuel
	advance(c)
	return nil
}

// discard drops an item in the capacity step, while over capacity.
func discard(c *engine.Ctx, a *engine.Action) error {
	return discardHeld(c, a, engine.StepCapacity, engine.EvDiscarded)
}

// discardHeld moves the actor's card a.CardID to its discard pile in the
// given step and logs it as ev; it rejects a card the actor does not hold.
func discardHeld(c *engine.Ctx, a *engine.Action, step engine.Step, ev engine.EventType) error {
	pl, err := requireTurn(c, a, step)
	if err != nil {
		return err
	}
	i := holds(pl, a.CardID)
	if i < 0 {
		return reject(engine.CodeItemNotHeld, pl.UID+" does not hold "+a.CardID)
	}
	removeItem(c, pl, i)
	toDiscard(c, a.CardID)
	e := c.Add(ev)
	e.UID, e.CardID = pl.UID, a.CardID
	advance(c)
	return nil
}
