package dungeon

import (
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// eventTypes are the engine's event types of a seeded or crypto game, in
// engine order (the fair and trustless protocols' types never occur), each
// with the values of its summary. A seat is -1 where the engine names no
// seated player (an enemy, no winner); deck is the index in
// engine.DeckIDs, class the index in engine.Classes. The summary leaves
// out the engine's strings: card ids, tags, commitments, outcomes,
// causes, reasons, effects, combat and duel ids, the fairness record; the
// engine events (State.EngineEvents) carry them.
var eventTypes = []game.EventSpec{
	{Type: "GameCreated", Fields: []string{"owner"}},
	{Type: "PlayerJoined", Fields: []string{"seat", "class"}},
	{Type: "DeckShuffled", Fields: []string{"deck", "size"}},
	{Type: "TurnOrderRolled", Fields: []string{"seat", "value"}},
	{Type: "TieBreakRerolled", Fields: []string{"seat", "value"}},
	{Type: "GameStarted", Fields: []string{"players"}},
	{Type: "TurnStarted", Fields: []string{"seat", "round", "turn"}},
	{Type: "DiceRolled", Fields: []string{"seat", "sides", "value", "total"}, Doc: "seat -1: an enemy's die"},
	{Type: "Moved", Fields: []string{"seat", "from", "dest"}},
	{Type: "Slept", Fields: []string{"seat", "amount", "hp"}},
	{Type: "Healed", Fields: []string{"seat", "amount", "hp"}},
	{Type: "CardDrawn", Fields: []string{"seat", "deck"}},
	{Type: "ChanceResolved", Fields: []string{"seat"}},
	{Type: "ItemUsed", Fields: []string{"seat", "amount", "hp"}},
	{Type: "ItemDropped", Fields: []string{"seat"}},
	{Type: "EnemyCompositionChosen", Fields: []string{"tile", "tier"}},
	{Type: "EnemySpawned", Fields: []string{"tier", "hp"}},
	{Type: "DamageDealt", Fields: []string{"seat", "target", "amount", "hp"}, Doc: "seat or target -1: an enemy"},
	{Type: "EnemyDefeated"},
	{Type: "LootRoll", Fields: []string{"tier"}},
	{Type: "KnockedOut", Fields: []string{"seat", "from", "dest", "hp"}},
	{Type: "CombatEnded", Fields: []string{"seat"}},
	{Type: "DuelOffered", Fields: []string{"seat", "target"}},
	{Type: "DuelCancelled", Fields: []string{"seat"}},
	{Type: "RerollDeclined", Fields: []string{"seat"}},
	{Type: "DuelEnded", Fields: []string{"winner"}},
	{Type: "ItemTaken", Fields: []string{"seat", "target"}},
	{Type: "Discarded", Fields: []string{"seat"}},
	{Type: "TieBreakResolved", Fields: []string{"seat", "candidates"}},
	{Type: "RoundEnded", Fields: []string{"round"}},
	{Type: "BracketStarted", Fields: []string{"candidates"}},
	{Type: "GameFinished", Fields: []string{"winner", "round"}},
	{Type: "FairnessRevealed"},
}

// summary returns the game.Event summary of the engine event e: public
// (game.All), its type's name, the values eventTypes names.
func (s *State) summary(e *engine.Event) game.Event {
	g := game.Event{To: game.All, Type: e.Type.String()}
	v := &g.Vals
	seat := func(uid string) int64 { return int64(s.seat(uid)) }
	switch e.Type {
	case engine.EvGameCreated:
		v[0] = seat(e.UID)
	case engine.EvPlayerJoined:
		v[0], v[1] = int64(e.Seat), int64(classIndex(e.Class))
	case engine.EvDeckShuffled:
		v[0], v[1] = int64(deckIndex(e.DeckID)), int64(e.Size)
	case engine.EvTurnOrderRolled, engine.EvTieBreakRerolled:
		v[0], v[1] = seat(e.UID), int64(e.Value)
	case engine.EvGameStarted:
		v[0] = int64(len(e.Order))
	case engine.EvTurnStarted:
		v[0], v[1], v[2] = seat(e.UID), int64(e.Round), int64(e.Turn)
	case engine.EvDiceRolled:
		v[0], v[1], v[2], v[3] = seat(e.Who), int64(e.Sides), int64(e.Value), int64(e.Total)
	case engine.EvMoved:
		v[0], v[1], v[2] = seat(e.UID), int64(e.From), int64(e.To)
	case engine.EvSlept, engine.EvHealed, engine.EvItemUsed:
		v[0], v[1], v[2] = seat(e.UID), int64(e.Amount), int64(e.HP)
	case engine.EvCardDrawn:
		v[0], v[1] = seat(e.UID), int64(deckIndex(e.DeckID))
	case engine.EvChanceResolved, engine.EvItemDropped, engine.EvCombatEnded, engine.EvDuelCancelled,
		engine.EvRerollDeclined, engine.EvDiscarded:
		v[0] = seat(e.UID)
	case engine.EvEnemyCompositionChosen:
		v[0], v[1] = int64(e.TileID), int64(e.Tier)
	case engine.EvEnemySpawned:
		v[0], v[1] = int64(e.Tier), int64(e.HP)
	case engine.EvDamageDealt:
		v[0], v[1], v[2], v[3] = seat(e.Who), seat(e.Target), int64(e.Amount), int64(e.HP)
	case engine.EvLootRoll:
		v[0] = int64(e.EnemyTier)
	case engine.EvKnockedOut:
		v[0], v[1], v[2], v[3] = seat(e.UID), int64(e.From), int64(e.To), int64(e.HP)
	case engine.EvDuelOffered, engine.EvItemTaken:
		v[0], v[1] = seat(e.UID), seat(e.Target)
	case engine.EvDuelEnded:
		v[0] = seat(e.Winner)
	case engine.EvTieBreakResolved:
		v[0], v[1] = seat(e.ChosenUID), int64(len(e.Candidates))
	case engine.EvRoundEnded:
		v[0] = int64(e.Round)
	case engine.EvBracketStarted:
		v[0] = int64(len(e.Candidates))
	case engine.EvGameFinished:
		v[0], v[1] = seat(e.Winner), int64(e.Round)
	}
	return g
}

func classIndex(c engine.Class) int {
	for i, k := range engine.Classes {
		if k == c {
			return i
		}
	}
	return -1
}

func deckIndex(id string) int {
	for i, d := range engine.DeckIDs {
		if d == id {
			return i
		}
	}
	return -1
}
