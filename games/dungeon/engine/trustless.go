package engine

import (
	"fmt"

	"github.com/fairboard/fairboard/rng/trustless"
)

// The public deadline of a trustless game's reveal rounds (and of a fair
// game's openings), set at create.
const (
	DefaultDeadlineMs = 60_000
	MinDeadlineMs     = 1_000
	MaxDeadlineMs     = 86_400_000
)

// The reasons a trustless game is aborted (GameAborted's reason).
const (
	// AbortDeadline: a round's deadline passed with seats missing.
	AbortDeadline = "deadline"
	// AbortAbandoned: the owner abandoned the game during a round.
	AbortAbandoned = "abandoned"
	// AbortChainExhausted: an action needed index N+1, past every chain.
	AbortChainExhausted = "chainExhausted"
)

// Trustless is the public state of a trustless game's protocol
// (docs/fairness.md, "The trustless mode"): what every client reads to
// check the game and to reveal.
type Trustless struct {
	// ChainLength is N, the number of links of every seat's chain.
	ChainLength uint32 `json:"chainLength"`
	// DeadlineMs is how long each reveal round may take, fixed at create.
	DeadlineMs int64 `json:"deadlineMs"`
	// NextIndex is the index v the next action that draws will use: 1 at
	// create, +1 per closed round.
	NextIndex uint32 `json:"nextIndex"`
	// Transcript is the hash of the public transcript so far
	// (rng/trustless.TranscriptStart, then one record per action applied
	// or made pending, and one per closed round).
	Transcript Hash32 `json:"transcript"`
	// Seats are the seated players' chains and keys, in seat order.
	Seats []TrustSeat `json:"seats,omitempty"`
	// Pending is the action waiting for its reveal round, nil if none.
	Pending *Pending `json:"pending,omitempty"`
}

// TrustSeat is one seat of a trustless game.
type TrustSeat struct {
	UID  string `json:"uid"`
	Seat int    `json:"seat"`
	// Head is x_0 of the seat's chain, published at join.
	Head Hash32 `json:"head"`
	// PublicKey is the seat's Ed25519 public key, published at join.
	PublicKey Hash32 `json:"publicKey"`
	// Link is the seat's last published link, x_(NextIndex-1) (the head
	// before the first round closes): the next reveal must hash to it.
	Link Hash32 `json:"link"`
}

// Pending is a trustless game's action that draws, held until every
// seated seat has revealed its link for Index. It is public: the action,
// its digest, its signature, the transcript hash each reveal must sign,
// the deadline, and who has revealed when (never a link: those stay in
// Secret.Links until the round closes).
type Pending struct {
	Index  uint32 `json:"index"`
	Action Action `json:"action"`
	Digest Hash32 `json:"digest"`
	// Signature is the submitter's, hex ("" for an actor without a seat).
	Signature string `json:"signature,omitempty"`
	// Transcript is the transcript hash after this action's record, which
	// every reveal of the round signs.
	Transcript Hash32 `json:"transcript"`
	// Deadline is the time (unix ms) after which the round may be aborted:
	// the action's At plus the game's DeadlineMs.
	Deadline int64 `json:"deadline"`
	// Reveals are the reveals accepted so far, in the order they came.
	Reveals []RevealMark `json:"reveals,omitempty"`
}

// RevealMark is one accepted reveal of the pending round, as it is public
// before the round closes: who, when, and its signature (which tells
// nothing of the link).
type RevealMark struct {
	UID       string `json:"uid"`
	Seat      int    `json:"seat"`
	At        int64  `json:"at"`
	Signature string `json:"signature"`
}

// RoundLink is a link accepted for the pending round, kept in Secret.
type RoundLink struct {
	Seat int    `json:"seat"`
	Link Hash32 `json:"link"`
}

// TrustRecord is the payload of the trustless protocol's events
// (ActionAccepted, ActionPending, RoundRevealed, GameAborted), under the
// event's "trustless" key.
type TrustRecord struct {
	// Index is the round's index (ActionPending, RoundRevealed,
	// GameAborted).
	Index uint32 `json:"index,omitempty"`
	// Action is the action recorded (ActionAccepted, ActionPending; the
	// action refused for want of links in a GameAborted chainExhausted):
	// its kind, actor, time and the fields its canonical encoding covers.
	Action *Action `json:"action,omitempty"`
	// Digest is the action's digest (rng/trustless.ActionDigest).
	Digest Hash32 `json:"digest,omitzero"`
	// Signature is the submitter's, hex.
	Signature string `json:"signature,omitempty"`
	// Deadline is the round's deadline (ActionPending).
	Deadline int64 `json:"deadline,omitempty"`
	// Transcript is the transcript hash after this record.
	Transcript Hash32 `json:"transcript,omitzero"`
	// Reveals are the round's reveals in the order they were accepted,
	// with their links (RoundRevealed: every seat; GameAborted: those
	// that came).
	Reveals []RevealRecord `json:"reveals,omitempty"`
	// Reason, By, At and Missing say why, by whom and when a game was
	// aborted and which seated players had not revealed (GameAborted).
	Reason  string   `json:"reason,omitempty"`
	By      string   `json:"by,omitempty"`
	At      int64    `json:"at,omitempty"`
	Missing []string `json:"missing,omitempty"`
}

