// Package trustseat is a player's side of a trustless table
// (docs/fairness.md, "Trustless tables"), without I/O: a seat's hash
// chain and Ed25519 key, the signatures of its join and moves, and its
// reveals, each given only after the seat has checked, from what every
// reader sees (table.View), every signature, link and round of the game
// so far and that the pending move is the one the log leads to. Bot
// clients and tests drive it; it imports the machinery only.
package trustseat

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// Seat is one player's trustless seat. Not safe for concurrent use.
type Seat struct {
	def      game.Definition
	gameID   string
	uid      string
	seat     int
	chain    *trustless.Chain
	pub      ed25519.PublicKey
	priv     ed25519.PrivateKey
	revealed uint32 // the last index revealed
	// lastDigest and lastTr are that reveal's round (keep.go).
	lastDigest, lastTr [32]byte
	// dealSeed seeds the deal client's stream (keep.go).
	dealSeed [32]byte
	f        *match.TrustlessFollower
	// cp is the checkpoint a seat restored from its secrets resumes from
	// at its first view (checked.go); nil once it has a follower.
	cp *match.TrustlessCheckpoint
	// deal and dealer are a dealing table's (deal.go).
	deal   *trustdeal.Seat
	dealer *match.MentalDealer
	leak   bool // LeakAtDeal's
	// ack is the acknowledgement its client keeps with its secrets
	// (ack.go), as Export writes it.
	ack []byte
}

// New draws a seat's chain of n links (the table's chainLength), its key
// and the seed of its deal keys, for uid at seat of the table gameID of
// def.
func New(def game.Definition, gameID, uid string, seat int, n uint32) (*Seat, error) {
	var secrets [3][32]byte
	for i := range secrets {
		var err error
		if secrets[i], err = draw32(); err != nil {
			return nil, err
		}
	}
	return build(def, gameID, uid, seat, n, secrets[0], secrets[1], secrets[2])
}

// UID returns the seat's uid; Index its seat.
func (s *Seat) UID() string { return s.uid }

// Index returns the seat's index.
func (s *Seat) Index() int { return s.seat }

// Join returns the join action against version (options: the seat's, in
// the game's order; none for a game without options), carrying the
// chain's head, the key and the signature.
func (s *Seat) Join(actionID string, version uint64, options map[string]string, opts []string) table.Action {
	head := s.chain.Head()
	body := game.AppendSeatCanonical(nil, s.def.Seats(), s.seat, game.Seat{Options: opts})
	canon := match.TableAction("join", s.uid, version, body, head[:], s.pub)
	sig := ed25519.Sign(s.priv, trustless.ActionMessage(s.gameID, canon))
	return table.Action{Actor: s.uid, ActionID: actionID, Version: version, Kind: table.KindJoin, Seat: s.seat, Options: options,
		ChainHead: hex.EncodeToString(head[:]), PublicKey: hex.EncodeToString(s.pub), Signature: hex.EncodeToString(sig)}
}

