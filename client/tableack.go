package client

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// A trustless table's actions (docs/fairness.md, "Trustless tables") are
// made and signed by the player's table/trustseat.Seat; Table.Send takes
// them to the functions. The server acknowledges what an action brought
// that the seat could later be named as missing (its reveal of a round,
// its mental-poker pass, keys or end-of-hand reveal at a dealing table)
// with its success answer, signed by its published key where the
// deployment signs them (FAIRBOARD_ACK_KEY; table.AckMessage). A Table
// that pins that key (ServerKey) refuses a success answer without the
// signature, or with another, as a lie, and keeps the last
// acknowledgement (LastAck) for the player to show: a server that takes a
// reveal or a deal message, drops it and then names the seat as the one
// who stalled is contradicted by its own signature (VerifyTableAck is the
// third party's check). View compares the table's end with it
// (tableblame.go: a *TableDropped), and KeepIn keeps it with the seat's
// secrets.

// TableAck is the server's acknowledgement of this player's action at a
// trustless table: its success answer to an action that brought a reveal
// or a deal message. It is table/trustseat's Ack, which the play page's
// WebAssembly builds and compares the same way; its JSON is what the
// seat keeps (KeepIn).
type TableAck = trustseat.Ack

// LastAck returns the last acknowledgement the Table holds of its
// player's reveals and deal messages (nil: none), which View compares
// with the table's end (TableDropped). The Table holds it in memory;
// KeepIn keeps it in the player's trustseat.Seat, whose secrets (Export)
// then carry it, and HoldFrom takes it back after a restart (TrustTable
// does the first after each acknowledgement).
func (t *Table) LastAck() *TableAck {
	if t.last == nil {
		return nil
	}
	a := *t.last
	return &a
}

// VerifyTableAck reports whether a carries the server's signature, by
// its published key, acknowledging the action a describes at the table
// a.GameID (table.AckMessage at a.Server.At): what a third party checks
// of the acknowledgement a seat named as missing shows.
func VerifyTableAck(key ed25519.PublicKey, a *TableAck) bool { return trustseat.VerifyAck(key, a) }

// Send takes an action of the player's trustless seat (a
// table/trustseat.Seat's: a join with its chain, a signed move with its
// reveal or deal keys, a deal message, a reveal, an abort past the
// deadline; or start, leave, removeSeat, abandon) to its function under
// the action's own id (a.ActionID, kept while it is sent again). A
// success answer to an action that brought a reveal or a deal message is
// the server's acknowledgement, kept (LastAck); where the Table pins the
// server's key (ServerKey) it must carry the server's signature by it:
// an answer without it, or with another, is a *Lie, and the Table then
// refuses every other Send with it. Errors: a kind with no function, the
// functions' refusal (*CallError), a *Lie.
func (t *Table) Send(ctx context.Context, a table.Action) (*TableResult, error) {
	if t.lie != nil {
		return nil, t.lie
	}
	name, d, err := trustData(&a)
	if err != nil {
		return nil, err
	}
	res, err := t.call(ctx, name, a.ActionID, d)
	if err != nil {
		return nil, err
	}
	if !trustseat.Brings(t.id, &a) {
		return res, nil
	}
	ack := &TableAck{GameID: t.id, Action: a, Version: res.Version, Replayed: res.Replayed, At: time.Now()}
	if t.ServerKey != nil {
		what := fmt.Sprintf("the server acknowledged %s %s (%s)", a.Actor, a.ActionID, a.Kind)
		switch {
		case res.Ack == nil && checks.On(checks.AckSignature):
			t.lie = &Lie{What: what + " without its signature"}
		case res.Ack != nil && checks.On(checks.AckSignature):
			if probe := (TableAck{GameID: t.id, Action: a, Server: res.Ack}); !VerifyTableAck(t.ServerKey, &probe) {
				t.lie = &Lie{What: fmt.Sprintf("%s with a signature its published key does not verify: %s at %d", what, res.Ack.Signature, res.Ack.At)}
			}
		}
		if t.lie != nil {
			return nil, t.lie
		}
		ack.Server = res.Ack
	}
	t.last = ack
	return res, nil
}

// trustData is the function and data (without game, gameId and
// actionId) of a trustless table's action.
func trustData(a *table.Action) (string, map[string]any, error) {
	d := map[string]any{}
	switch a.Kind {
	case table.KindJoin:
		d["version"], d["seat"], d["chainHead"], d["publicKey"], d["signature"] = a.Version, a.Seat, a.ChainHead, a.PublicKey, a.Signature
		if a.Options != nil {
			d["options"] = a.Options
		}
		return "joinGame", d, nil
	case table.KindStart:
		d["version"] = a.Version
		return "startGame", d, nil
	case table.KindMove:
		d["version"], d["move"], d["signature"] = a.Version, json.RawMessage(a.Move), a.Signature
		if a.Deal != nil {
			d["deal"] = a.Deal // the seat's deal keys, riding with its first move
		}
		if r := a.Reveal; r != nil {
			d["reveal"] = map[string]any{"seat": r.Seat, "index": r.Index, "link": r.Link, "digest": r.Digest,
				"transcript": r.Transcript, "signature": r.Signature}
		}
		return "act", d, nil
	case table.KindDeal:
		d["kind"], d["version"], d["deal"] = "deal", 0, a.Deal
		return "act", d, nil
	case table.KindReveal:
		r := a.Reveal
		if r == nil {
			return "", nil, fmt.Errorf("client: a reveal without its link")
		}
		d["seat"], d["index"], d["link"], d["digest"], d["transcript"], d["signature"] = r.Seat, r.Index, r.Link, r.Digest, r.Transcript, r.Signature
		return "reveal", d, nil
	case table.KindAbort, table.KindLeave, table.KindAbandon, table.KindRemoveSeat:
		d["kind"], d["version"] = string(a.Kind), a.Version
		if a.Kind == table.KindRemoveSeat {
			d["seat"] = a.Seat
		}
		return "act", d, nil
	}
	return "", nil, fmt.Errorf("client: no function for a table's %q", a.Kind)
}
