package dungeonfn

import (
	"strings"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// The dungeon's request data (the callable body's "data") of createGame,
// joinGame, startGame, act and reveal; getView's, exportGame's,
// getShuffle's and verifyShuffle's are every game's (package functions).
// Unknown fields (names are case-sensitive), duplicate keys and wrong
// types are INVALID_ARGUMENT. Every string's maximum and format are
// checked in one place, the service's limits.go (gameId and actionId:
// 1-128 characters of [A-Za-z0-9_-]; target: a uid, at most 128
// characters; cardId: at most 64 bytes; seed: at most 256 bytes;
// entropy: at most 128 hex digits), before the store is touched; a
// breach is INVALID_ARGUMENT naming the field. The uid always comes from
// the ID token, never from the data.

// CreateRequest is createGame's data for the dungeon (Game absent or
// "dungeon"; any other game is a table: TableCreateRequest). Mode is "crypto" (default), "fair",
// "trustless", or "seeded" (only where the deployment allows it; Seed
// required then). ChainLength (trustless: N, 0 for 65,536) and
// DeadlineMs (trustless, and fair with Openings: 0 for 60,000; 1,000 to
// 86,400,000) are public once the game exists; Openings makes a fair game
// whose players commit to their entropy at join and open it before the
// start (docs/fairness.md).
type CreateRequest struct {
	Game        string `json:"game,omitempty"` // "" or "dungeon" (another game: functions.TableCreateRequest)
	GameID      string `json:"gameId"`
	ActionID    string `json:"actionId,omitempty"`
	Mode        string `json:"mode,omitempty"`
	Seed        string `json:"seed,omitempty"`
	Audit       bool   `json:"audit,omitempty"`
	ChainLength int    `json:"chainLength,omitempty"`
	DeadlineMs  int64  `json:"deadlineMs,omitempty"`
	Openings    bool   `json:"openings,omitempty"`
	// Visibility is "link" (the default: a stranger finds the game only
	// by its id, and not at all once it has started) or "public" (listed
	// by listOpenGames while it waits for players, and open to
	// spectators). Spectators opens the game to spectators: any
	// signed-in user reads its public view and, once it is over, its
	// export.
	Visibility string `json:"visibility,omitempty"`
	Spectators bool   `json:"spectators,omitempty"`
}

// JoinRequest is joinGame's data. Entropy (fair games only) is the
// player's contribution to the game seed: 0 to 64 bytes as hex, drawn at
// random on the player's device after seeing the game's commitment; in a
// fair game with openings the join gives EntropyCommitment instead (64
// hex digits). A trustless join gives the seat's ChainHead and PublicKey
// (64 hex digits each) and is signed by that key (Signature, 128 hex
// digits) over the game version it names (Version, required there).
type JoinRequest struct {
	Game              string       `json:"game,omitempty"` // "" or "dungeon": the routing hint of docs/functions.md
	GameID            string       `json:"gameId"`
	ActionID          string       `json:"actionId,omitempty"`
	Seat              int          `json:"seat"`
	Class             engine.Class `json:"class"`
	KeepSmokeBomb     bool         `json:"keepSmokeBomb,omitempty"`
	Entropy           string       `json:"entropy,omitempty"`
	EntropyCommitment string       `json:"entropyCommitment,omitempty"`
	ChainHead         string       `json:"chainHead,omitempty"`
	PublicKey         string       `json:"publicKey,omitempty"`
	Version           uint64       `json:"version,omitempty"`
	Signature         string       `json:"signature,omitempty"`
}

// StartRequest is startGame's data: in a trustless game the owner's start
// names the version and is signed, as every action there.
type StartRequest struct {
	Game      string `json:"game,omitempty"` // "" or "dungeon": the routing hint of docs/functions.md
	GameID    string `json:"gameId"`
	ActionID  string `json:"actionId,omitempty"`
	Version   uint64 `json:"version,omitempty"`
	Signature string `json:"signature,omitempty"`
}

// ActRequest is act's data: one in-game action. Kind is one of the
// in-game kinds (not create, join or start, nor reveal, which has its own
// function, nor abort, which only the server applies); Version, if not
// 0, pins the game version the player saw (stale_version otherwise; in a
// trustless game it is required, and Signature signs the action).
// Entropy is an opening's contribution (open, fair games with openings:
// 32 bytes as 64 hex digits); Target is an offerDuel's or a removeSeat's.
// Reveal, in a trustless game, is the caller's own reveal
// (functions.ActReveal) for the index
// the action will use if it draws, applied with it (docs/fairness.md, "An
// action with its reveal"). ActionID is required: a retry with the same
// id returns the first answer.
type ActRequest struct {
	Game      string               `json:"game,omitempty"` // "" or "dungeon": the routing hint of docs/functions.md
	GameID    string               `json:"gameId"`
	ActionID  string               `json:"actionId"`
	Kind      engine.ActionKind    `json:"kind"`
	Version   uint64               `json:"version,omitempty"`
	Target    string               `json:"target,omitempty"`
	CardID    string               `json:"cardId,omitempty"`
	Entropy   string               `json:"entropy,omitempty"`
	Signature string               `json:"signature,omitempty"`
	Reveal    *functions.ActReveal `json:"reveal,omitempty"`
}

// RevealRequest is reveal's data: a seat's chain link for the pending
// index of a trustless game, and its signature over the game, the index,
// the pending action's digest and the transcript hash the client checked
// (docs/fairness.md). ActionID is required (a retry with the same id gets
// the first answer); Seat is the caller's own.
type RevealRequest struct {
	Game       string `json:"game,omitempty"` // "" or "dungeon": the routing hint of docs/functions.md
	GameID     string `json:"gameId"`
	ActionID   string `json:"actionId"`
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	Link       string `json:"link"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
}

// inGame lists the kinds act accepts; inGameKinds names them for errors.
var (
	inGame      = map[engine.ActionKind]bool{}
	inGameKinds string
)

func init() {
	var names []string
	for _, k := range engine.ActionKinds {
		switch k {
		case engine.ActCreate, engine.ActJoin, engine.ActStart, engine.ActReveal, engine.ActAbort:
		default:
			inGame[k] = true
			names = append(names, string(k))
		}
	}
	inGameKinds = strings.Join(names, ", ")
}

// action converts the request to an engine action by uid.
func (r *ActRequest) action(uid string) engine.Action {
	return engine.Action{Kind: r.Kind, Actor: uid, ID: r.ActionID, Version: r.Version, Target: r.Target, CardID: r.CardID,
		Entropy: r.Entropy, Signature: r.Signature}
}

// revealAction converts an act's own reveal to an engine reveal by uid.
func revealAction(r *functions.ActReveal, uid string) engine.Action {
	return engine.Action{Kind: engine.ActReveal, Actor: uid, Seat: r.Seat, Index: r.Index,
		Link: r.Link, Digest: r.Digest, Transcript: r.Transcript, Signature: r.Signature}
}

// action converts the request to an engine reveal by uid.
func (r *RevealRequest) action(uid string) engine.Action {
	return engine.Action{Kind: engine.ActReveal, Actor: uid, ID: r.ActionID, Seat: r.Seat, Index: r.Index,
		Link: r.Link, Digest: r.Digest, Transcript: r.Transcript, Signature: r.Signature}
}
