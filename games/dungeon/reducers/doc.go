// Package reducers is the rules of the reference game (GAME_RULES.md) as an
// [engine.Table] of handlers, one file per rule family: setup, turn flow,
// movement, tiles and chance, combat, duels, loot and decks, endgame.
//
// Every handler validates the whole action before it changes anything, so a
// rejection leaves the game as it was; then it applies the action, drawing
// randomness from the injected stream in the spec's entropy order, and
// calls advance, which moves the turn through every step that needs no
// decision. The spec's command handlers are exported functions:
// [StartGame], [RollMovement], [ResolveChanceCard], [SpawnEnemiesOnTile],
// [ResolveCombatRound], [ResolveDuelRound], [ApplyDuelistReroll],
// [ProcessLootDrop] and [ReshuffleDeckIfEmpty].
package reducers

import "github.com/fairboard/fairboard/games/dungeon/engine"

// init registers the table as the reference game's (engine.NewReference),
// so that the machinery builds engines of the dungeon without importing it.
func init() { engine.RegisterReference(Table) }

// Table returns the handler table of the reference game, for engine.New.
func Table() engine.Table {
	return engine.Table{
		engine.ActCreate:        create,
		engine.ActJoin:          join,
		engine.ActStart:         start,
		engine.ActUseItem:       useItem,
		engine.ActDropItem:      dropItem,
		engine.ActEndManage:     endManage,
		engine.ActOfferDuel:     offerDuel,
		engine.ActSkipDuel:      skipDuel,
		engine.ActMove:          move,
		engine.ActSleep:         sleep,
		engine.ActCombatRound:   combatRound,
		engine.ActDuelRound:     duelRound,
		engine.ActReroll:        reroll,
		engine.ActDeclineReroll: declineReroll,
		engine.ActDiscard:       discard,
		engine.ActAbandon:       engine.Abandon(putAway),
		engine.ActAbort:         engine.Abort(putAway),
		engine.ActOpen:          engine.OpenContribution,
		engine.ActRemoveSeat:    engine.RemoveUnopenedSeat,
	}
}

// putAway clears the table before a game ends without a winner
// (engine.Abandon, engine.Abort): enemies in play go to their discard
// piles, so every card stays in one place, and a duel is dropped.
func putAway(c *engine.Ctx) {
	cleanupCombat(c)
	c.P.Duel = nil
}
