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
	// ActAbandon (owner, lobby or playing; or [ServerActor], the server's
	// sweep of a game left unfinished past its deadline): end the game
	// with no winner (GameFinished outcome "abandoned") and reveal what
	// was secret. In a trustless game with an action pending, the owner's
	// is the owner's abort (GameAborted reason "abandoned", outcome
	// "aborted").
	ActAbandon ActionKind = "abandon"
	// ActReveal (a seated player of a trustless game, while an action is
	// pending): its chain link for the pending index (Seat, Index, Link)
	// and its signature (Signature) over the game, the index, the pending
	// action's Digest and the Transcript hash it has checked.
	ActReveal ActionKind = "reveal"
	// ActAbort (anyone, in practice the server: a trustless game whose
	// pending action's reveal deadline has passed): end the game as
	// aborted, naming the seats that did not reveal. Nothing is re-rolled.
	ActAbort ActionKind = "abort"
	// ActOpen (a seated player of a fair game with openings, in the lobby):
	// open its contribution (Entropy, 32 bytes), which must be the one its
	// join committed to.
	ActOpen ActionKind = "open"
	// ActRemoveSeat (owner, a fair game with openings, in the lobby after
	// the openings' deadline): remove the seat of Target, who never opened.
	ActRemoveSeat ActionKind = "removeSeat"
)

// ServerActor is the actor of the actions the server takes by itself, on
// no player's behalf: a trustless round's abort at its deadline, and the
// abandon of a game left unfinished past the server's deadline (its
// scheduled sweep). No client may act as it: the service refuses a caller
// whose uid is this ('@' begins no uid Firebase makes).
const ServerActor = "@server"

// ActionKinds lists every action kind.
var ActionKinds = []ActionKind{
	ActCreate, ActJoin, ActStart, ActUseItem, ActDropItem, ActEndManage,
	ActOfferDuel, ActSkipDuel, ActMove, ActSleep, ActCombatRound,
	ActDuelRound, ActReroll, ActDeclineReroll, ActDiscard, ActAbandon,
	ActReveal, ActAbort, ActOpen, ActRemoveSeat,
}

// numActionKinds is len(ActionKinds).
const numActionKinds = 20

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
	case ActReveal:
		return 16
	case ActAbort:
		return 17
	case ActOpen:
		return 18
	case ActRemoveSeat:
		return 19
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
	Mode   string `json:"mode,omitempty"` // "seeded", "crypto", "fair" or "trustless"
	Seed   string `json:"seed,omitempty"` // seeded mode only
	Audit  bool   `json:"audit,omitempty"`
	// ChainLength (trustless) is N, the links of every seat's chain: 0 for
	// the default 65,536; at least the ruleset's Ruleset.MaxRandomActions
	// and at most 2^20.
	ChainLength int `json:"chainLength,omitempty"`
	// DeadlineMs (trustless, and fair with openings) is the public time a
	// reveal round, or the openings, may take, in milliseconds: 0 for the
	// default 60,000; 1,000 to 86,400,000.
	DeadlineMs int64 `json:"deadlineMs,omitempty"`
	// Openings (fair) makes a fair game whose players commit to their
	// contribution at join (EntropyCommitment) and open it before the start
	// (ActOpen), so that no seat can choose its contribution after seeing
	// another's.
	Openings bool `json:"openings,omitempty"`
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
	// bytes as hex digits of either case (fair mode only), given at join;
	// in a fair game with openings, exactly 32 bytes given by ActOpen.
	Entropy string `json:"entropy,omitempty"`
	// EntropyCommitment (join, fair with openings) is
	// rng/fair.ContributionCommitment of the contribution the player will
	// open, 64 hex digits.
	EntropyCommitment string `json:"entropyCommitment,omitempty"`
	// ChainHead and PublicKey (join, trustless) are the head x_0 of the
	// seat's hash chain and its Ed25519 public key, 64 hex digits each.
	ChainHead string `json:"chainHead,omitempty"`
	PublicKey string `json:"publicKey,omitempty"`

	// Signature (trustless) is the actor's Ed25519 signature, 128 hex
	// digits: of rng/trustless.ActionMessage for an action by a seated
	// player (a join: by the key it brings), of rng/trustless.RevealMessage
	// for a reveal. An actor without a seat signs nothing.
	Signature string `json:"signature,omitempty"`

	// reveal: the index, the link x_Index of the actor's Seat, and the
	// pending action's digest and the transcript hash the actor signed
	// (64 hex digits each).
	Index      uint32 `json:"index,omitempty"`
	Link       string `json:"link,omitempty"`
	Digest     string `json:"digest,omitempty"`
	Transcript string `json:"transcript,omitempty"`
	// Verified (reveal; never in JSON, so never from a client nor in a
	// record) is what a server that checked this reveal before keeps
	// with it: [RevealFingerprint] of the reveal when its signature
	// verified. A reveal whose Verified is its fingerprint now (the same
	// seat key, index, digest, transcript and signature) skips the
	// Ed25519 verification; any other is verified. Every other check
	// (the link against the seat's previous one included) runs as ever.
	Verified string `json:"-"`

	// offerDuel; removeSeat
	Target string `json:"target,omitempty"`

	// useItem, dropItem, discard
	CardID string `json:"cardId,omitempty"`
}