// follow checks the view's protocol and replays the game from it: from
// the first move, or, once the seat has checked some, from its own
// checkpoint (a view of the moves after those: MovesBase, Checked).
func (s *Seat) follow(v *table.View) (*match.TrustlessFollower, error) {
	p := v.Trustless
	if p == nil {
		return nil, errors.New("trustseat: not a trustless table")
	}
	r := &match.Record{Game: v.Game, Mode: rng.ModeTrustless, Seats: len(v.Seats), Rules: v.Rules, Trustless: &p.RecordTrustless}
	for _, sv := range v.Seats {
		if len(sv.Options) > 0 {
			r.SeatOptions = make([][]string, len(v.Seats))
			for i, x := range v.Seats {
				r.SeatOptions[i] = x.Options
			}
			break
		}
	}
	for _, m := range p.Moves {
		r.Moves = append(r.Moves, m.Move)
	}
	if p.Deal != nil {
		d, err := s.dealSeat(v)
		if err != nil {
			return nil, err
		}
		if err := s.catchUp(d, p.Deal); err != nil {
			s.deal, s.dealer, s.f = nil, nil, nil // made again from the start at the next view
			return nil, err
		}
		if err := d.Sync(p.Deal); err != nil {
			return nil, fmt.Errorf("trustseat: the deal does not check: %w", err)
		}
	}
	if p.Deal != nil {
		s.cp = nil // a dealing table keeps no checkpoint
	}
	var err error
	switch {
	case s.f == nil && s.cp != nil:
		// A seat restored from its secrets: from its own checkpoint.
		s.f, err = match.ResumeTrustless(s.def, s.cp, p.MovesBase, r)
		s.cp = nil
	case s.f == nil && p.MovesBase > 0:
		err = fmt.Errorf("the view shows the moves from move %d, and the seat has checked none (read the whole view: Checked)", p.MovesBase+1)
	case s.f == nil:
		s.f, err = match.FollowTrustlessDealt(s.def, r, s.dealerOrNil())
	default:
		err = s.f.UpdateAfter(p.MovesBase, r) // from the seat's own checkpoint
	}
	if err != nil {
		s.f = nil
		return nil, fmt.Errorf("trustseat: the table's protocol does not check: %w", err)
	}
	f := s.f
	// With a round pending, the table's transcript includes the pending
	// move's record, which Reveal checks.
	if got := hex.EncodeToString(f.Transcript[:]); p.Pending == nil && got != p.Transcript || f.Next != p.NextIndex {
		return nil, fmt.Errorf("trustseat: the table shows transcript %s and next index %d; its log gives %s and %d", p.Transcript, p.NextIndex, got, f.Next)
	}
	return f, nil
}

// Move returns the move action for mv against the view v (the seat's
// own, at its version), signed; if mv draws, it carries the seat's own
// reveal for the round mv opens (docs/fairness.md, "An action with its
// reveal"); at a dealing table still at the deal, the seat's keys of the
// others' cards. It checks the view's protocol first.
func (s *Seat) Move(actionID string, v *table.View, mv game.Move) (table.Action, error) {
	f, err := s.follow(v)
	if err != nil {
		return table.Action{}, err
	}
	mv.Seat = s.seat
	canon := match.TableAction("move", s.uid, v.Version, game.AppendMoveCanonical(nil, s.def.Kinds(), mv), nil, nil)
	sig := ed25519.Sign(s.priv, trustless.ActionMessage(s.gameID, canon))
	a := table.Action{Actor: s.uid, ActionID: actionID, Version: v.Version, Kind: table.KindMove,
		Move: game.AppendMoveJSON(nil, s.def.Kinds(), mv), Signature: hex.EncodeToString(sig)}
	if d := v.Trustless.Deal; d != nil && d.Phase == trustdeal.PhaseDeal {
		// The first move at the deal carries the seat's keys of the
		// others' cards (docs/fairness.md, "Cost in commits").
		ks, err := s.deal.DueKeys()
		if err != nil {
			return table.Action{}, err
		}
		if len(ks) > 0 {
			a.Deal = &table.DealMessage{Keys: ks}
		}
	}
	draws, err := f.Match.WouldDraw(mv)
	if err != nil || !draws || f.Next > uint32(s.chain.Len()) || s.deal != nil { // a dealing table's move waits for keys, not a round
		return a, err
	}
	digest := trustless.ActionDigest(s.gameID, canon)
	tr := trustless.TranscriptAction(&f.Transcript, &digest, sig)
	r, err := s.reveal(f.Next, &digest, &tr)
	if err != nil {
		return table.Action{}, err
	}
	a.Reveal = r
	return a, nil
}

