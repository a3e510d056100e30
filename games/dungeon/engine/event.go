package engine

import "github.com/fairboard/fairboard/rng"

// EventType names a public log event.
type EventType uint8

// The public log events: the spec's RNG outcomes (DiceRolled, DeckShuffled,
// EnemyCompositionChosen, LootRoll, TieBreakResolved, TurnOrderRolled,
// TieBreakRerolled) and the game's own. Each type's JSON fields are listed
// in eventFields (event_json.go).
const (
	EvNone EventType = iota
	EvGameCreated
	EvPlayerJoined
	EvDeckShuffled
	EvTurnOrderRolled
	EvTieBreakRerolled
	EvGameStarted
	EvTurnStarted
	EvDiceRolled
	EvMoved
	EvSlept
	EvHealed
	EvCardDrawn
	EvChanceResolved
	EvItemUsed
	EvItemDropped
	EvEnemyCompositionChosen
	EvEnemySpawned
	EvDamageDealt
	EvEnemyDefeated
	EvLootRoll
	EvKnockedOut
	EvCombatEnded
	EvDuelOffered
	EvDuelCancelled
	EvRerollDeclined
	EvDuelEnded
	EvItemTaken
	EvDiscarded
	EvTieBreakResolved
	EvRoundEnded
	EvBracketStarted
	EvGameFinished
	EvFairnessRevealed
	EvActionAccepted
	EvActionPending
	EvRoundRevealed
	EvGameAborted
	EvDeckRefilled
	EvEntropyOpened
	EvSeatRemoved
	numEventTypes
)

var eventNames = [numEventTypes]string{
	"", "GameCreated", "PlayerJoined", "DeckShuffled", "TurnOrderRolled",
	"TieBreakRerolled", "GameStarted", "TurnStarted", "DiceRolled", "Moved",
	"Slept", "Healed", "CardDrawn", "ChanceResolved", "ItemUsed",
	"ItemDropped", "EnemyCompositionChosen", "EnemySpawned", "DamageDealt",
	"EnemyDefeated", "LootRoll", "KnockedOut", "CombatEnded", "DuelOffered",
	"DuelCancelled", "RerollDeclined", "DuelEnded", "ItemTaken", "Discarded",
	"TieBreakResolved", "RoundEnded", "BracketStarted", "GameFinished",
	"FairnessRevealed", "ActionAccepted", "ActionPending", "RoundRevealed",
	"GameAborted", "DeckRefilled", "EntropyOpened", "SeatRemoved",
}

// String returns the event's name as the log spells it ("DiceRolled").
func (t EventType) String() string {
	if t < numEventTypes {
		return eventNames[t]
	}
	return "Unknown"
}

// ParseEventType returns the type named s, or EvNone.
func ParseEventType(s string) EventType {
	for i := EventType(1); i < numEventTypes; i++ {
		if eventNames[i] == s {
			return i
		}
	}
	return EvNone
}

