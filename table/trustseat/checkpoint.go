package trustseat

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/trustless"
)

// A seat's checkpoint in its secrets (docs/store.md, "The saved table's
// parts"): where the seat's check of the table's protocol stands
// (match.TrustlessCheckpoint: the moves checked, the transcript's hash,
// the next index, each seat's last link, the last version, the chains'
// length, the ruleset's hash, the seats' options and commitments, and
// the game's state as its snapshot's parts with the rounds' seq), so that
// a seat restored from its secrets asks for the moves after it
// (Checked) and checks them from it. It is the seat's own word, kept on
// its own device; nothing the server says goes into it but what the seat
// checked. A blob holds one (version 2) only for a game that restores a
// state from its parts (game.Restorer) at a table that does not deal
// (Pig; not Kuhn or Leduc, whose hands are dealt by mental poker), once
// the seat has checked a move; other blobs are version 1, as before.

// checkpointWire is the checkpoint in the blob: JSON, fields in this
// order, hex lower case (the state's parts too).
type checkpointWire struct {
	Moves       int                   `json:"moves"`
	Transcript  string                `json:"transcript"`
	Next        uint32                `json:"next"`
	Last        []string              `json:"last"`
	Version     uint64                `json:"version"`
	ChainLength uint32                `json:"chainLength"`
	RulesHash   string                `json:"rulesHash"`
	SeatOptions [][]string            `json:"seatOptions,omitempty"`
	Seats       []match.TrustlessSeat `json:"seats"`
	Public      string                `json:"public"`
	Private     []string              `json:"private"`
	Secret      string                `json:"secret"`
	Seq         uint64                `json:"seq"`
}

// maxCheckpointSeats bounds a checkpoint's seats (a table has far fewer).
const maxCheckpointSeats = 64

// checkpoint is where the seat stands: its follower's checkpoint (none
// before it has checked a move, and none for a game without one), or,
// before a restored seat's first view, the one its secrets held.
func (s *Seat) checkpoint() *match.TrustlessCheckpoint {
	if s.f == nil {
		return s.cp
	}
	if s.f.Checked() == 0 {
		return nil
	}
	cp, err := s.f.Checkpoint()
	if err != nil {
		return nil // match.ErrNoCheckpoint: the seat checks from the first move after a restart
	}
	return cp
}

func toWire(cp *match.TrustlessCheckpoint) *checkpointWire {
	w := &checkpointWire{Moves: cp.Checked, Transcript: hex.EncodeToString(cp.Transcript[:]), Next: cp.Next, Version: cp.Version,
		ChainLength: cp.ChainLength, RulesHash: cp.RulesHash, SeatOptions: cp.SeatOptions, Seats: cp.Seats,
		Public: hex.EncodeToString(cp.State.Public), Secret: hex.EncodeToString(cp.State.Secret), Seq: cp.State.Seq}
	for _, l := range cp.Last {
		w.Last = append(w.Last, hex.EncodeToString(l[:]))
	}
	for _, p := range cp.State.Private {
		w.Private = append(w.Private, hex.EncodeToString(p))
	}
	return w
}

