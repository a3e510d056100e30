package engine

// The outcomes of GameFinished that every game shares: how a game ends
// without a winner. A game's own outcomes (the dungeon's finalTile, ...)
// are its package's.
const (
	// EndAbandoned: the owner abandoned the game; no one won.
	EndAbandoned = "abandoned"
	// EndAborted: a trustless game was aborted (GameAborted says why and
	// names the seats that did not reveal); no one won.
	EndAborted = "aborted"
)

// Abandon returns the handler of ActAbandon: the owner's end of a game in
// its lobby or in play (or the server's, ServerActor, for a game left
// unfinished past the server's deadline: its sweep), with no winner,
// outcome EndAbandoned, and the reveal. Any other actor is refused with
// CodeNotOwner. putAway is the game's own clearing of what is on the
// table (the dungeon sends enemies in play to their discard piles, so
// every card stays in one place); it runs before GameFinished, and its
// events come first.
func Abandon(putAway func(*Ctx)) Handler {
	return func(c *Ctx, a *Action) error {
		p := c.P
		if a.Actor != p.Owner && a.Actor != ServerActor {
			return Reject(CodeNotOwner, "only the owner "+p.Owner+" (or the server, past its deadline) may abandon the game")
		}
		putAway(c)
		endWithoutWinner(c, a, EndAbandoned)
		return nil
	}
}

// Abort returns the handler of ActAbort, which ends a trustless game as
// aborted after the engine's GameAborted: no winner, putAway (as for
// Abandon), outcome EndAborted, the reveal. Only the engine reaches it,
// once it has checked the abort (the deadline passed, the owner's
// abandon during a round, or chains run out).
func Abort(putAway func(*Ctx)) Handler {
	return func(c *Ctx, a *Action) error {
		putAway(c)
		endWithoutWinner(c, a, EndAborted)
		return nil
	}
}

// endWithoutWinner finishes the game at a.At with outcome and no winner,
// then reveals.
func endWithoutWinner(c *Ctx, a *Action, outcome string) {
	p := c.P
	p.Phase, p.Step, p.Current, p.Awaiting = PhaseFinished, "", "", ""
	p.FinishedAt = a.At
	ev := c.Add(EvGameFinished)
	ev.Round, ev.Outcome = p.Round, outcome
	LogReveal(c)
}

// LogReveal publishes what was secret until the end (Game.Reveal) and
// logs it as the game's last event, FairnessRevealed.
func LogReveal(c *Ctx) {
	c.Add(EvFairnessRevealed).Fair = c.G.Reveal()
}