// Event is one entry of the public log: a type and the typed fields that
// type uses (the rest are zero and not serialized). Events are plain values
// with fixed-size arrays for the short lists, so emitting one allocates
// nothing; only Candidates and Order (rare events) are slices, and Fair
// (the last event of a game), Trust (the trustless protocol's events) and
// Keys (a join of a fair game with openings or of a trustless game)
// pointers. What only such rare events carry is kept behind a pointer
// because every event a game logs is cleared in full when it is added
// (Ctx.Add): held inline, the join's three 32-byte keys made every event
// 96 bytes longer (648), and a simulated game ran 1.2% more instructions
// and missed the first-level cache on 16% more writes (callgrind's cache
// simulation).
//
// Nothing in an event tells an undrawn card: DeckShuffled carries the
// commitment to the new order, not the spec's headPreview (which goes to
// the server-side rng audit only; see docs/fairness.md).
//
// Fields by type (JSON names in quotes):
//
//	GameCreated            "uid" (owner), "gameId", "rulesHash", "commitment" (fair mode)
//	PlayerJoined           "uid", "seat", "class", "entropyCommitment" (fair with openings),
//	                       "chainHead", "publicKey" (trustless)
//	DeckShuffled           "deckId", "size", "tag", "commitment"
//	TurnOrderRolled        "uid", "value"
//	TieBreakRerolled       "uid", "value"
//	GameStarted            "order"
//	TurnStarted            "uid", "round", "turn"
//	DiceRolled             "who", "tag", "sides", "value", "modifiers"?, "total"?
//	Moved                  "uid", "from", "to", "cause"
//	Slept, Healed          "uid", "amount", "hp"
//	CardDrawn              "uid", "deckId", "cardId"
//	ChanceResolved         "uid", "cardId", "effect"
//	ItemUsed               "uid", "cardId", "amount", "hp"
//	ItemDropped, Discarded "uid", "cardId"
//	EnemyCompositionChosen "tileId", "tier", "choice"
//	EnemySpawned           "combatId", "cardId", "tier", "hp"
//	DamageDealt            "who", "target", "amount", "hp"
//	EnemyDefeated          "combatId", "cardId"
//	LootRoll               "enemyTier", "outcome"
//	KnockedOut             "uid", "from", "to", "hp"
//	CombatEnded            "combatId", "uid", "outcome"
//	DuelOffered            "duelId", "uid", "target"
//	DuelCancelled          "duelId", "uid", "reason"
//	RerollDeclined         "duelId", "uid"
//	DuelEnded              "duelId", "winner", "outcome"
//	ItemTaken              "uid", "target", "cardId"
//	TieBreakResolved       "reason", "candidates", "chosenUid"
//	RoundEnded             "round"
//	BracketStarted         "candidates"
//	GameFinished           "winner", "round", "outcome"
//	FairnessRevealed       "fairness" (the game's Public.Fairness at its end)
//	ActionAccepted         "trustless" {action, digest, signature?, transcript}: a trustless
//	                       game's action applied at once, after its own events
//	ActionPending          "trustless" {index, action, digest, signature?, deadline, transcript}:
//	                       a trustless game's action that draws, held for its reveal round
//	RoundRevealed          "trustless" {index, digest, reveals, transcript}: the round's links,
//	                       all at once, before the pending action's events
//	GameAborted            "trustless" {index, reason, by, at, missing?, reveals?, action?, signature?}
//	DeckRefilled           "deckId", "size": a trustless pile takes its discards back
//	EntropyOpened          "uid", "seat": a fair seat opened its contribution (not shown)
//	SeatRemoved            "uid", "seat", "reason": a fair seat removed for not opening
type Event struct {
	Seq   uint64
	Type  EventType
	NMods uint8 // DiceRolled: the modifiers used, Mods[:NMods] (beside Type, so that both fit in one word)

	UID, Who, Target string
	Tag              rng.Tag
	Sides, Value     int
	Mods             [4]int // DiceRolled modifiers; NMods of them are used
	Total            int

	DeckID     string
	Size       int
	Commitment Hash32 // DeckShuffled; GameCreated in fair mode
	RulesHash  string // GameCreated
	Fair       *Fairness
	Trust      *TrustRecord // the trustless protocol's events

	// Keys (PlayerJoined): a fair seat's commitment to its contribution
	// (with openings), a trustless seat's chain head and public key; nil
	// when all three are zero (a join that brings none).
	Keys *JoinKeys

	TileID, Tier, EnemyTier int
	Choice, Outcome         string
	CardID                  string
	From, To                int
	Cause                   string
	Amount, HP              int
	Effect, Reason          string
	ChosenUID               string
	Candidates              []string
	Order                   []string
	CombatID, DuelID        string
	Winner                  string
	Seat                    int
	Class                   Class
	Round, Turn             int
	GameID                  string
}

// JoinKeys is what a PlayerJoined event shows of a join's keys: a fair
// seat's commitment to its contribution (rng/fair.ContributionCommitment,
// with openings), a trustless seat's chain head x_0 and Ed25519 public key.
// A key the join did not bring is zero, and not written.
type JoinKeys struct {
	EntropyCommitment, ChainHead, PublicKey Hash32
}

// Modifiers returns the used modifiers (a view of Mods).
func (e *Event) Modifiers() []int { return e.Mods[:e.NMods] }
