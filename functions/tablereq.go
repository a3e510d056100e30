package functions

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/table"
)

// The request data of a table game's functions (docs/functions.md, "Table
// games"): a game of the registry other than the dungeon, kept by a
// tablestore.Store. Decoded strictly as the dungeon's (unknown fields,
// duplicate keys, wrong types refused); then every field is checked
// against its limit below before the store is touched, a breach
// INVALID_ARGUMENT naming the field (details.code "invalid_<field>").

// The limits of a table request's fields.
const (
	// MaxTableRulesBytes bounds createGame's rules (a game's ruleset JSON).
	MaxTableRulesBytes = 16 << 10
	// MaxTableMoveBytes bounds act's move (a game's move JSON).
	MaxTableMoveBytes = 1 << 10
	// MaxTableOptions bounds joinGame's options, MaxTableOptionBytes each
	// option's name and value.
	MaxTableOptions     = 16
	MaxTableOptionBytes = 64
	// MaxTableSeats bounds createGame's seats (the game bounds it again).
	MaxTableSeats = 64
)

// TableCreateRequest is createGame's data for a table game: Game names
// it (a registered game but the dungeon); Mode is "crypto" (default),
// "fair" (the server draws its seed and publishes the commitment; the
// players' entropy at join makes the game seed with it; all revealed at
// the end) or "seeded" (only where the deployment allows seeded games;
// Seed, 1-256 bytes, required then); Seats is the seat count (0: the game's default);
// Rules the game's ruleset JSON (absent: its default), decoded strictly
// by the game. ActionID is required.
//
// Mode "trustless" (docs/fairness.md, "Trustless tables"; a game whose
// every part is public only) takes ChainLength (0: 65,536) and
// DeadlineMs (0: 60,000), as the dungeon's create. Mode "fair" with
// Openings (docs/fairness.md, "Openings") takes DeadlineMs too: the time
// the seats have to open from the first opening.
type TableCreateRequest struct {
	Game        string          `json:"game"`
	GameID      string          `json:"gameId"`
	ActionID    string          `json:"actionId"`
	Mode        string          `json:"mode,omitempty"`
	Seed        string          `json:"seed,omitempty"`
	Seats       int             `json:"seats,omitempty"`
	Rules       json.RawMessage `json:"rules,omitempty"`
	ChainLength uint32          `json:"chainLength,omitempty"`
	DeadlineMs  uint64          `json:"deadlineMs,omitempty"`
	Openings    bool            `json:"openings,omitempty"`
	// Audit keeps the table's RNG audit ring (docs/functions.md, "Seeded
	// mode and audit"), as the dungeon's create; the deployment's
	// FAIRBOARD_AUDIT=1 turns it on for every table.
	Audit bool `json:"audit,omitempty"`
	// Visibility and Spectators: as the dungeon's CreateRequest.
	Visibility string `json:"visibility,omitempty"`
	Spectators bool   `json:"spectators,omitempty"`
}

// TableJoinRequest is joinGame's data for a table game: Seat (0 to the
// table's seats - 1), Options the seat's options by name (every option
// of the game, or none: its defaults), Version the table's version the
// caller saw; Entropy, at a fair table only (optional), the player's
// contribution to the game seed: 0 to 64 bytes as hex, drawn on its
// device after it saw the commitment; at a fair table with openings,
// EntropyCommitment instead (64 hex digits, docs/fairness.md).
type TableJoinRequest struct {
	Game     string            `json:"game,omitempty"` // the table's game: optional, spares the dungeon's read (docs/functions.md, "Routing")
	GameID   string            `json:"gameId"`
	ActionID string            `json:"actionId"`
	Version  uint64            `json:"version"`
	Seat     int               `json:"seat"`
	Options  map[string]string `json:"options,omitempty"`
	Entropy  string            `json:"entropy,omitempty"`
	// EntropyCommitment is a fair table's with openings.
	EntropyCommitment string `json:"entropyCommitment,omitempty"`
	// ChainHead, PublicKey and Signature are a trustless table's join,
	// as the dungeon's (64, 64 and 128 hex digits).
	ChainHead string `json:"chainHead,omitempty"`
	PublicKey string `json:"publicKey,omitempty"`
	Signature string `json:"signature,omitempty"`
}

// TableStartRequest is startGame's data for a table game (the owner's).
type TableStartRequest struct {
	Game     string `json:"game,omitempty"` // the table's game: optional, spares the dungeon's read (docs/functions.md, "Routing")
	GameID   string `json:"gameId"`
	ActionID string `json:"actionId"`
	Version  uint64 `json:"version"`
}

