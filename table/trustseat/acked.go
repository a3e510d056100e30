package trustseat

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
)

// The server's acknowledgement of what a seat's action brought that the
// seat could later be named as missing (docs/fairness.md, "Trustless
// tables", "Signed acknowledgements"): its success answer to an action
// that carried a reveal or a deal message, signed by the server's
// published key where the deployment signs them (table.AckMessage). The
// Go table client (client.Table) and the play page's WebAssembly both
// build it, check it against the key they pin (VerifyAck), keep it with
// the seat's secrets (KeepAck, as Ack's JSON) and compare each view of
// the table with it (dropped.go).

// Ack is the server's acknowledgement of a player's action at a trustless
// table: its success answer to an action that brought a reveal or a deal
// message. Its JSON is what a seat keeps (KeepAck) and what ParseAck
// reads back.
type Ack struct {
	// GameID is the table's; Action the action as sent (its actor, id,
	// kind, and the reveal or deal message it brought: what the server's
	// signature is over, with Server.At).
	GameID string       `json:"gameId"`
	Action table.Action `json:"action"`
	// Version is the version the answer named, Replayed whether it was
	// the stored answer of an earlier send.
	Version  uint64 `json:"version"`
	Replayed bool   `json:"replayed"`
	// At is when the answer came, by the client's clock.
	At time.Time `json:"at"`
	// Server is the server's signature (nil: it signed none, and the
	// client pins no key). Signed, the acknowledgement convinces a third
	// party who knows the published key; unsigned, only the player.
	Server *ServerAck `json:"server,omitempty"`
}

// ServerAck is the server's signature acknowledging a reveal or a deal
// message: Ed25519 by its published key over rng/trustless.AckMessage (a
// table's: table.AckMessage), at At (the server's time, unix ms), in hex.
type ServerAck struct {
	At        int64  `json:"at"`
	Signature string `json:"signature"`
}

// Brings reports whether a is an action the server acknowledges: one
// that carries a reveal or a deal message whose fields parse
// (table.AckMessage).
func Brings(gameID string, a *table.Action) bool {
	_, ok := table.AckMessage(gameID, a, 0)
	return ok
}

// VerifyAck reports whether a carries the server's signature, by key,
// acknowledging the action a describes at the table a.GameID
// (table.AckMessage at a.Server.At): what a third party checks of the
// acknowledgement a seat named as missing shows. False for nil, an
// unsigned one, a signature that is not hex, or a key that is not
// ed25519.PublicKeySize bytes.
func VerifyAck(key ed25519.PublicKey, a *Ack) bool {
	if a == nil || a.Server == nil || len(key) != ed25519.PublicKeySize {
		return false
	}
	sig, err := hex.DecodeString(a.Server.Signature)
	if err != nil {
		return false
	}
	msg, ok := table.AckMessage(a.GameID, &a.Action, a.Server.At)
	return ok && trustless.Verify(key, msg, sig)
}

// ParseKey reads a published acknowledgement key: 64 hex digits (an
// Ed25519 public key, either case). Errors: anything else.
func ParseKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("trustseat: the server's acknowledgement key %.80q: want %d bytes in hex (an Ed25519 public key)", s, ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// ParseAck reads an acknowledgement as a seat keeps it (Ack's JSON, no
// other field). Errors: not that JSON, or of an action that brings no
// reveal nor deal message.
func ParseAck(b []byte) (*Ack, error) {
	var a Ack
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("trustseat: not an acknowledgement: %w", err)
	}
	if !Brings(a.GameID, &a.Action) {
		return nil, errors.New("trustseat: an acknowledgement of no reveal nor deal message")
	}
	return &a, nil
}

// Acked is the acknowledgement of the action a, sent by this player to
// the table gameID and answered with success (version, replayed, and the
// server's signature sa, nil for none) at the client's time at. Where
// key is set (the server's published key the client pins) the answer
// must carry a signature that key verifies; without key an unsigned
// answer is taken (Server nil: the signature, if any, is dropped, as
// nothing checks it). Errors (the server lies, or the key pinned is not
// its own): no signature, or one the key does not verify; and an action
// that brings nothing to acknowledge.
func Acked(key ed25519.PublicKey, gameID string, a table.Action, version uint64, replayed bool, sa *ServerAck, at time.Time) (*Ack, error) {
	if !Brings(gameID, &a) {
		return nil, fmt.Errorf("trustseat: %s %s (%s) brings no reveal nor deal message to acknowledge", a.Actor, a.ActionID, a.Kind)
	}
	ack := &Ack{GameID: gameID, Action: a, Version: version, Replayed: replayed, At: at}
	if key == nil {
		return ack, nil
	}
	what := fmt.Sprintf("the server acknowledged %s %s (%s)", a.Actor, a.ActionID, a.Kind)
	if sa == nil {
		return nil, &AckRefused{What: what + " without its signature"}
	}
	ack.Server = &ServerAck{At: sa.At, Signature: sa.Signature}
	if !VerifyAck(key, ack) {
		return nil, &AckRefused{What: fmt.Sprintf("%s with a signature its published key does not verify: %s at %d", what, sa.Signature, sa.At)}
	}
	return ack, nil
}

// AckRefused is an acknowledgement Acked refused: unsigned, or signed by
// another key than the one pinned. Either the server lies or the key
// pinned is not its published one.
type AckRefused struct{ What string }

func (e *AckRefused) Error() string { return "trustseat: " + e.What }
