package engine

import (
	"slices"
	"unsafe"

	"github.com/fairboard/fairboard/rng"
)

// Game is one game: what every player may see and what no client may see.
// The store keeps the two halves in separate documents. Both round-trip
// through JSON losslessly. The zero Game is a game not yet created.
type Game struct {
	Public Public `json:"public"`
	Secret Secret `json:"secret"`

	// spare is a reset game's old Fairness, lent to the next (see Reset).
	spare *Fairness
}

// Phase is the life stage of a game.
type Phase string

// The phases: "" before create, then lobby, playing, finished.
const (
	PhaseNone     Phase = ""
	PhaseLobby    Phase = "lobby"
	PhasePlaying  Phase = "playing"
	PhaseFinished Phase = "finished"
)

// Step is the step of the current player's turn (GAME_RULES.md "Turn"). The
// engine rests only on steps that wait for a decision: manage, preDuel,
// moveOrSleep, combat, duel and capacity (and bracket at the end).
type Step string

// The steps of a turn, in order, then the end-game bracket.
const (
	StepStart       Step = "start"
	StepManage      Step = "manage"
	StepPreDuel     Step = "preDuel"
	StepMoveOrSleep Step = "moveOrSleep"
	StepResolveTile Step = "resolveTile"
	StepCombat      Step = "combat"
	StepDuel        Step = "duel"
	StepPostCombat  Step = "postCombat"
	StepCapacity    Step = "capacity"
	StepBracket     Step = "bracket"
)

// Class is a player's class.
type Class string

// The classes of GAME_RULES.md; their numbers are in [ClassRules].
const (
	ClassWarrior Class = "warrior"
	ClassMonk    Class = "monk"
	ClassDuelist Class = "duelist"
	ClassScout   Class = "scout"
)

// Classes lists the classes in a fixed order (the default rotation of
// seats: seat i gets Classes[i%4]).
var Classes = []Class{ClassWarrior, ClassMonk, ClassDuelist, ClassScout}

// ClassNames lists the classes' names in [Classes]' order.
func ClassNames() []string {
	out := make([]string, len(Classes))
	for i, c := range Classes {
		out[i] = string(c)
	}
	return out
}

// Valid reports whether c is one of [Classes].
func (c Class) Valid() bool { return slices.Contains(Classes, c) }

// RNGInfo is the public part of the game's generator: the spec's
// games/{gameId}.rng without the seed (which is secret).
type RNGInfo struct {
	Mode         rng.Mode `json:"mode"`
	Seq          uint64   `json:"seq"`
	AuditEnabled bool     `json:"auditEnabled,omitempty"`
}

// Public is the state every player may see.
type Public struct {
	GameID       string  `json:"gameId"`
	Owner        string  `json:"owner"`
	RulesHash    string  `json:"rulesHash"`
	Phase        Phase   `json:"phase"`
	Version      uint64  `json:"version"` // +1 per applied action; 1 after create
	LogSeq       uint64  `json:"logSeq"`  // seq of the last event emitted
	LastActionID string  `json:"lastActionId,omitempty"`
	RNG          RNGInfo `json:"rng"`

	Players   []Player `json:"players,omitempty"`  // sorted by Seat
	Order     []string `json:"order,omitempty"`    // turn order (uids), fixed at start
	TurnIndex int      `json:"turnIndex"`          // index into Order of the current player
	Current   string   `json:"current,omitempty"`  // uid of the current player
	Awaiting  string   `json:"awaiting,omitempty"` // uid whose decision the game waits for
	Round     int      `json:"round"`              // 1-based once started
	Turn      int      `json:"turn"`               // 1-based count of turns begun (ctx.turn)
	Step      Step     `json:"step,omitempty"`

	Decks   []DeckInfo `json:"decks,omitempty"` // in DeckIDs order
	Combat  *Combat    `json:"combat,omitempty"`
	Duel    *Duel      `json:"duel,omitempty"`
	Bracket *Bracket   `json:"bracket,omitempty"`

	EndTriggered bool   `json:"endTriggered,omitempty"` // someone reached the final tile this round
	Winner       string `json:"winner,omitempty"`
	NextID       int    `json:"nextId"` // counter for combat and duel ids

	CreatedAt  int64 `json:"createdAt,omitempty"` // Action.At of create, unix ms
	StartedAt  int64 `json:"startedAt,omitempty"`
	FinishedAt int64 `json:"finishedAt,omitempty"`

	// Fairness is the fair-mode commitment from create on, and what was
	// secret until the end (every mode) once the game has ended; nil in a
	// seeded or crypto game before its end.
	Fairness *Fairness `json:"fairness,omitempty"`

	// Trustless is a trustless game's protocol state (chain heads, keys,
	// the last published links, the transcript and the pending action);
	// nil in every other mode.
	Trustless *Trustless `json:"trustless,omitempty"`
}