// The kinds act takes at a table (join and start have their own
// functions).
var tableActKinds = []table.Kind{table.KindMove, table.KindLeave, table.KindRemoveSeat, table.KindAbandon, table.KindAbort, table.KindDeal, table.KindOpen}

// TableActRequest is act's data for a table game: Kind is "move"
// (default: Move is the game's move, {"kind": ..., args}, decoded
// strictly by game.DecodeMove), "leave", "removeSeat" (Seat, the owner's)
// or "abandon" (the owner's); Version the table's version the caller
// saw. At a trustless table a move carries its Signature and, if it
// draws, may carry the actor's own Reveal (as the dungeon's act); kind
// "abort" (any caller) asks the server to end the game whose pending
// round is past its deadline (the server applies it in its own name, at
// its own time: deadline_not_passed before); kind "deal" (a seat, at a
// trustless table of a game that deals: Kuhn poker) carries the seat's
// mental-poker message Deal (docs/fairness.md, "Dealing without a dealer
// who sees"), with no version; the first move at such a table may carry
// its seat's deal keys as Deal ({keys}) while the deal waits only for
// them. Kind "open" (a seat, at a fair table with openings, every seat
// taken) carries Entropy, the seat's 32-byte contribution as 64 hex
// digits, which must open its commitment. At such a table an abort asks
// the server to end a lobby whose openings are past their deadline.
type TableActRequest struct {
	Game      string             `json:"game,omitempty"` // the table's game: optional, spares the dungeon's read (docs/functions.md, "Routing")
	GameID    string             `json:"gameId"`
	ActionID  string             `json:"actionId"`
	Version   uint64             `json:"version"`
	Kind      table.Kind         `json:"kind,omitempty"`
	Seat      *int               `json:"seat,omitempty"`
	Move      json.RawMessage    `json:"move,omitempty"`
	Signature string             `json:"signature,omitempty"`
	Reveal    *ActReveal         `json:"reveal,omitempty"`
	Deal      *table.DealMessage `json:"deal,omitempty"`
	Entropy   string             `json:"entropy,omitempty"`
}

