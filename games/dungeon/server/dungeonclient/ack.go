package dungeonclient

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
)

// Ack is the server's acknowledgement of this seat's reveal: its answer
// of success to the reveal (the reveal function's, or act's for a reveal
// sent with its action; already_revealed is one too: the server says it
// holds the reveal). The client keeps the last one (in its secrets file
// too: the round a server can abort is the open one, whose reveal is the
// last), so that a server that acknowledges a reveal, drops it and then
// names the seat as the staller is contradicted by what it answered
// (docs/fairness.md, the threat model: "dropped, then blamed").
type Ack struct {
	// Seat is the seat that revealed. Index, Digest and Transcript are
	// the round's, as the reveal signed them; Signature is the seat's
	// signature of the reveal.
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
	// Via is the function that answered ("reveal", "act"), ActionID the
	// call's action id, Version the version the answer named.
	Via      string `json:"via"`
	ActionID string `json:"actionId"`
	Version  uint64 `json:"version"`
	// Code is the refusal that acknowledged it ("already_revealed"), or
	// empty for a success.
	Code string `json:"code,omitempty"`
	// At is when the answer came, by this client's clock.
	At time.Time `json:"at"`
	// Server is the server's signature of the acknowledgement, checked
	// against Config.ServerKey (nil: the server signed none, or the
	// client pins no key). Signed, the acknowledgement convinces a third
	// party who knows the published key; unsigned, only the seat.
	Server *client.ServerAck `json:"server,omitempty"`
}

// Dropped is what a client found when the server aborted the game naming
// this seat as missing the round of an index whose reveal it had
// acknowledged: it took the reveal, then dropped it. The client stops; the
// player should be told, with the acknowledgement. It is a lie too
// (errors.As finds a *client.Lie in it).
type Dropped struct {
	Ack Ack
	// AbortedAt is the abort's time (the server's, unix ms), Reason its
	// reason.
	AbortedAt int64
	Reason    string
}

func (d *Dropped) Error() string { return d.lie().Error() }

// Unwrap is the lie it is.
func (d *Dropped) Unwrap() error { return d.lie() }

func (d *Dropped) lie() *client.Lie {
	how := "answered success"
	if d.Ack.Code != "" {
		how = "answered " + d.Ack.Code
	}
	if d.Ack.Server != nil {
		how += fmt.Sprintf(", signed by the server's key at %d: %s", d.Ack.Server.At, d.Ack.Server.Signature)
	}
	return &client.Lie{What: fmt.Sprintf("the server acknowledged this seat's reveal for index %d (digest %s; %s %s %s at version %d, received %s), then aborted the game (%s, at %d) naming this seat as missing that round: it dropped the reveal",
		d.Ack.Index, d.Ack.Digest, d.Ack.Via, d.Ack.ActionID, how, d.Ack.Version, d.Ack.At.UTC().Format(time.RFC3339Nano), d.Reason, d.AbortedAt)}
}

// LastAck returns the last acknowledgement the client holds of this
// seat's reveals (nil: none).
func (c *Client) LastAck() *Ack {
	if c.file.Ack == nil {
		return nil
	}
	a := *c.file.Ack
	return &a
}

// acked records the server's acknowledgement of the reveal rv, the
// answer res (in the secrets file too: a restart keeps it). Where the
// client pins the server's key, a success must carry the server's
// signature by it (an already_revealed answer carries none): an answer
// without it, or with another, is a lie.
func (c *Client) acked(rv *engine.Action, via, actionID string, res *Result, code string) error {
	ack := &Ack{Seat: rv.Seat, Index: rv.Index, Digest: rv.Digest, Transcript: rv.Transcript, Signature: rv.Signature,
		Via: via, ActionID: actionID, Version: res.Version, Code: code, At: time.Now()}
	if c.cfg.ServerKey != nil && code == "" {
		if res.Ack == nil && checks.On(checks.AckSignature) {
			return c.lie("the server acknowledged this seat's reveal for index %d (%s %s) without its signature", rv.Index, via, actionID)
		}
		if res.Ack != nil && !c.checkServerAck(rv, res.Ack) && checks.On(checks.AckSignature) {
			return c.lie("the server's acknowledgement of this seat's reveal for index %d (%s %s) is not signed by its published key: signature %s at %d",
				rv.Index, via, actionID, res.Ack.Signature, res.Ack.At)
		}
		ack.Server = res.Ack
	}
	c.file.Ack = ack
	return saveSecrets(c.cfg.SecretsFile, &c.file)
}

// checkServerAck reports whether sa is the server's signature, by
// Config.ServerKey, acknowledging this seat's reveal rv.
func (c *Client) checkServerAck(rv *engine.Action, sa *client.ServerAck) bool {
	a := Ack{Seat: rv.Seat, Index: rv.Index, Digest: rv.Digest, Transcript: rv.Transcript, Signature: rv.Signature, Server: sa}
	return VerifyAck(c.cfg.ServerKey, c.cfg.GameID, c.cfg.UID, &a)
}

// VerifyAck reports whether a carries the server's signature, by its
// published key, acknowledging the reveal of uid in game gameID that a
// describes (rng/trustless.AckMessage): what a third party checks of the
// acknowledgement a blamed seat shows (a *Dropped's Ack).
func VerifyAck(key ed25519.PublicKey, gameID, uid string, a *Ack) bool {
	if a == nil || a.Server == nil || a.Seat < 0 {
		return false
	}
	d, derr := engine.ParseHash32(a.Digest, "digest")
	tr, terr := engine.ParseHash32(a.Transcript, "transcript")
	rs, rerr := hex.DecodeString(a.Signature)
	sig, serr := hex.DecodeString(a.Server.Signature)
	if derr != nil || terr != nil || rerr != nil || serr != nil {
		return false
	}
	msg := trustless.AckMessage(gameID, uid, uint32(a.Seat), a.Index, (*[32]byte)(&d), (*[32]byte)(&tr), rs, a.Server.At)
	return trustless.Verify(key, msg, sig)
}

// checkBlame stops the client if one of the events, replayed, aborts the
// game naming this seat as missing a round whose reveal the server
// acknowledged.
func (c *Client) checkBlame(events []engine.Event) error {
	ack := c.file.Ack
	if ack == nil {
		return nil
	}
	for i := range events {
		e := &events[i]
		if e.Type != engine.EvGameAborted || e.Trust == nil || e.Trust.Index != ack.Index || !slices.Contains(e.Trust.Missing, c.cfg.UID) {
			continue
		}
		if !checks.On(checks.AckHeld) {
			return nil // the abort taken, the acknowledgement not compared
		}
		c.err = &Dropped{Ack: *ack, AbortedAt: e.Trust.At, Reason: e.Trust.Reason}
		return c.err
	}
	return nil
}
