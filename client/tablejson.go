package client

import (
	"encoding/json"
	"fmt"
)

// TableResult is the answer of a table's createGame, joinGame, startGame,
// act and reveal (functions.TableResult): the table's version after the action,
// the action's events as the player reads them, and whether it is the
// stored answer of an earlier send of the same action (a retry).
type TableResult struct {
	GameID   string       `json:"gameId"`
	ActionID string       `json:"actionId"`
	Version  uint64       `json:"version"`
	Events   []TableEvent `json:"events"`
	Replayed bool         `json:"replayed"`
	// Ack is the server's signature acknowledging what the action
	// brought that its seat could later be named as missing (a reveal, a
	// deal message: table.AckMessage), where the server signs them
	// (functions.TableAck); Table.Send checks it against
	// Table.ServerKey.
	Ack *ServerAck `json:"ack,omitempty"`
}

// TableView is a table's getView answer (functions.TableView).
type TableView struct {
	Game      string          `json:"game"`
	GameID    string          `json:"gameId"`
	Mode      string          `json:"mode"`
	Owner     string          `json:"owner"`
	Phase     string          `json:"phase"` // "lobby", "playing", "finished"
	Version   uint64          `json:"version"`
	Seats     []TableSeat     `json:"seats"`
	Rules     json.RawMessage `json:"rules"`
	RulesHash string          `json:"rulesHash"`
	// Seat is the player's seat, -1 for none; ToMove the seat the game
	// awaits, -1 in the lobby and once over.
	Seat   int `json:"seat"`
	ToMove int `json:"toMove"`
	// State is the game's view of the player's seat (its public part
	// for a player without a seat); null before the start.
	State json.RawMessage `json:"state"`
	// Private is the game's private part of the player's seat alone
	// (Kuhn poker's {"card":C}); null without a seat, before the start,
	// and for a game whose seats have none (Pig).
	Private json.RawMessage `json:"private"`
	// Legal are the player's legal moves now, each the game's move JSON
	// (what Move sends).
	Legal      []json.RawMessage `json:"legal"`
	Log        []TableEvent      `json:"log"`
	Outcome    *TableOutcome     `json:"outcome"`
	Names      map[string]string `json:"names"`
	Spectating bool              `json:"spectating,omitempty"`
	// Fairness and Trustless are a fair and a trustless table's
	// protocol, as getView sends them (docs/functions.md).
	Fairness  json.RawMessage `json:"fairness,omitempty"`
	Trustless json.RawMessage `json:"trustless,omitempty"`
}

// TableSeat is a seat: its uid ("" while free) and its options.
type TableSeat struct {
	UID     string   `json:"uid"`
	Options []string `json:"options"`
}

// TableOutcome is a finished table's outcome.
type TableOutcome struct {
	Abandoned bool      `json:"abandoned"`
	Winners   []int     `json:"winners"`
	Payoffs   []float64 `json:"payoffs"`
	Reason    string    `json:"reason,omitempty"`
	Missing   []int     `json:"missing,omitempty"`
}

// TableEvent is one event of a table's log as the player reads it
// (tablestore.AppendEventJSON): its seq and type, Game for the game's
// own events, To the seat an event addressed to one seat went to (-1:
// every seat), UID and Options where the table's events carry them, and
// every other field (the event's named values) in Vals. An event
// addressed to another seat is its trace: type "Addressed", Vals["seat"]
// its seat, nothing else.
type TableEvent struct {
	Seq     int
	Type    string
	Game    bool
	To      int
	UID     string
	Options []string
	Vals    map[string]int64
}

// UnmarshalJSON decodes an event: seq and type required, every value a
// whole number.
func (e *TableEvent) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*e = TableEvent{To: -1, Vals: map[string]int64{}}
	for k, raw := range m {
		var err error
		switch k {
		case "seq":
			err = json.Unmarshal(raw, &e.Seq)
		case "type":
			err = json.Unmarshal(raw, &e.Type)
		case "game":
			err = json.Unmarshal(raw, &e.Game)
		case "to":
			err = json.Unmarshal(raw, &e.To)
		case "uid":
			err = json.Unmarshal(raw, &e.UID)
		case "options":
			err = json.Unmarshal(raw, &e.Options)
		default:
			var v int64
			err = json.Unmarshal(raw, &v)
			e.Vals[k] = v
		}
		if err != nil {
			return fmt.Errorf("client: event field %q: %w", k, err)
		}
	}
	if e.Seq < 1 || e.Type == "" {
		return fmt.Errorf("client: an event without its seq or type: %.200s", b)
	}
	return nil
}