// Secret is what no client may see: deck order, the generator and its
// seeds, and the record of every shuffle. What of it a finished game
// reveals is in [Game.Reveal].
type Secret struct {
	Seed     string       `json:"seed,omitempty"`     // seeded mode only
	RNGState string       `json:"rngState,omitempty"` // rng.Stream.State(), "" before the first save
	Decks    []SecretDeck `json:"decks,omitempty"`    // in DeckIDs order

	// ServerSeed (fair mode) is the server's 32-byte seed, 64 hex digits.
	ServerSeed string `json:"serverSeed,omitempty"`
	// Entropy (fair mode) holds each seated player's contribution in
	// lower-case hex ("" for none), in the order of Public.Players.
	Entropy []string `json:"entropy,omitempty"`
	// GameSeed (fair mode) is the stream's seed in hex, fixed at start.
	GameSeed string `json:"gameSeed,omitempty"`
	// SaltKey derives the salt of every shuffle (rng/fair.DeckSalt).
	SaltKey Hash32 `json:"saltKey,omitzero"`
	// Shuffles records every shuffle of the game, in order.
	Shuffles []ShuffleRecord `json:"shuffles,omitempty"`

	// Links (trustless) are the links accepted for the pending action's
	// round, in the order they arrived, held here until the round closes
	// and the commit publishes them all at once. A trustless game keeps no
	// deck order: its piles are public (DeckInfo.Pile).
	Links []RoundLink `json:"links,omitempty"`
}

// SecretDeck is a deck's draw pile, top card first.
type SecretDeck struct {
	ID    string   `json:"id"`
	Cards []string `json:"cards,omitempty"`
}

// DeckInfo is the public face of a deck: its size and its discard pile
// (oldest first). In a trustless game it also holds the draw pile, Pile:
// no order is ever fixed in advance (a draw takes a card uniformly from it
// with the action's stream), so there is nothing to hide, and every client
// needs it to recompute the draws.
type DeckInfo struct {
	ID      string   `json:"id"`
	Size    int      `json:"size"`
	Discard []string `json:"discard,omitempty"`
	Pile    []string `json:"pile,omitempty"`
}

// Player is one seated player. The bonuses are derived from the inventory
// (recomputed whenever it changes) and kept for display and speed.
type Player struct {
	UID   string   `json:"uid"`
	Seat  int      `json:"seat"`
	Class Class    `json:"class"`
	HP    int      `json:"hp"`  // 0..MaxHP
	Pos   int      `json:"pos"` // 0..final tile
	Items []string `json:"items,omitempty"`

	AtkBonus  int `json:"atkBonus"`  // best weapon (Relic counts)
	DefBonus  int `json:"defBonus"`  // best armor (Relic counts)
	MoveBonus int `json:"moveBonus"` // boots

	MonkCancelUsed bool `json:"monkCancelUsed,omitempty"`
	// KeepSmokeBomb is the standing preference not to spend a Smoke bomb
	// when challenged (default false: a held bomb cancels the duel).
	KeepSmokeBomb bool `json:"keepSmokeBomb,omitempty"`
}

// Enemy is one enemy on the table, in queue order.
type Enemy struct {
	CardID string `json:"cardId"`
	Tier   int    `json:"tier"`
	HP     int    `json:"hp"` // 0 = dead
	Atk    int    `json:"atk"`
	Def    int    `json:"def"`
}

// Combat is a fight between the current player and an enemy queue.
type Combat struct {
	ID      string  `json:"id"`
	UID     string  `json:"uid"`
	TileID  int     `json:"tileId"`
	Tier    int     `json:"tier"`
	Cause   string  `json:"cause"` // "tile" or "ambush"
	Round   int     `json:"round"` // rounds fought so far
	Enemies []Enemy `json:"enemies"`
}

// Duel is a fight between two players: a challenge in preDuel, or a bracket
// match at the end. Dice hold the last round's dice while rerolls are
// pending.
type Duel struct {
	ID         string `json:"id"`
	Challenger string `json:"challenger"`
	Target     string `json:"target"`
	Round      int    `json:"round"`  // rounds completed
	DealtC     int    `json:"dealtC"` // total damage dealt by the challenger
	DealtT     int    `json:"dealtT"`
	Bracket    bool   `json:"bracket,omitempty"`

	Rolled      bool `json:"rolled,omitempty"` // dice rolled, rerolls pending
	CAtk        int  `json:"cAtk,omitempty"`
	CDef        int  `json:"cDef,omitempty"`
	TAtk        int  `json:"tAtk,omitempty"`
	TDef        int  `json:"tDef,omitempty"`
	CRerollUsed bool `json:"cRerollUsed,omitempty"`
	TRerollUsed bool `json:"tRerollUsed,omitempty"`
	CDecided    bool `json:"cDecided,omitempty"` // this round's reroll decision made
	TDecided    bool `json:"tDecided,omitempty"`
}

// Bracket is the end-game bracket: Finalists in seat order, the Champion so
// far, and Next, the index of the next finalist to face it.
type Bracket struct {
	Finalists []string `json:"finalists"`
	Champion  string   `json:"champion"`
	Next      int      `json:"next"`
}

// Player returns the player with the uid and its index, or nil, -1.
func (p *Public) Player(uid string) (*Player, int) {
	// The uid asked for is most often a copy of the player's own UID (the
	// game's Current, Awaiting and Order are, and so are a bot's actors):
	// the same bytes, found without reading them.
	n, at := len(uid), unsafe.StringData(uid)
	for i := range p.Players {
		if u := p.Players[i].UID; unsafe.StringData(u) == at && len(u) == n {
			return &p.Players[i], i
		}
	}
	for i := range p.Players {
		// The uids of one game mostly differ in their last byte ("p1",
		// "p2"): comparing it first spares a call per other player.
		if u := p.Players[i].UID; len(u) == n && (n == 0 || u[n-1] == uid[n-1]) && u == uid {
			return &p.Players[i], i
		}
	}
	return nil, -1
}
