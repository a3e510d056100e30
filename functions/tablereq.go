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
type TableCreateRequest struct {
	Game     string          `json:"game"`
	GameID   string          `json:"gameId"`
	ActionID string          `json:"actionId"`
	Mode     string          `json:"mode,omitempty"`
	Seed     string          `json:"seed,omitempty"`
	Seats    int             `json:"seats,omitempty"`
	Rules    json.RawMessage `json:"rules,omitempty"`
	// Visibility and Spectators: as the dungeon's CreateRequest.
	Visibility string `json:"visibility,omitempty"`
	Spectators bool   `json:"spectators,omitempty"`
}

// TableJoinRequest is joinGame's data for a table game: Seat (0 to the
// table's seats - 1), Options the seat's options by name (every option
// of the game, or none: its defaults), Version the table's version the
// caller saw; Entropy, at a fair table only (optional), the player's
// contribution to the game seed: 0 to 64 bytes as hex, drawn on its
// device after it saw the commitment.
type TableJoinRequest struct {
	Game     string            `json:"game,omitempty"` // the table's game: optional, spares the dungeon's read (docs/functions.md, "Routing")
	GameID   string            `json:"gameId"`
	ActionID string            `json:"actionId"`
	Version  uint64            `json:"version"`
	Seat     int               `json:"seat"`
	Options  map[string]string `json:"options,omitempty"`
	Entropy  string            `json:"entropy,omitempty"`
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
var tableActKinds = []table.Kind{table.KindMove, table.KindLeave, table.KindRemoveSeat, table.KindAbandon}

// TableActRequest is act's data for a table game: Kind is "move"
// (default: Move is the game's move, {"kind": ..., args}, decoded
// strictly by game.DecodeMove), "leave", "removeSeat" (Seat, the owner's)
// or "abandon" (the owner's); Version the table's version the caller
// saw.
type TableActRequest struct {
	Game     string          `json:"game,omitempty"` // the table's game: optional, spares the dungeon's read (docs/functions.md, "Routing")
	GameID   string          `json:"gameId"`
	ActionID string          `json:"actionId"`
	Version  uint64          `json:"version"`
	Kind     table.Kind      `json:"kind,omitempty"`
	Seat     *int            `json:"seat,omitempty"`
	Move     json.RawMessage `json:"move,omitempty"`
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
	case q.Mode != "" && q.Mode != "crypto" && q.Mode != "seeded" && q.Mode != "fair":
		return fieldErr("mode", `must be "crypto", "fair" or "seeded"`)
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
	if len(q.Entropy) > 2*fair.MaxEntropy {
		return fieldErr("entropy", fmt.Sprintf("must be at most %d hex digits (%d bytes)", 2*fair.MaxEntropy, fair.MaxEntropy))
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
	}
	return nil
}

// action is the table action of an act request by uid.
func (q *TableActRequest) action(uid string) table.Action {
	a := table.Action{Actor: uid, ActionID: q.ActionID, Version: q.Version, Kind: q.Kind, Move: q.Move}
	if q.Seat != nil {
		a.Seat = *q.Seat
	}
	return a
}
