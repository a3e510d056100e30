package reducers

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// endDuel settles a duel: a knock-out wins outright, else more total damage
// dealt wins (both knocked out: by damage too); a tie has no winner. The
// winner takes the loser's best item. Outside the bracket, knocked-out
// duelists go back to their zone's start, and a knocked-out challenger's
// turn ends.
func endDuel(c *engine.Ctx, cp, tp *engine.Player) {
	d := c.P.Duel
	koC, koT := cp.HP == 0, tp.HP == 0
	var win, lose *engine.Player
	outcome := "damage"
	switch {
	case koT && !koC:
		win, lose, outcome = cp, tp, "knockout"
	case koC && !koT:
		win, lose, outcome = tp, cp, "knockout"
	case d.DealtC > d.DealtT:
		win, lose = cp, tp
	case d.DealtT > d.DealtC:
		win, lose = tp, cp
	default:
		outcome = "draw"
	}
	e := c.Add(engine.EvDuelEnded)
	e.DuelID, e.Outcome = d.ID, outcome
	if win != nil {
		e.Winner = win.UID
	}
	if win != nil {
		if i := bestItem(c, lose); i >= 0 {
			id := removeItem(c, lose, i)
			giveItem(c, win, id)
			ev := c.Add(engine.EvItemTaken)
			ev.UID, ev.Target, ev.CardID = win.UID, lose.UID, id
		}
	}
	c.P.Duel = nil
	if d.Bracket {
		for _, pl := range [2]*engine.Player{cp, tp} {
			if pl.HP == 0 { // the game is over: no one moves, HP is restored
				pl.HP = c.Rules.KnockoutHP
				ev := c.Add(engine.EvKnockedOut)
				ev.UID, ev.From, ev.To, ev.HP = pl.UID, pl.Pos, pl.Pos, pl.HP
			}
		}
		bracketMatchEnded(c, win)
		return
	}
	if koC {
		knockOut(c, cp)
	}
	if koT {
		knockOut(c, tp)
	}
	if koC {
		endTurn(c)
		return
	}
	c.P.Step = engine.StepPostCombat
}

// bestItem returns the index of the player's best item (highest tier, then
// attack + defense, then lowest card id), or -1 if it holds none.
func bestItem(c *engine.Ctx, pl *engine.Player) int {
	best := -1
	var bk *engine.Card
	for i, id := range pl.Items {
		k := c.Rules.Card(id)
		if best < 0 || k.Tier > bk.Tier || (k.Tier == bk.Tier && (k.Atk+k.Def > bk.Atk+bk.Def ||
			(k.Atk+k.Def == bk.Atk+bk.Def && id < bk.ID))) {
			best, bk = i, k
		}
	}
	return best
}

// startEndgame runs after the last round: the finalists are the players on
// the final tile, or if none is, those furthest along, in seat order. One
// wins at once; several fight a bracket (first two, the winner against the
// third, ...), each match a full duel fought automatically except for the
// duelists' re-roll decisions.
func startEndgame(c *engine.Ctx) {
	p := c.P
	far := 0
	for i := range p.Players {
		far = max(far, p.Players[i].Pos)
	}
	var fin []string
	for i := range p.Players {
		if p.Players[i].Pos == far {
			fin = append(fin, p.Players[i].UID)
		}
	}
	p.Current, p.Step = "", engine.StepBracket
	if len(fin) == 1 {
		finish(c, fin[0])
		return
	}
	p.Bracket = &engine.Bracket{Finalists: fin, Champion: fin[0], Next: 1}
	c.Add(engine.EvBracketStarted).Candidates = fin
	startMatch(c)
}

// startMatch opens the bracket's next match: champion against the next
// finalist.
func startMatch(c *engine.Ctx) {
	b := c.P.Bracket
	d := &engine.Duel{ID: nextID(c, "d"), Challenger: b.Champion, Target: b.Finalists[b.Next], Bracket: true}
	ev := c.Add(engine.EvDuelOffered)
	ev.DuelID, ev.UID, ev.Target = d.ID, d.Challenger, d.Target
	c.P.Duel = d
}

// bracketMatchEnded moves the bracket on; a drawn match goes to the lower
// seat, which is always the champion's.
func bracketMatchEnded(c *engine.Ctx, win *engine.Player) {
	b := c.P.Bracket
	if win != nil {
		b.Champion = win.UID
	}
	b.Next++
	if b.Next == len(b.Finalists) {
		finish(c, b.Champion)
		return
	}
	startMatch(c)
}

// bracketWaits fights bracket rounds until a re-roll decision is needed
// (true) or the game is finished (false).
func bracketWaits(c *engine.Ctx) bool {
	p := c.P
	for p.Phase == engine.PhasePlaying {
		if p.Duel.Rolled {
			p.Awaiting = duelAwaiting(c)
			return true
		}
		ResolveDuelRound(c)
	}
	return false
}

// The outcomes of GameFinished: how the game came to its end.
const (
	// EndFinalTile: a player stands on the final tile.
	EndFinalTile = "finalTile"
	// EndRoundLimit: no one reached the final tile within the round limit.
	EndRoundLimit = "roundLimit"
	// EndLeftFinalTile: a player reached the final tile, so the round was
	// the last, but no one was still on it at the end of the round (an
	// Earthquake or a knock-out moved them back); the furthest along won.
	EndLeftFinalTile = "leftFinalTile"
	// EndAbandoned and EndAborted are the ends without a winner that
	// every game shares (engine.Abandon, engine.Abort).
	EndAbandoned = engine.EndAbandoned
	EndAborted   = engine.EndAborted
)

// finish ends the game with its winner and reveals what was secret.
func finish(c *engine.Ctx, winner string) {
	p := c.P
	outcome := EndRoundLimit
	if p.EndTriggered {
		outcome = EndLeftFinalTile
	}
	for i := range p.Players {
		if p.Players[i].Pos == c.Rules.FinalTile() {
			outcome = EndFinalTile
		}
	}
	p.Phase, p.Winner, p.Step, p.Current, p.Awaiting = engine.PhaseFinished, winner, "", "", ""
	p.FinishedAt = c.Action.At
	ev := c.Add(engine.EvGameFinished)
	ev.Winner, ev.Round, ev.Outcome = winner, p.Round, outcome
	engine.LogReveal(c)
}