// TableRevealRequest is reveal's data at a trustless table: the fields
// of the dungeon's RevealRequest, and the routing hint.
type TableRevealRequest struct {
	Game       string `json:"game,omitempty"`
	GameID     string `json:"gameId"`
	ActionID   string `json:"actionId"`
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	Link       string `json:"link"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
}

// fieldErr is the INVALID_ARGUMENT answer to a field out of its limit.
func fieldErr(field, problem string) error {
	return callable.InvalidArgument("data.%s %s", field, problem).WithDetails(details{"invalid_" + field})
}

// checkIDs checks gameId and actionId: 1-128 characters of [A-Za-z0-9_-].
func checkIDs(gameID, actionID string) error {
	if !table.ValidID(gameID) {
		return fieldErr("gameId", "must be 1-128 characters of [A-Za-z0-9_-]")
	}
	if !table.ValidID(actionID) {
		return fieldErr("actionId", "must be 1-128 characters of [A-Za-z0-9_-]")
	}
	return nil
}

func (q *TableCreateRequest) check() error {
	if err := checkIDs(q.GameID, q.ActionID); err != nil {
		return err
	}
	switch {
	case q.Mode != "" && q.Mode != "crypto" && q.Mode != "seeded" && q.Mode != "fair" && q.Mode != "trustless":
		return fieldErr("mode", `must be "crypto", "fair", "trustless" or "seeded"`)
	case len(q.Seed) > table.MaxSeedLen || !utf8.ValidString(q.Seed):
		return fieldErr("seed", "must be at most 256 bytes of UTF-8")
	case q.Seats < 0 || q.Seats > MaxTableSeats:
		return fieldErr("seats", fmt.Sprintf("must be 0 to %d", MaxTableSeats))
	case len(q.Rules) > MaxTableRulesBytes:
		return fieldErr("rules", fmt.Sprintf("must be at most %d bytes", MaxTableRulesBytes))
	}
	return checkVisibility(q.Visibility)
}

func (q *TableJoinRequest) check() error {
	if err := checkIDs(q.GameID, q.ActionID); err != nil {
		return err
	}
	if q.Seat < 0 || q.Seat >= MaxTableSeats {
		return fieldErr("seat", fmt.Sprintf("must be 0 to %d", MaxTableSeats-1))
	}
	if len(q.ChainHead) > 64 || len(q.PublicKey) > 64 || len(q.Signature) > 128 {
		return fieldErr("chainHead", "chainHead and publicKey must be 64 hex digits, signature 128")
	}
	if len(q.Entropy) > 2*fair.MaxEntropy {
		return fieldErr("entropy", fmt.Sprintf("must be at most %d hex digits (%d bytes)", 2*fair.MaxEntropy, fair.MaxEntropy))
	}
	if len(q.EntropyCommitment) > 64 {
		return fieldErr("entropyCommitment", "must be 64 hex digits")
	}
	if len(q.Options) > MaxTableOptions {
		return fieldErr("options", fmt.Sprintf("must have at most %d options", MaxTableOptions))
	}
	for k, v := range q.Options {
		if len(k) > MaxTableOptionBytes || len(v) > MaxTableOptionBytes || !utf8.ValidString(k) || !utf8.ValidString(v) {
			return fieldErr("options", fmt.Sprintf("names and values must be at most %d bytes of UTF-8", MaxTableOptionBytes))
		}
	}
	return nil
}

func (q *TableActRequest) check() error {
	if err := checkIDs(q.GameID, q.ActionID); err != nil {
		return err
	}
	if q.Kind == "" {
		q.Kind = table.KindMove
	}
	known := false
	names := make([]string, len(tableActKinds))
	for i, k := range tableActKinds {
		names[i] = string(k)
		known = known || k == q.Kind
	}
	switch {
	case !known:
		return fieldErr("kind", "must be one of "+strings.Join(names, ", "))
	case (q.Kind == table.KindMove) != (q.Move != nil):
		return fieldErr("move", "is required with kind move, and only there")
	case (q.Kind == table.KindRemoveSeat) != (q.Seat != nil):
		return fieldErr("seat", "is required with kind removeSeat, and only there")
	case len(q.Move) > MaxTableMoveBytes:
		return fieldErr("move", fmt.Sprintf("must be at most %d bytes", MaxTableMoveBytes))
	case q.Seat != nil && (*q.Seat < 0 || *q.Seat >= MaxTableSeats):
		return fieldErr("seat", fmt.Sprintf("must be 0 to %d", MaxTableSeats-1))
	case len(q.Signature) > 128:
		return fieldErr("signature", "must be 128 hex digits")
	case q.Kind == table.KindDeal && q.Deal == nil:
		return fieldErr("deal", "is required with kind deal")
	case q.Deal != nil && q.Kind != table.KindDeal && q.Kind != table.KindMove:
		return fieldErr("deal", "goes with kind deal, or with a move at the deal (its seat's keys)")
	case (q.Kind == table.KindOpen) != (q.Entropy != ""):
		return fieldErr("entropy", "is required with kind open, and only there")
	case len(q.Entropy) > 2*fair.ContributionSize:
		return fieldErr("entropy", fmt.Sprintf("must be %d hex digits", 2*fair.ContributionSize))
	case q.Reveal != nil && q.Kind != table.KindMove:
		return fieldErr("reveal", "goes with a move only")
	case q.Reveal != nil && !revealSized(q.Reveal.Link, q.Reveal.Digest, q.Reveal.Transcript, q.Reveal.Signature):
		return fieldErr("reveal", "link, digest and transcript must be 64 hex digits, signature 128")
	}
	return nil
}

// revealSized bounds a reveal's fields (the table checks their form).
func revealSized(link, digest, transcript, sig string) bool {
	return len(link) <= 64 && len(digest) <= 64 && len(transcript) <= 64 && len(sig) <= 128
}

func (q *TableRevealRequest) check() error {
	if err := checkIDs(q.GameID, q.ActionID); err != nil {
		return err
	}
	if !revealSized(q.Link, q.Digest, q.Transcript, q.Signature) {
		return fieldErr("link", "link, digest and transcript must be 64 hex digits, signature 128")
	}
	return nil
}

// action is the table action of an act request by uid at time at (unix
// ms); an abort is the server's.
func (q *TableActRequest) action(uid string, at int64) table.Action {
	a := table.Action{Actor: uid, ActionID: q.ActionID, Version: q.Version, Kind: q.Kind, Move: q.Move, Signature: q.Signature, At: at, Deal: q.Deal, Entropy: q.Entropy}
	if q.Seat != nil {
		a.Seat = *q.Seat
	}
	if r := q.Reveal; r != nil {
		a.Reveal = &table.Reveal{Seat: r.Seat, Index: r.Index, Link: r.Link, Digest: r.Digest, Transcript: r.Transcript, Signature: r.Signature}
	}
	if q.Kind == table.KindAbort {
		// The server aborts in its own name; the caller's action id keeps
		// its retries apart from others'.
		a.Actor, a.ActionID = table.ServerActor, abortID(uid, q.ActionID)
	}
	return a
}
