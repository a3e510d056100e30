package table

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// TrustlessView is a trustless table's protocol as every reader sees it:
// the seats' commitments and every applied move (its canonical bytes in
// Move; in a view of a head alone, those after MovesBase) with its
// signature and its round's links and signatures (match.RecordTrustless,
// whose Pending, with the links that came, is shown only once the table
// is finished), the transcript's hash, the next round's index, and the
// pending round without its links.
type TrustlessView struct {
	match.RecordTrustless
	Transcript string        `json:"transcript"`
	NextIndex  uint32        `json:"nextIndex"`
	Pending    *PendingRound `json:"pendingRound,omitempty"`
	// MovesBase is how many applied moves come before Moves: those a
	// table restored from its head alone holds in its sealed chunks
	// (Table.SealedMoves), 0 in a whole table's view.
	MovesBase int `json:"movesBase,omitempty"`
	// Deal is a dealing table's deal as every reader sees it: passes,
	// keys published, the wait (never a staged key).
	Deal *trustdeal.View `json:"deal,omitempty"`
}

// PendingRound is the move waiting for its round as every reader sees
// it: never a link, only who revealed when, with their signatures.
type PendingRound struct {
	Index uint32 `json:"index"`
	// Move is the move's canonical bytes (game.AppendMoveCanonical),
	// Version the table version it was made against, Signature its
	// actor's.
	Move       string         `json:"move"`
	Version    uint64         `json:"version"`
	Signature  string         `json:"signature"`
	Digest     string         `json:"digest"`
	Transcript string         `json:"transcript"`
	At         int64          `json:"at"`
	Deadline   int64          `json:"deadline"`
	Reveals    []RevealMarker `json:"reveals"`
}

// RevealMarker is one accepted reveal of a pending round, without its
// link: the seat, its player, the server's time, the round's Index and
// the pending move's Digest and the Transcript hash (64 hex digits
// each) that the seat signed over, and its Signature (128 hex digits)
// over trustless.RevealMessage(gameId, Index, Digest, Transcript). The
// table accepts a reveal only over its pending round's digest and
// transcript (wrong_digest), so the view fills these from the round;
// stating them lets anyone holding two markers check each signature on
// its own and show a split view (trustseat.CheckSplit). A marker of a
// view from before markers stated them has Index 0 and Digest and
// Transcript "": it is checked against the round it is shown in.
type RevealMarker struct {
	Seat       int    `json:"seat"`
	UID        string `json:"uid"`
	At         int64  `json:"at"`
	Index      uint32 `json:"index,omitempty"`
	Digest     string `json:"digest,omitempty"`
	Transcript string `json:"transcript,omitempty"`
	Signature  string `json:"signature"`
}

// trustView is the protocol a reader sees (nil for another mode).
func (t *Table) trustView() *TrustlessView {
	if t.tl == nil {
		return nil
	}
	v := &TrustlessView{RecordTrustless: *t.trustRecord(t.phase == PhaseFinished), Transcript: t.tl.Transcript.String(), NextIndex: t.tl.Next,
		MovesBase: t.sealed.Moves}
	if t.m != nil {
		for i, mv := range t.m.Moves() {
			v.Moves[i].Move = string(game.AppendMoveCanonical(nil, t.kinds, mv))
		}
	}
	if t.dl != nil {
		v.Deal = t.dl.View()
	}
	if p := t.tl.Pending; p != nil && t.phase == PhasePlaying {
		pr := &PendingRound{Index: p.Index, Move: string(game.AppendMoveCanonical(nil, t.kinds, p.Move)), Version: p.Version,
			Signature: p.Sig, Digest: p.Digest.String(), Transcript: p.Transcript.String(), At: p.At, Deadline: p.Deadline}
		for _, r := range p.Reveals {
			pr.Reveals = append(pr.Reveals, RevealMarker{Seat: r.Seat, UID: r.UID, At: r.At, Index: p.Index,
				Digest: pr.Digest, Transcript: pr.Transcript, Signature: r.Sig})
		}
		v.Pending = pr
	}
	return v
}

