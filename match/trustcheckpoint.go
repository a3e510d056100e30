package match

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// TrustlessCheckpoint is where a TrustlessFollower stands, enough to
// follow the same game on from there without the moves before it
// (ResumeTrustless): the moves checked, the protocol's state after them
// (the transcript's hash, the next round's index, each seat's last link,
// the last join's or move's version), what binds the game (its table's
// id, the chains' length, the ruleset's hash, the seats' options and
// commitments) and the game's state (Snapshot: its parts and the rounds'
// seq). A client keeps it on its own device, with its secrets
// (table/trustseat): it is the client's own word, never the server's.
type TrustlessCheckpoint struct {
	Checked     int
	Transcript  [32]byte
	Next        uint32
	Last        [][32]byte
	Version     uint64
	GameID      string
	ChainLength uint32
	RulesHash   string
	SeatOptions [][]string
	Seats       []TrustlessSeat
	State       *Snapshot
}

// ErrNoCheckpoint is Checkpoint's error for a follower whose game state
// cannot be kept: a game that is not a game.Restorer, and a game that
// deals a private deck (its state is dealt through the client's mental
// poker table, which a snapshot does not hold). Such a client follows
// the game from the first move after a restart.
var ErrNoCheckpoint = errors.New("match: no checkpoint of this game (not a game.Restorer, or it deals)")

// Checkpoint returns where f stands (TrustlessCheckpoint). Errors:
// ErrNoCheckpoint, and Snapshot's.
func (f *TrustlessFollower) Checkpoint() (*TrustlessCheckpoint, error) {
	if _, ok := f.def.(game.Restorer); !ok || f.Match.cfg.Dealer != nil {
		return nil, ErrNoCheckpoint
	}
	snap, err := f.Match.Snapshot()
	if err != nil {
		return nil, err
	}
	cp := &TrustlessCheckpoint{Checked: f.Checked(), Transcript: f.Transcript, Next: f.Next, Last: slices.Clone(f.Last), Version: f.Version,
		GameID: f.c.id, ChainLength: f.c.limit, RulesHash: f.Match.rules.Hash(), Seats: slices.Clone(f.seats), State: snap}
	for _, s := range f.Match.cfg.Seats {
		if len(s.Options) > 0 {
			cp.SeatOptions = make([][]string, len(f.Match.cfg.Seats))
			for i, x := range f.Match.cfg.Seats {
				cp.SeatOptions[i] = slices.Clone(x.Options)
			}
			break
		}
	}
	return cp, nil
}

