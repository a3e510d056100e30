package functions

import (
	"encoding/json"

	"github.com/fairboard/fairboard/table"
)

// The table functions' answers as the client reads them (client.Table* mirrors them: client.TestTableWireTypesAgree).

// TableResult is the answer of a table game's createGame, joinGame,
// startGame, act and reveal: the table's version after the action, the
// events of the action the caller may read (tablestore.AppendEventJSON),
// and whether it is the stored answer of an earlier identical request.
type TableResult struct {
	GameID   string          `json:"gameId"`
	ActionID string          `json:"actionId"`
	Version  uint64          `json:"version"`
	Events   json.RawMessage `json:"events"`
	Replayed bool            `json:"replayed"`
	// Ack is the server's signed acknowledgement of what the action
	// brought that its seat could later be named as missing (a reveal,
	// a deal message: table.AckMessage), where the deployment signs
	// them (WithAckKey); absent otherwise.
	Ack *TableAck `json:"ack,omitempty"`
}

// TableAck is the server's signature, hex, by its published Ed25519 key
// (FAIRBOARD_ACK_KEY) over table.AckMessage of the action at At (the
// server's time, unix ms), as the dungeon's service.Ack.
type TableAck struct {
	At        int64  `json:"at"`
	Signature string `json:"signature"`
}

// TableSeat is a seat of a TableView: its uid ("" while free) and its
// options in the order of the game's seat options.
type TableSeat struct {
	UID     string   `json:"uid"`
	Options []string `json:"options"`
}

// TableOutcome is a finished table's outcome.
type TableOutcome struct {
	Abandoned bool      `json:"abandoned"`
	Winners   []int     `json:"winners"`
	Payoffs   []float64 `json:"payoffs"`
	// Reason and Missing are a trustless game's that ended early:
	// "deadline" (Missing: the seats that did not reveal), "chainExhausted"
	// or "abandoned"; and any table's the sweep ended for want of an
	// action: "idle" (table.ReasonIdle).
	Reason  string `json:"reason,omitempty"`
	Missing []int  `json:"missing,omitempty"`
}

// TableView is getView's answer for a table game (table.View): the
// public part, the caller's seat (-1 for none), the game's view of it
// (state: the game's JSON, its public part for a caller without a seat;
// null before the start), its legal moves now (the game's move JSON) and
// the log it may read after afterSeq.
type TableView struct {
	Game      string          `json:"game"`
	GameID    string          `json:"gameId"`
	Mode      string          `json:"mode"`
	Owner     string          `json:"owner"`
	Phase     string          `json:"phase"`
	Version   uint64          `json:"version"`
	Seats     []TableSeat     `json:"seats"`
	Rules     json.RawMessage `json:"rules"`
	RulesHash string          `json:"rulesHash"`
	Seat      int             `json:"seat"`
	ToMove    int             `json:"toMove"`
	State     json.RawMessage `json:"state"`
	// Private is the game's private part of the caller's seat alone
	// (AppendPrivate: Kuhn poker's {"card":C}), the part the seat's
	// Firestore document holds; null for a caller without a seat, before
	// the start, and for a game whose seats have none (Pig).
	Private json.RawMessage `json:"private"`
	Legal   json.RawMessage `json:"legal"`
	Log     json.RawMessage `json:"log"`
	Outcome *TableOutcome   `json:"outcome"`
	// Names are the names copied into the game (at each join, and by a
	// seated player's rename), by uid.
	Names map[string]string `json:"names"`
	// Spectating is true when the caller reads the table as a spectator
	// (no seat, not its owner; the table is open to spectators): State
	// is the public part.
	Spectating bool `json:"spectating,omitempty"`
	// Fairness is a fair table's protocol: commitmentHex from the create
	// on; serverSeedHex, contributionsHex (seat order, "" for none) and
	// gameSeedHex ("" if it never started) once finished. Absent in other
	// modes.
	Fairness *TableFairness `json:"fairness,omitempty"`
	// Trustless is a trustless table's protocol (table.TrustlessView):
	// the seats' heads and keys, every move with its signature and its
	// round's links and signatures, the transcript, the next index and
	// the pending round (its reveal markers, never a link). Absent in
	// other modes.
	Trustless *table.TrustlessView `json:"trustless,omitempty"`
}

// TableFairness is table.Fairness as getView answers it.
type TableFairness struct {
	CommitmentHex    string   `json:"commitmentHex"`
	ServerSeedHex    string   `json:"serverSeedHex,omitempty"`
	ContributionsHex []string `json:"contributionsHex,omitempty"`
	GameSeedHex      string   `json:"gameSeedHex,omitempty"`
	// Openings is a fair table's with openings (table.Openings).
	Openings *TableOpenings `json:"openings,omitempty"`
}

// TableOpenings is table.Openings as getView answers it: each seat's
// commitment ("" while free) and whether it opened, the time the seats
// have from the first opening, and that deadline (unix ms, 0 when no
// opening is awaited).
type TableOpenings struct {
	DeadlineMs     uint64   `json:"deadlineMs"`
	Deadline       int64    `json:"deadline"`
	CommitmentsHex []string `json:"commitmentsHex"`
	Opened         []bool   `json:"opened"`
}