// trustRecord is the protocol in the record's shape; the pending round's
// links only when final.
func (t *Table) trustRecord(final bool) *match.RecordTrustless {
	tl := t.tl
	r := &match.RecordTrustless{GameID: tl.GameID, ChainLength: tl.ChainLength, DeadlineMs: tl.DeadlineMs,
		Seats: []match.TrustlessSeat{}, Moves: []match.TrustlessMove{}}
	for i, s := range tl.Seats {
		if t.seats[i].UID == "" {
			continue
		}
		r.Seats = append(r.Seats, match.TrustlessSeat{UID: t.seats[i].UID, ChainHead: s.Head.String(), PublicKey: s.Key.String(),
			JoinVersion: s.JoinVersion, JoinSignature: s.JoinSig})
	}
	for _, m := range tl.Moves {
		r.Moves = append(r.Moves, match.TrustlessMove{Version: m.Version, Signature: m.Sig, Index: m.Index, Reveals: recordReveals(m.Reveals)})
	}
	if final && tl.Pending != nil {
		p := tl.Pending
		r.Pending = &match.TrustlessMove{Move: string(game.AppendMoveCanonical(nil, t.kinds, p.Move)), Version: p.Version,
			Signature: p.Sig, Index: p.Index, Reveals: recordReveals(p.Reveals)}
	}
	if t.dl != nil && final {
		r.Deal = t.dl.Record()
	}
	if tl.Abort != nil {
		a := *tl.Abort
		a.Missing = slices.Clone(a.Missing)
		r.Abort = &a
	}
	return r
}

func recordReveals(rs []trustReveal) []match.TrustlessReveal {
	var out []match.TrustlessReveal
	for _, x := range rs {
		out = append(out, match.TrustlessReveal{Seat: x.Seat, Link: x.Link.String(), Signature: x.Sig})
	}
	return out
}

// trustKeys recomputes each saved move's round randomness from its
// links (Restore and Record): R_v of the move's digest and its round's
// links in seat order, nil for a move that drew nothing.
func (t *Table) trustKeys(moves []game.Move) ([]*[32]byte, error) {
	tl := t.tl
	if len(tl.Moves) != len(moves) {
		return nil, fmt.Errorf("%d moves' protocol for %d moves", len(tl.Moves), len(moves))
	}
	keys := make([]*[32]byte, len(moves))
	for i, mv := range moves {
		pm := tl.Moves[i]
		if pm.Index == 0 {
			continue
		}
		if mv.Seat < 0 || mv.Seat >= len(t.seats) || len(pm.Reveals) != len(t.seats) {
			return nil, fmt.Errorf("move %d's round does not fit the seats", i+1)
		}
		d := trustless.ActionDigest(tl.GameID, t.moveCanonical(t.seats[mv.Seat].UID, pm.Version, mv))
		links := make([][32]byte, len(pm.Reveals))
		for j, r := range pm.Reveals {
			links[j] = r.Link
		}
		k := trustless.Randomness(tl.GameID, pm.Index, &d, links)
		keys[i] = &k
	}
	return keys, nil
}

// After cuts v's applied moves to those after the reader's first k
// (k >= 0: the moves it has checked), when it holds more: Moves then
// starts at min(k, MovesBase+len(Moves)), which MovesBase says. A view
// that already starts at or after k is left as it is; the pending round,
// transcript and next index are never cut.
func (v *TrustlessView) After(k int) {
	played := v.MovesBase + len(v.Moves)
	k = min(k, played)
	if k <= v.MovesBase {
		return
	}
	v.Moves = slices.Clone(v.Moves[k-v.MovesBase:])
	v.MovesBase = k
}

// Played is how many moves the table has applied: MovesBase and those in
// Moves.
func (v *TrustlessView) Played() int { return v.MovesBase + len(v.Moves) }
