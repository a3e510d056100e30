package store

import (
	"cmp"
	"slices"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// Reveal rounds as the stores see them: staged reveals, their public marks, the open round.

// Mark is the public marker of a staged reveal (docs/store.md,
// "Reveals"): who revealed which index when, and what they signed (the
// pending action's digest, the transcript hash, the signature, which a
// client can check with the seat's public key), never the link. Clients
// read the open round's marks to see whom it waits for.
type Mark struct {
	UID        string `json:"uid"`
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	At         int64  `json:"at"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
}

// MarkOf is the marker of the reveal a.
func MarkOf(a *engine.Action) Mark {
	return Mark{UID: a.Actor, Seat: a.Seat, Index: a.Index, At: a.At, Digest: a.Digest, Transcript: a.Transcript, Signature: a.Signature}
}

// StagedReveal is how a store keeps a staged reveal: the reveal as the
// engine will apply it (its link included), by index and seat. Never
// readable by clients.
type StagedReveal struct {
	Index  uint32        `json:"index"`
	Seat   int           `json:"seat"`
	Action engine.Action `json:"action"`
	// Verified is the reveal's engine.Action.Verified when it was staged
	// (engine.RevealFingerprint: its signature verified then), handed
	// back with it so that the close does not verify it again; "" for a
	// reveal staged before it was kept (verified again at the close).
	Verified string `json:"verified,omitempty"`
}

// Reveal is the staged reveal as the engine applies it: its action, with
// Verified.
func (d *StagedReveal) Reveal() engine.Action {
	a := d.Action
	a.Verified = d.Verified
	return a
}

// SortStaged puts staged reveals in the order they were accepted: by
// their time (the server's, At), then by seat. It is the order a round's
// reveals are applied in, and RoundRevealed lists.
func SortStaged(a []engine.Action) {
	slices.SortStableFunc(a, func(x, y engine.Action) int {
		if c := cmp.Compare(x.At, y.At); c != 0 {
			return c
		}
		return cmp.Compare(x.Seat, y.Seat)
	})
}

// OpenRound returns the index of g's open trustless round, and whether
// there is one: the round whose staged reveals a Mutator gets.
func OpenRound(p *engine.Public) (uint32, bool) {
	if p.Trustless == nil || p.Trustless.Pending == nil || p.Phase == engine.PhaseFinished {
		return 0, false
	}
	return p.Trustless.Pending.Index, true
}