// Reveal returns the seat's reveal of the view's pending round, after
// checking that the round is the one the table's protocol leads to: its
// index is the next, its digest that of its move by the seat the game
// awaits, made at a version after the last join's or move's, signed by
// that seat, and its transcript the one the log gives.
// It never reveals an index for two rounds nor one out of order; asked
// again for the round it revealed last, it gives the same reveal (what a
// page reloaded before its reveal's answer sends again).
func (s *Seat) Reveal(actionID string, v *table.View) (table.Action, error) {
	f, err := s.follow(v)
	if err != nil {
		return table.Action{}, err
	}
	p := v.Trustless.Pending
	if p == nil {
		return table.Action{}, errors.New("trustseat: no round is pending")
	}
	mv, err := decodeCanonical(s.def, p.Move)
	if err != nil {
		return table.Action{}, err
	}
	if to := f.Match.State().ToMove(); mv.Seat != to {
		return table.Action{}, fmt.Errorf("trustseat: the pending move is seat %d's; the game awaits seat %d", mv.Seat, to)
	}
	if draws, err := f.Match.WouldDraw(mv); err != nil || !draws {
		return table.Action{}, fmt.Errorf("trustseat: the pending move needs no round (%v)", err)
	}
	if p.Version <= f.Version && checks.On(checks.MoveVersion) {
		return table.Action{}, fmt.Errorf("trustseat: the pending move was made at version %d, not after %d (the join or move before it): a signature used again", p.Version, f.Version)
	}
	canon := match.TableAction("move", v.Seats[mv.Seat].UID, p.Version, game.AppendMoveCanonical(nil, s.def.Kinds(), mv), nil, nil)
	sig, _ := hex.DecodeString(p.Signature)
	keyHex := v.Trustless.Seats[mv.Seat].PublicKey
	key, _ := hex.DecodeString(keyHex)
	if !trustless.Verify(key, trustless.ActionMessage(s.gameID, canon), sig) {
		return table.Action{}, errors.New("trustseat: the pending move's signature does not verify under its seat's key")
	}
	digest := trustless.ActionDigest(s.gameID, canon)
	tr := trustless.TranscriptAction(&f.Transcript, &digest, sig)
	if p.Index != f.Next || p.Digest != hex.EncodeToString(digest[:]) || p.Transcript != hex.EncodeToString(tr[:]) {
		return table.Action{}, fmt.Errorf("trustseat: the pending round (index %d, digest %s, transcript %s) is not the one the log leads to (%d, %x, %x)",
			p.Index, p.Digest, p.Transcript, f.Next, digest, tr)
	}
	r, err := s.reveal(p.Index, &digest, &tr)
	if err != nil {
		return table.Action{}, err
	}
	return table.Action{Actor: s.uid, ActionID: actionID, Kind: table.KindReveal, Reveal: r}, nil
}

func (s *Seat) reveal(v uint32, digest, tr *[32]byte) (*table.Reveal, error) {
	again := v > 0 && v == s.revealed && *digest == s.lastDigest && *tr == s.lastTr
	if v != s.revealed+1 && !again {
		return nil, fmt.Errorf("trustseat: asked for index %d after %d", v, s.revealed)
	}
	link, err := s.chain.Link(v)
	if err != nil {
		return nil, err
	}
	sig := ed25519.Sign(s.priv, trustless.RevealMessage(s.gameID, v, digest, tr))
	s.revealed, s.lastDigest, s.lastTr = v, *digest, *tr
	return &table.Reveal{Seat: s.seat, Index: v, Link: hex.EncodeToString(link[:]), Digest: hex.EncodeToString(digest[:]),
		Transcript: hex.EncodeToString(tr[:]), Signature: hex.EncodeToString(sig)}, nil
}

// dealerOrNil is the follower's dealer: the deal's, or none.
func (s *Seat) dealerOrNil() game.Dealer {
	if s.dealer == nil {
		return nil
	}
	return s.dealer
}

// Forget makes the seat believe it has not revealed index v (a test's
// way to make a seat reveal again, or out of order).
func (s *Seat) Forget(v uint32) { s.revealed = v - 1 }

// decodeCanonical reads a move's canonical bytes {"seat":S,"kind":...}.
func decodeCanonical(def game.Definition, c string) (game.Move, error) {
	i := bytes.IndexByte([]byte(c), ',')
	var seat int
	if _, err := fmt.Sscanf(c, `{"seat":%d,`, &seat); err != nil || i < 0 {
		return game.Move{}, fmt.Errorf("trustseat: a pending move %q not in canonical form", c)
	}
	mv, err := game.DecodeMove(def.Kinds(), seat, []byte("{"+c[i+1:]))
	if err != nil {
		return game.Move{}, err
	}
	if string(game.AppendMoveCanonical(nil, def.Kinds(), mv)) != c {
		return game.Move{}, fmt.Errorf("trustseat: a pending move %q not in canonical form", c)
	}
	return mv, nil
}
