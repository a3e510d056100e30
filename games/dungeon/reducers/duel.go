package reducers

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// offerDuel challenges a player on the same tile. The target answers at
// once from its standing preferences: a held Smoke bomb (lowest tier, then
// lowest id) is spent and cancels the duel, unless it keeps its bombs; else
// a monk with its cancel unused rolls d6 (monk.cancel.roll, ctx.duelId),
// and a roll of at least the ruleset's monkCancelMin cancels. A cancelled
// duel leaves the challenger in moveOrSleep; a standing one is fought
// instead of moving.
func offerDuel(c *engine.Ctx, a *engine.Action) error {
	pl, err := requireTurn(c, a, engine.StepPreDuel)
	if err != nil {
		return err
	}
	t, _ := c.P.Player(a.Target)
	switch {
	case t == nil:
		return reject(engine.CodeUnknownPlayer, "no player "+a.Target+" to challenge")
	case t.UID == pl.UID:
		return reject(engine.CodeInvalidAction, "a player cannot challenge itself")
	case t.Pos != pl.Pos:
		return reject(engine.CodeInvalidAction, t.UID+" is not on tile of "+pl.UID)
	}
	d := &engine.Duel{ID: nextID(c, "d"), Challenger: pl.UID, Target: t.UID}
	ev := c.Add(engine.EvDuelOffered)
	ev.DuelID, ev.UID, ev.Target = d.ID, pl.UID, t.UID
	if duelCancelled(c, d, t) {
		c.P.Step = engine.StepMoveOrSleep
	} else {
		c.P.Duel = d
		c.P.Step = engine.StepDuel
	}
	advance(c)
	return nil
}

// duelCancelled applies the target's answer to a challenge.
func duelCancelled(c *engine.Ctx, d *engine.Duel, t *engine.Player) bool {
	if !t.KeepSmokeBomb {
		best := -1
		for i, id := range t.Items {
			k := c.Rules.Card(id)
			if k.Kind == engine.CardSmokeBomb && (best < 0 || k.Tier < c.Rules.Card(t.Items[best]).Tier ||
				(k.Tier == c.Rules.Card(t.Items[best]).Tier && id < t.Items[best])) {
				best = i
			}
		}
		if best >= 0 {
			id := removeItem(c, t, best)
			toDiscard(c, id)
			ev := c.Add(engine.EvItemUsed)
			ev.UID, ev.CardID, ev.HP = t.UID, id, t.HP
			ev = c.Add(engine.EvDuelCancelled)
			ev.DuelID, ev.UID, ev.Reason = d.ID, t.UID, "smokeBomb"
			return true
		}
	}
	if t.Class == engine.ClassMonk && !t.MonkCancelUsed {
		t.MonkCancelUsed = true
		sides := c.Rules.Dice.MonkCancel
		v := roll(c, sides, rng.TagMonkCancelRoll, &rng.Ctx{DuelID: d.ID, ActorUID: t.UID})
		emitDice(c, t.UID, rng.TagMonkCancelRoll, sides, v)
		if v >= c.Rules.Classes.MonkCancelMin {
			ev := c.Add(engine.EvDuelCancelled)
			ev.DuelID, ev.UID, ev.Reason = d.ID, t.UID, "monk"
			return true
		}
	}
	return false
}

// skipDuel challenges no one.
func skipDuel(c *engine.Ctx, a *engine.Action) error {
	if _, err := requireTurn(c, a, engine.StepPreDuel); err != nil {
		return err
	}
	c.P.Step = engine.StepMoveOrSleep
	advance(c)
	return nil
}

// duelRound is the challenger's resolveDuelRound action.
func duelRound(c *engine.Ctx, a *engine.Action) error {
	if _, err := requireTurn(c, a, engine.StepDuel); err != nil {
		return err
	}
	if c.P.Duel.Rolled {
		return reject(engine.CodeInvalidAction, "a re-roll decision is pending")
	}
	ResolveDuelRound(c)
	advance(c)
	return nil
}

func canReroll(c *engine.Ctx, pl *engine.Player, used bool) bool {
	return pl.Class == engine.ClassDuelist && c.Rules.Classes.DuelistRerolls > 0 && !used
}

// duelists returns the challenger and the target.
func duelists(c *engine.Ctx) (*engine.Player, *engine.Player) {
	cp, _ := c.P.Player(c.P.Duel.Challenger)
	tp, _ := c.P.Player(c.P.Duel.Target)
	return cp, tp
}

