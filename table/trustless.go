package table

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// A trustless table (docs/fairness.md, "Trustless tables") has no seed:
// each seat commits at join to a hash chain (its head) and an Ed25519
// key, and signs its join and every move; a move that draws becomes
// pending until every seat reveals its next link, and is then applied
// with the stream of the round's randomness R_v. Its protocol state lives
// in the saved table (trust), the server's document: a round has at most
// a reveal per seat, each a write of that one document in a transaction.

// Trustless bounds (the dungeon's: rng/trustless and docs/fairness.md).
const (
	DefaultDeadlineMs = 60_000
	MinDeadlineMs     = 1_000
	MaxDeadlineMs     = 86_400_000
)

// hexArr is 32 bytes that JSON writes as 64 lower-case hex digits.
type hexArr [32]byte

func (h hexArr) MarshalText() ([]byte, error) { return []byte(hex.EncodeToString(h[:])), nil }

func (h *hexArr) UnmarshalText(b []byte) error {
	v, err := hex.DecodeString(string(b))
	if err != nil || len(v) != 32 {
		return fmt.Errorf("want 64 hex digits")
	}
	copy(h[:], v)
	return nil
}

func (h hexArr) String() string { return hex.EncodeToString(h[:]) }

// trust is a trustless table's protocol state, saved with the table (for
// the server only: it holds the links of a pending round).
type trust struct {
	GameID      string      `json:"gameId"`
	ChainLength uint32      `json:"chainLength"`
	DeadlineMs  uint64      `json:"deadlineMs"`
	Seats       []trustSeat `json:"seats"`
	// Transcript and Next run from the start: the transcript's hash,
	// the next round's index. Moves is each applied move's protocol,
	// those a head sealed (head.go) left out: one for each of the
	// match's moves.
	Transcript hexArr                `json:"transcript"`
	Next       uint32                `json:"next"`
	Moves      []trustMove           `json:"moves"`
	Pending    *trustPending         `json:"pending,omitempty"`
	Abort      *match.TrustlessAbort `json:"abort,omitempty"`
	// Dealing, DealStart, Deal and DealPending are a dealing table's
	// (trustdealing.go): the deal's start time, its log (staged keys
	// included: the server's alone) and the signed move waiting for its
	// cards.
	Dealing     bool               `json:"dealing,omitempty"`
	DealStart   int64              `json:"dealStart,omitempty"`
	Deal        []trustdeal.Action `json:"deal,omitempty"`
	DealPending *trustMove         `json:"dealPending,omitempty"`
	// DealNext is the transcript once the pending move applies.
	DealNext *hexArr `json:"dealNext,omitempty"`
}

// trustSeat is a seat's commitments (zero while the seat is free) and the
// link it revealed last (its head before its first round).
type trustSeat struct {
	Head        hexArr `json:"head"`
	Key         hexArr `json:"key"`
	JoinVersion uint64 `json:"joinVersion"`
	JoinSig     string `json:"joinSig"`
	Last        hexArr `json:"last"`
}

// trustMove is an applied move's protocol: a round's reveals in seat
// order, none for a move that drew nothing.
type trustMove struct {
	Version uint64        `json:"version"`
	Sig     string        `json:"sig"`
	Index   uint32        `json:"index,omitempty"`
	Reveals []trustReveal `json:"reveals,omitempty"`
}

type trustReveal struct {
	Seat int    `json:"seat"`
	UID  string `json:"uid"`
	At   int64  `json:"at"`
	Link hexArr `json:"link"`
	Sig  string `json:"sig"`
}

// trustPending is the move waiting for its round; Reveals in the order
// they were accepted (links secret until the round closes).
type trustPending struct {
	Move       game.Move     `json:"move"`
	Version    uint64        `json:"version"`
	Sig        string        `json:"sig"`
	Index      uint32        `json:"index"`
	Digest     hexArr        `json:"digest"`
	Transcript hexArr        `json:"transcript"`
	At         int64         `json:"at"`
	Deadline   int64         `json:"deadline"`
	Reveals    []trustReveal `json:"reveals"`
}

// checkTrustlessCreate checks a trustless create and fills its defaults.
// TrustlessRefusal is why a table of def cannot be trustless, completing
// a sentence that starts with the game's name, or "" when it can: every
// part of its state public (game.AllPublic), or its private parts dealt
// through a private deck (mental poker: game.MaxLoss).
func TrustlessRefusal(def game.Definition) string {
	if game.IsAllPublic(def) || dealing(def) {
		return ""
	}
	return "has private parts (a seat's hidden cards) or does not declare every part public (game.AllPublic), " +
		"and does not deal them through a private deck (game.Deal, with game.MaxLoss): a trustless table reveals every round to every seat"
}

// Modes are the modes a table of def can be created in: seeded, crypto
// and fair for every game, and trustless where TrustlessRefusal is "".
func Modes(def game.Definition) []rng.Mode {
	m := []rng.Mode{rng.ModeSeeded, rng.ModeCrypto, rng.ModeFair}
	if TrustlessRefusal(def) == "" {
		m = append(m, rng.ModeTrustless)
	}
	return m
}

