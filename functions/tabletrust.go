package functions

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/fairboard/fairboard/table"
)

// The table path of a trustless table (docs/functions.md, "Table games";
// docs/fairness.md, "Trustless tables"): createGame's mode "trustless",
// joinGame's chain head, key and signature, act's signature and own
// reveal, act's kind "abort" past a deadline, and reveal.

// WithClock sets the clock the table path stamps actions with (a
// trustless table's deadlines read it); nil is time.Now. It returns a.
func (a *API) WithClock(now func() time.Time) *API {
	a.now = now
	return a
}

func (a *API) nowMs() int64 {
	if a.now == nil {
		return time.Now().UnixMilli()
	}
	return a.now().UnixMilli()
}

// abortID is the server's action id of an abort a caller asks for: one
// per caller and action id, within the id format.
func abortID(uid, actionID string) string {
	h := sha256.Sum256([]byte(uid + "\x00" + actionID))
	return "abort-" + hex.EncodeToString(h[:16])
}

// revealTable is reveal's table path.
func (a *API) revealTable(ctx context.Context, uid, name string, data json.RawMessage) (any, error) {
	var q TableRevealRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	return a.doTable(ctx, name, q.GameID, table.Action{Actor: uid, ActionID: q.ActionID, Kind: table.KindReveal, At: a.nowMs(),
		Reveal: &table.Reveal{Seat: q.Seat, Index: q.Index, Link: q.Link, Digest: q.Digest, Transcript: q.Transcript, Signature: q.Signature}})
}

// WithAckKey sets the key that signs the table path's acknowledgements
// (TableResult.Ack): every success answer to an action that brought a
// reveal or a deal message carries the key's signature over
// table.AckMessage (docs/fairness.md, "Dropped, then blamed"). nil signs
// none. The deployment passes the key the dungeon's service signs with
// (deploy.EnvAckKey), so that one published key checks both. It returns
// a.
func (a *API) WithAckKey(key ed25519.PrivateKey) *API {
	a.ackKey = key
	return a
}

// tableAck signs the acknowledgement of act, applied (or replayed) at
// table gameID: nil without a key, or for an action that brought nothing
// to acknowledge. Its time is the action's (the clock the table's
// deadlines read).
func (a *API) tableAck(gameID string, act *table.Action) *TableAck {
	if a.ackKey == nil {
		return nil
	}
	msg, ok := table.AckMessage(gameID, act, act.At)
	if !ok {
		return nil
	}
	return &TableAck{At: act.At, Signature: hex.EncodeToString(ed25519.Sign(a.ackKey, msg))}
}
