package engine

// ActionKind names an action. The set is closed; unknown kinds are rejected
// with [CodeInvalidAction].
type ActionKind string

// The actions of the game. Who may send each, and in which step:
const (
	// ActCreate (anyone, game not created): GameID, Mode, Seed, Audit,
	// ServerSeed (crypto and fair modes, from the server). The actor
	// becomes the room owner.
	ActCreate ActionKind = "create"
	// ActJoin (lobby): take Seat with Class; KeepSmokeBomb sets the
	// standing preference; Entropy is the player's contribution to a fair
	// game's seed.
	ActJoin ActionKind = "join"
	// ActStart (lobby, owner only): shuffle decks, roll turn order, begin.
	ActStart ActionKind = "start"
	// ActUseItem (current player, manage): use the potion CardID.
	ActUseItem ActionKind = "useItem"
	// ActDropItem (current player, manage): drop CardID to its discard pile.
	ActDropItem ActionKind = "dropItem"
	// ActEndManage (current player, manage): end the manage step.
	ActEndManage ActionKind = "endManage"
	// ActOfferDuel (current player, preDuel): challenge Target on the tile.
	ActOfferDuel ActionKind = "offerDuel"
	// ActSkipDuel (current player, preDuel): challenge no one.
	ActSkipDuel ActionKind = "skipDuel"
	// ActMove (current player, moveOrSleep): roll d4 and move.
	ActMove ActionKind = "move"
	// ActSleep (current player, moveOrSleep): heal instead of moving.
	ActSleep ActionKind = "sleep"
	// ActCombatRound (current player, combat): fight one round.
	ActCombatRound ActionKind = "resolveCombatRound"
	// ActDuelRound (current player, duel): fight one duel round.
	ActDuelRound ActionKind = "resolveDuelRound"
	// ActReroll (the duelist the game awaits, duel or bracket): re-roll
	// the defense die of the round just rolled.
	ActReroll ActionKind = "reroll"
	// ActDeclineReroll (the duelist the game awaits): keep the die.
	ActDeclineReroll ActionKind = "declineReroll"
	// ActDiscard (current player, capacity): discard CardID.
	ActDiscard ActionKind = "discard"
	// ActAbandon (owner, lobby or playing): end the game with no winner
	// (GameFinished outcome "abandoned") and reveal what was secret.
	ActAbandon ActionKind = "abandon"
)

// ActionKinds lists every action kind.
var ActionKinds = []ActionKind{
	ActCreate, ActJoin, ActStart, ActUseItem, ActDropItem, ActEndManage,
	ActOfferDuel, ActSkipDuel, ActMove, ActSleep, ActCombatRound,
	ActDuelRound, ActReroll, ActDeclineReroll, ActDiscard, ActAbandon,
}

// numActionKinds is len(ActionKinds).
const numActionKinds = 16

// kindIndex returns k's index in ActionKinds, or -1 for any other string.
func kindIndex(k ActionKind) int {
	switch k {
	case ActCreate:
		return 0
	case ActJoin:
		return 1
	case ActStart:
		return 2
	case ActUseItem:
		return 3
	case ActDropItem:
		return 4
	case ActEndManage:
		return 5
	case ActOfferDuel:
		return 6
	case ActSkipDuel:
		return 7
	case ActMove:
		return 8
	case ActSleep:
		return 9
	case ActCombatRound:
		return 10
	case ActDuelRound:
		return 11
	case ActReroll:
		return 12
	case ActDeclineReroll:
		return 13
	case ActDiscard:
		return 14
	case ActAbandon:
		return 15
	}
	return -1
}

// Action is one request to change a game. Actor is the uid of whoever sends
// it (authenticated by the caller). ID, if set, de-duplicates: an action
// whose ID equals the last applied action's is rejected with
// [CodeDuplicateAction]. Version, if not 0, must equal Public.Version or the
// action is rejected with [CodeStaleVersion]. At is the caller's time (unix
// milliseconds); the engine records it and never reads a clock.
type Action struct {
	Kind    ActionKind `json:"kind"`
	Actor   string     `json:"actor"`
	ID      string     `json:"actionId,omitempty"`
	Version uint64     `json:"version,omitempty"`
	At      int64      `json:"at,omitempty"`

	// create
	GameID string `json:"gameId,omitempty"`
	Mode   string `json:"mode,omitempty"` // "seeded", "crypto" or "fair"
	Seed   string `json:"seed,omitempty"` // seeded mode only
	Audit  bool   `json:"audit,omitempty"`
	// ServerSeed is 32 bytes as 64 lower-case hex digits, supplied by the
	// server (crypto/rand), never by a client: in fair mode the server
	// seed, in crypto mode the key of the deck salts; empty in seeded mode.
	// It must never appear in anything a client can read.
	ServerSeed string `json:"serverSeed,omitempty"`

	// join
	Seat          int   `json:"seat,omitempty"`
	Class         Class `json:"class,omitempty"`
	KeepSmokeBomb bool  `json:"keepSmokeBomb,omitempty"`
	// Entropy is the player's contribution to a fair game's seed: 0 to 64
	// bytes as hex digits of either case (fair mode only).
	Entropy string `json:"entropy,omitempty"`

	// offerDuel
	Target string `json:"target,omitempty"`

	// useItem, dropItem, discard
	CardID string `json:"cardId,omitempty"`
}