func checkTrustlessCreate(def game.Definition, req *CreateRequest, rules game.Ruleset) *Error {
	if req.Mode != rng.ModeTrustless {
		if req.ChainLength != 0 || req.DeadlineMs != 0 && !req.Openings {
			return reject(CodeBadSetup, "chainLength and deadlineMs are for trustless tables (deadlineMs also for fair tables with openings)")
		}
		return nil
	}
	switch {
	case TrustlessRefusal(def) != "":
		return reject(CodeBadSetup, fmt.Sprintf("%s %s", def.Name(), TrustlessRefusal(def)))
	case req.Seed != "" || req.ServerSeed != "":
		return reject(CodeBadSetup, "a trustless table takes no seed: each move that draws gets its randomness from the seats' chains")
	case !ValidID(req.GameID):
		return reject(CodeBadSetup, "a trustless table needs its game id (1-128 characters of [A-Za-z0-9_-]): every signature and link is bound to it")
	}
	if req.ChainLength == 0 {
		req.ChainLength = trustless.DefaultChainLength
	}
	if req.DeadlineMs == 0 {
		req.DeadlineMs = DefaultDeadlineMs
	}
	if req.ChainLength > trustless.MaxChainLength {
		return reject(CodeBadSetup, fmt.Sprintf("chainLength %d: at most %d", req.ChainLength, trustless.MaxChainLength))
	}
	if b, ok := def.(game.RandomBound); ok && int64(req.ChainLength) < int64(b.MaxRandomMoves(rules)) {
		return reject(CodeBadSetup, fmt.Sprintf("chainLength %d: %s can need %d rounds under this ruleset", req.ChainLength, def.Name(), b.MaxRandomMoves(rules)))
	}
	if req.DeadlineMs < MinDeadlineMs || req.DeadlineMs > MaxDeadlineMs {
		return reject(CodeBadSetup, fmt.Sprintf("deadlineMs %d: want %d to %d", req.DeadlineMs, MinDeadlineMs, MaxDeadlineMs))
	}
	return nil
}

func parse32(s, what string) ([32]byte, *Error) {
	var out [32]byte
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		return out, reject(CodeInvalidAction, what+" must be 64 hex digits")
	}
	copy(out[:], b)
	return out, nil
}

func parseSig(s string) ([]byte, *Error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != trustless.SignatureSize {
		return nil, reject(CodeInvalidAction, "a signature must be 128 hex digits")
	}
	return b, nil
}

// takeChain checks a join's chain head, key and signature: a trustless
// table's join must carry all three, signed by the key it brings over the
// join's canonical bytes (invalid_action for a malformed or missing
// field, bad_signature); no other table's join takes them.
func (t *Table) takeChain(a *Action, opts []string) *Error {
	if t.tl == nil {
		if a.ChainHead != "" || a.PublicKey != "" || a.Signature != "" {
			return reject(CodeInvalidAction, "chainHead, publicKey and signature are for trustless tables; this one is "+string(t.mode))
		}
		return nil
	}
	head, err := parse32(a.ChainHead, "chainHead")
	if err != nil {
		return err
	}
	key, err := parse32(a.PublicKey, "publicKey")
	if err != nil {
		return err
	}
	sig, err := parseSig(a.Signature)
	if err != nil {
		return err
	}
	canon := t.joinCanonical(a.Actor, a.Version, a.Seat, opts, head[:], key[:])
	if !trustless.Verify(key[:], trustless.ActionMessage(t.tl.GameID, canon), sig) {
		return reject(CodeBadSignature, "the join's signature does not verify under the key it brings")
	}
	t.tl.Seats[a.Seat] = trustSeat{Head: head, Key: key, JoinVersion: a.Version, JoinSig: a.Signature}
	return nil
}

func (t *Table) joinCanonical(uid string, version uint64, seat int, opts []string, head, key []byte) []byte {
	body := game.AppendSeatCanonical(nil, t.def.Seats(), seat, game.Seat{Options: opts})
	return match.TableAction("join", uid, version, body, head, key)
}

func (t *Table) moveCanonical(uid string, version uint64, mv game.Move) []byte {
	return match.TableAction("move", uid, version, game.AppendMoveCanonical(nil, t.kinds, mv), nil, nil)
}

// freeChain forgets a seat's commitments when its player leaves.
func (t *Table) freeChain(seat int) {
	if t.tl != nil {
		t.tl.Seats[seat] = trustSeat{}
	}
}

// startTrust begins the transcript at the start: T_0, then each seat's
// join in seat order.
func (t *Table) startTrust() {
	if t.tl == nil {
		return
	}
	tr := trustless.TranscriptStart(t.tl.GameID, t.rules.Hash())
	for i := range t.tl.Seats {
		s := &t.tl.Seats[i]
		canon := t.joinCanonical(t.seats[i].UID, s.JoinVersion, i, t.seats[i].Options, s.Head[:], s.Key[:])
		d := trustless.ActionDigest(t.tl.GameID, canon)
		sig, _ := hex.DecodeString(s.JoinSig)
		tr = trustless.TranscriptAction(&tr, &d, sig)
		s.Last = s.Head
	}
	t.tl.Transcript, t.tl.Next = tr, 1
}