// fromWire reads w, the checkpoint of the seat s (its gameID, uid, seat,
// key and chain head), refusing by name what is not one: no move
// checked, a hash or link not 64 lower-case hex digits, a next index
// outside 1 to the chains' length plus one, a chains' length outside 1
// to trustless.MaxChainLength, no seats or more than 64, last links,
// private parts or options not one per seat, the seat's own commitment
// not its uid, key and chain head, a part not lower-case hex. That the
// state restores, under the table's ruleset, is checked at the seat's
// first view (match.ResumeTrustless).
func fromWire(s *Seat, w *checkpointWire) (*match.TrustlessCheckpoint, error) {
	n := len(w.Seats)
	switch {
	case w.Moves < 1:
		return nil, fmt.Errorf("%d moves checked (at least 1)", w.Moves)
	case w.ChainLength < 1 || w.ChainLength > trustless.MaxChainLength:
		return nil, fmt.Errorf("chains of %d links (1 to %d)", w.ChainLength, trustless.MaxChainLength)
	case w.Next < 1 || w.Next > w.ChainLength+1:
		return nil, fmt.Errorf("next index %d (1 to %d)", w.Next, w.ChainLength+1)
	case n < 1 || n > maxCheckpointSeats:
		return nil, fmt.Errorf("%d seats (1 to %d)", n, maxCheckpointSeats)
	case s.seat >= n:
		return nil, fmt.Errorf("%d seats: no seat %d", n, s.seat)
	case len(w.Last) != n || len(w.Private) != n || w.SeatOptions != nil && len(w.SeatOptions) != n:
		return nil, fmt.Errorf("%d last links, %d private parts and %d seats' options for %d seats", len(w.Last), len(w.Private), len(w.SeatOptions), n)
	}
	own := w.Seats[s.seat]
	head := s.chain.Head()
	if own.UID != s.uid || own.PublicKey != hex.EncodeToString(s.pub) || own.ChainHead != hex.EncodeToString(head[:]) {
		return nil, fmt.Errorf("seat %d's commitment is not this seat's uid, key and chain head", s.seat)
	}
	cp := &match.TrustlessCheckpoint{Checked: w.Moves, Next: w.Next, Version: w.Version, GameID: s.gameID, ChainLength: w.ChainLength,
		RulesHash: w.RulesHash, SeatOptions: w.SeatOptions, Seats: w.Seats, Last: make([][32]byte, n),
		State: &match.Snapshot{Seq: w.Seq, Private: make([][]byte, n)}}
	if err := hex32(w.Transcript, &cp.Transcript); err != nil {
		return nil, fmt.Errorf("transcript: %v", err)
	}
	for i := range n {
		if err := hex32(w.Last[i], &cp.Last[i]); err != nil {
			return nil, fmt.Errorf("seat %d's last link: %v", i, err)
		}
		var h [32]byte
		if err := hex32(w.Seats[i].ChainHead, &h); err != nil {
			return nil, fmt.Errorf("seat %d's chain head: %v", i, err)
		}
		if err := hex32(w.Seats[i].PublicKey, &h); err != nil {
			return nil, fmt.Errorf("seat %d's key: %v", i, err)
		}
	}
	var err error
	if cp.State.Public, err = hexPart(w.Public); err != nil {
		return nil, fmt.Errorf("the state's public part: %v", err)
	}
	if cp.State.Secret, err = hexPart(w.Secret); err != nil {
		return nil, fmt.Errorf("the state's secret part: %v", err)
	}
	for i, p := range w.Private {
		if cp.State.Private[i], err = hexPart(p); err != nil {
			return nil, fmt.Errorf("the state's private part of seat %d: %v", i, err)
		}
	}
	return cp, nil
}

// hexPart reads lower-case hex digits.
func hexPart(h string) ([]byte, error) {
	b, err := hex.DecodeString(h)
	if err != nil || hex.EncodeToString(b) != h {
		return nil, errors.New("not lower-case hex digits")
	}
	return b, nil
}

// WithoutCheckpoint returns blob (Export's) as Export writes the same
// seat's secrets without a checkpoint: version 1, the form written
// before checkpoints, whose seat checks the table from the first move
// after it is restored. Errors: a blob that is not readable as secrets
// or whose check does not match (Restore checks the rest).
func WithoutCheckpoint(blob []byte) ([]byte, error) {
	w, err := decodeSecrets(blob)
	if err != nil {
		return nil, err
	}
	if w.Check != w.sum() {
		return nil, errors.New("trustseat: the seat's secrets are damaged (their check does not match)")
	}
	w.V, w.Checkpoint = secretsBare, nil
	w.Check = w.sum()
	b, _ := json.Marshal(w)
	return b, nil
}

// Holds reports whether blob holds exactly the seat's secrets (Export's)
// but for the checkpoint: the same chain, key, deal seed, last reveal
// and acknowledgement. A client keeping the blob asks it before it
// restores the seat again from a blob another tab stored: a blob that
// differs only in its checkpoint (the seat in memory has checked moves
// since) needs no restore.
func (s *Seat) Holds(blob []byte) bool {
	a, err := WithoutCheckpoint(blob)
	if err != nil {
		return false
	}
	b, _ := WithoutCheckpoint(s.Export())
	return bytes.Equal(a, b)
}