// RevealRecord is one reveal, published when its round closes.
type RevealRecord struct {
	UID       string `json:"uid"`
	Seat      int    `json:"seat"`
	At        int64  `json:"at"`
	Link      Hash32 `json:"link"`
	Signature string `json:"signature"`
}

// Clone returns a deep copy of t (nil for nil).
func (t *Trustless) Clone() *Trustless {
	if t == nil {
		return nil
	}
	c := *t
	c.Seats = cloneSlice(t.Seats)
	if t.Pending != nil {
		pd := *t.Pending
		pd.Reveals = cloneSlice(pd.Reveals)
		c.Pending = &pd
	}
	return &c
}

// Seat returns the trustless seat of uid and its index, or nil, -1.
func (t *Trustless) Seat(uid string) (*TrustSeat, int) {
	for i := range t.Seats {
		if t.Seats[i].UID == uid {
			return &t.Seats[i], i
		}
	}
	return nil, -1
}

// ParseHash32 decodes 64 hex digits of either case; what names the field
// in the error.
func ParseHash32(s, what string) (Hash32, error) {
	var h Hash32
	if err := h.UnmarshalText([]byte(s)); err != nil {
		return h, fmt.Errorf("%s must be 32 bytes as 64 hex digits", what)
	}
	return h, nil
}

// TrustlessFields returns the fields of the action's canonical encoding
// (rng/trustless.ActionFields). It fails if the action's chain head or
// public key is present but not 64 hex digits.
func (a *Action) TrustlessFields() (trustless.ActionFields, error) {
	f := trustless.ActionFields{
		Kind: string(a.Kind), Actor: a.Actor, Version: a.Version, Mode: a.Mode, Audit: a.Audit,
		ChainLength: uint32(a.ChainLength), DeadlineMs: uint64(a.DeadlineMs), Seat: uint32(a.Seat),
		Class: string(a.Class), KeepSmokeBomb: a.KeepSmokeBomb, Target: a.Target, CardID: a.CardID,
	}
	for _, k := range [2]struct {
		s, what string
		dst     *[]byte
	}{{a.ChainHead, "chainHead", &f.ChainHead}, {a.PublicKey, "publicKey", &f.PublicKey}} {
		if k.s == "" {
			continue
		}
		h, err := ParseHash32(k.s, k.what)
		if err != nil {
			return f, err
		}
		*k.dst = h[:]
	}
	return f, nil
}

// Canonical returns canonical(a), the bytes of rng/trustless's canonical
// encoding of the action.
func (a *Action) Canonical() ([]byte, error) {
	f, err := a.TrustlessFields()
	if err != nil {
		return nil, err
	}
	return f.AppendCanonical(nil), nil
}

// ActionDigest returns the digest of action a in game gameID
// (rng/trustless.ActionDigest of its canonical encoding).
func ActionDigest(gameID string, a *Action) (Hash32, error) {
	c, err := a.Canonical()
	if err != nil {
		return Hash32{}, err
	}
	return trustless.ActionDigest(gameID, c), nil
}

// ActionMessage returns the bytes the actor of a signs to submit it in
// game gameID (rng/trustless.ActionMessage).
func ActionMessage(gameID string, a *Action) ([]byte, error) {
	c, err := a.Canonical()
	if err != nil {
		return nil, err
	}
	return trustless.ActionMessage(gameID, c), nil
}

// Recorded returns the action as the trustless records publish it: kind,
// actor, time and the fields its canonical encoding covers, without the
// action id (the server's), the signature (kept beside it) or any reveal
// field.
func (a *Action) Recorded() *Action {
	r := *a
	r.ID, r.Signature = "", ""
	r.Index, r.Link, r.Digest, r.Transcript = 0, "", "", ""
	r.ServerSeed, r.Seed, r.Entropy, r.EntropyCommitment, r.Openings = "", "", "", "", false
	return &r
}

// AbortDue reports whether a trustless game has an action pending whose
// reveal deadline is before now (unix ms): the server should then apply
// an abort action (Kind ActAbort, At now). The engine never reads a
// clock; this is the check a server makes at the next call on the game,
// or in its scheduled sweep.
func (g *Game) AbortDue(now int64) bool {
	t := g.Public.Trustless
	return g.Public.Phase != PhaseFinished && t != nil && t.Pending != nil && now > t.Pending.Deadline
}