// ResolveDuelRound rolls one duel round: challenger attack and defense,
// then target attack and defense (duel.player.*, ctx {actorUid, duelId}).
// Then each duelist with its re-roll unused decides, challenger first; the
// damage is dealt once both have decided.
func ResolveDuelRound(c *engine.Ctx) {
	d, sides := c.P.Duel, c.Rules.Dice.Duel
	cp, tp := duelists(c)
	cctx, tctx := rng.Ctx{ActorUID: cp.UID, DuelID: d.ID}, rng.Ctx{ActorUID: tp.UID, DuelID: d.ID}
	d.CAtk = roll(c, sides, rng.TagDuelPlayerAttack, &cctx)
	emitDice(c, cp.UID, rng.TagDuelPlayerAttack, sides, d.CAtk)
	d.CDef = roll(c, sides, rng.TagDuelPlayerDefense, &cctx)
	emitDice(c, cp.UID, rng.TagDuelPlayerDefense, sides, d.CDef)
	d.TAtk = roll(c, sides, rng.TagDuelPlayerAttack, &tctx)
	emitDice(c, tp.UID, rng.TagDuelPlayerAttack, sides, d.TAtk)
	d.TDef = roll(c, sides, rng.TagDuelPlayerDefense, &tctx)
	emitDice(c, tp.UID, rng.TagDuelPlayerDefense, sides, d.TDef)
	d.Rolled = true
	d.CDecided = !canReroll(c, cp, d.CRerollUsed)
	d.TDecided = !canReroll(c, tp, d.TRerollUsed)
	duelContinue(c)
}

// duelAwaiting is who the duel waits for: a duelist deciding on its
// re-roll, else the challenger (no one in a bracket match).
func duelAwaiting(c *engine.Ctx) string {
	d := c.P.Duel
	switch {
	case d.Rolled && !d.CDecided:
		return d.Challenger
	case d.Rolled && !d.TDecided:
		return d.Target
	case d.Bracket:
		return ""
	}
	return d.Challenger
}

// reroll and declineReroll are the awaited duelist's decision.
func reroll(c *engine.Ctx, a *engine.Action) error        { return rerollDecision(c, a, true) }
func declineReroll(c *engine.Ctx, a *engine.Action) error { return rerollDecision(c, a, false) }

func rerollDecision(c *engine.Ctx, a *engine.Action, use bool) error {
	p := c.P
	if p.Phase == engine.PhaseLobby {
		return reject(engine.CodeNotStarted, "the game has not started")
	}
	pl, _ := p.Player(a.Actor)
	switch {
	case pl == nil:
		return reject(engine.CodeUnknownPlayer, "no player "+a.Actor+" in this game")
	case p.Duel == nil || !p.Duel.Rolled || (p.Step != engine.StepDuel && p.Step != engine.StepBracket):
		return reject(engine.CodeWrongStep, "no re-roll decision is pending")
	case p.Awaiting != a.Actor:
		return reject(engine.CodeNotYourTurn, "the game waits for "+p.Awaiting)
	}
	if use {
		ApplyDuelistReroll(c, pl)
	} else {
		markDecided(p.Duel, pl.UID)
		ev := c.Add(engine.EvRerollDeclined)
		ev.DuelID, ev.UID = p.Duel.ID, pl.UID
	}
	duelContinue(c)
	advance(c)
	return nil
}

func markDecided(d *engine.Duel, uid string) {
	if uid == d.Challenger && !d.CDecided {
		d.CDecided = true
	} else {
		d.TDecided = true
	}
}

// ApplyDuelistReroll re-rolls the duelist's defense die of the round just
// rolled (tag duel.defense.reroll, ctx {actorUid, duelId}) at the moment the
// perk is used; the new value replaces the old.
func ApplyDuelistReroll(c *engine.Ctx, pl *engine.Player) {
	d, sides := c.P.Duel, c.Rules.Dice.Duel
	v := roll(c, sides, rng.TagDuelDefenseReroll, &rng.Ctx{ActorUID: pl.UID, DuelID: d.ID})
	emitDice(c, pl.UID, rng.TagDuelDefenseReroll, sides, v)
	if pl.UID == d.Challenger && !d.CDecided {
		d.CDef, d.CRerollUsed = v, true
	} else {
		d.TDef, d.TRerollUsed = v, true
	}
	markDecided(d, pl.UID)
}

// duelContinue deals the round's damage once every re-roll decision is
// made, and ends the duel after the last round or a knock-out.
func duelContinue(c *engine.Ctx) {
	d := c.P.Duel
	if !d.CDecided || !d.TDecided {
		return
	}
	cp, tp := duelists(c)
	dc := max(0, d.CAtk+attackBonus(c, cp)-(d.TDef+tp.DefBonus))
	dt := max(0, d.TAtk+attackBonus(c, tp)-(d.CDef+cp.DefBonus))
	damage(c, cp.UID, tp, dc)
	damage(c, tp.UID, cp, dt)
	d.DealtC += dc
	d.DealtT += dt
	d.Round++
	d.Rolled, d.CDecided, d.TDecided = false, false, false
	d.CAtk, d.CDef, d.TAtk, d.TDef = 0, 0, 0, 0
	if cp.HP == 0 || tp.HP == 0 || d.Round >= c.Rules.DuelRounds {
		endDuel(c, cp, tp)
	}
}