// ResumeTrustless makes again the follower cp was taken of and follows
// r, a view of the same game whose moves (and their protocol) start at
// move base+1, as UpdateAfter does:
//
//   - base == cp.Checked (a view of the moves after the checkpoint): the
//     moves r holds are checked from cp, never from anything r says of
//     the moves before it;
//   - base == 0 (a whole view): r's first cp.Checked moves are checked
//     from the first move and must lead exactly to cp (every field,
//     the game's state among them), and the rest are checked on.
//
// The resumed follower holds no moves before cp.Checked: its Match's
// Moves, Record and Position start at the checkpoint. Errors: any other
// base, r's table id, chains' length, ruleset, seats' options or
// commitments not cp's, fewer moves than cp.Checked in a whole view,
// a whole view that does not lead to cp, a state that does not restore
// (FromSnapshot's errors), and UpdateAfter's.
func ResumeTrustless(def game.Definition, cp *TrustlessCheckpoint, base int, r *Record) (*TrustlessFollower, error) {
	p := r.Trustless
	switch {
	case p == nil:
		return nil, fmt.Errorf("no trustless protocol")
	case cp == nil || cp.State == nil || cp.Checked < 1:
		return nil, fmt.Errorf("trustless: no checkpoint")
	case base != 0 && base != cp.Checked:
		return nil, fmt.Errorf("trustless: the moves shown start at move %d; the checkpoint is at move %d", base+1, cp.Checked)
	case base == 0 && len(r.Moves) < cp.Checked:
		return nil, fmt.Errorf("trustless: %d moves shown; %d were checked", len(r.Moves), cp.Checked)
	case p.GameID != cp.GameID || p.ChainLength != cp.ChainLength:
		return nil, fmt.Errorf("trustless: the table %q of chains of %d links is not the checkpoint's %q of %d", p.GameID, p.ChainLength, cp.GameID, cp.ChainLength)
	case !slices.Equal(p.Seats, cp.Seats):
		return nil, fmt.Errorf("trustless: the seats' commitments are not the checkpoint's")
	case !sameOptions(r.SeatOptions, cp.SeatOptions, len(cp.Seats)):
		return nil, fmt.Errorf("trustless: the seats' options are not the checkpoint's")
	}
	rules, err := def.DecodeRuleset(r.Rules)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	if rules.Hash() != cp.RulesHash {
		return nil, fmt.Errorf("trustless: the ruleset's hash %s is not the checkpoint's %s", rules.Hash(), cp.RulesHash)
	}
	if base == 0 {
		return resumeWhole(def, cp, r)
	}
	seats := make([]game.Seat, len(cp.Seats))
	for i := range seats {
		if cp.SeatOptions != nil {
			seats[i].Options = cp.SeatOptions[i]
		}
	}
	if len(cp.Last) != len(cp.Seats) {
		return nil, fmt.Errorf("trustless: the checkpoint holds %d last links for %d seats", len(cp.Last), len(cp.Seats))
	}
	c := &trustChecker{id: cp.GameID, n: len(cp.Seats), prev: slices.Clone(cp.Last), t: cp.Transcript, next: cp.Next, limit: cp.ChainLength, version: cp.Version}
	for i, s := range cp.Seats {
		key, err := hex32(s.PublicKey, fmt.Sprintf("seat %d's publicKey", i))
		if err != nil {
			return nil, err
		}
		c.keys = append(c.keys, key[:])
	}
	m, err := FromSnapshot(def, Config{Mode: rng.ModeTrustless, Seats: seats, Rules: rules}, cp.State, History{})
	if err != nil {
		return nil, err
	}
	f := &TrustlessFollower{Match: m, def: def, kinds: def.Kinds(), c: c, seats: slices.Clone(cp.Seats), floor: cp.Checked}
	f.sync()
	if err := f.UpdateAfter(base, r); err != nil {
		return nil, err
	}
	return f, nil
}

// resumeWhole follows the whole view r from the first move, checking
// that its first cp.Checked moves lead to cp.
func resumeWhole(def game.Definition, cp *TrustlessCheckpoint, r *Record) (*TrustlessFollower, error) {
	head := *r
	tp := *r.Trustless
	head.Moves, tp.Moves, head.Trustless = r.Moves[:cp.Checked], tp.Moves[:min(cp.Checked, len(tp.Moves))], &tp
	f, err := FollowTrustless(def, &head)
	if err != nil {
		return nil, err
	}
	at, err := f.Checkpoint()
	if err != nil {
		return nil, err
	}
	if d := at.differs(cp); d != "" {
		return nil, fmt.Errorf("trustless: the table's first %d moves do not lead to the checkpoint: its %s differs", cp.Checked, d)
	}
	if err := f.Update(r); err != nil {
		return nil, err
	}
	return f, nil
}

// differs names the first field in which a differs from b ("": none).
func (a *TrustlessCheckpoint) differs(b *TrustlessCheckpoint) string {
	switch {
	case a.Checked != b.Checked:
		return "count of moves"
	case a.Transcript != b.Transcript:
		return "transcript"
	case a.Next != b.Next:
		return "next index"
	case !slices.Equal(a.Last, b.Last):
		return "last links"
	case a.Version != b.Version:
		return "version"
	case !bytes.Equal(a.State.Public, b.State.Public) || !bytes.Equal(a.State.Secret, b.State.Secret) ||
		!slices.EqualFunc(a.State.Private, b.State.Private, bytes.Equal) || a.State.Seq != b.State.Seq ||
		a.State.Stream != b.State.Stream || len(a.State.Dealt) != 0 || len(b.State.Dealt) != 0:
		return "game state"
	}
	return ""
}

// sameOptions reports whether the seat options a and b (nil: none) are
// the same for n seats.
func sameOptions(a, b [][]string, n int) bool {
	for i := range n {
		var x, y []string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if !slices.Equal(x, y) {
			return false
		}
	}
	return len(a) <= n && len(b) <= n
}
