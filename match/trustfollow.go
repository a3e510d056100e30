package match

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// TrustlessFollower is where a trustless game's public protocol stands
// after its applied moves: the game replayed from its rounds, the
// transcript's hash, the next round's index, each seat's last revealed
// link (its head before its first round) and the version the last join
// or move was made at (a pending move's must be later). A client keeps one and updates
// it from what every reader sees before it signs anything; each update
// checks only what is new, and that nothing it checked before changed.
type TrustlessFollower struct {
	Match      *Match
	Transcript [32]byte
	Next       uint32
	Last       [][32]byte
	Version    uint64

	def   game.Definition
	kinds []game.KindSpec
	c     *trustChecker
	seats []TrustlessSeat
	// moves and seen are the moves checked from move floor+1 on (floor:
	// the checkpoint a resumed follower started from, ResumeTrustless).
	moves []string
	seen  []TrustlessMove
	floor int
}

// FollowTrustless checks r's trustless protocol as CheckRecord does
// (every join, move, link and reveal signature) and replays its moves
// (r.Trustless's Pending and Abort are not read; a move's Move field,
// where given, must be r's move). Errors name the first thing wrong.
func FollowTrustless(def game.Definition, r *Record) (*TrustlessFollower, error) {
	return FollowTrustlessDealt(def, r, nil)
}

// FollowTrustlessDealt is FollowTrustless for a game that deals a private
// deck: its replay deals and shows cards through dealer (a MentalDealer over
// the client's own table, which it keeps in step before each Update).
func FollowTrustlessDealt(def game.Definition, r *Record, dealer game.Dealer) (*TrustlessFollower, error) {
	if r.Trustless == nil {
		return nil, fmt.Errorf("no trustless protocol")
	}
	rules, err := def.DecodeRuleset(r.Rules)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	c, d, err := startChecker(def, r, rules)
	if err == nil {
		err = d
	}
	if err != nil {
		return nil, err
	}
	seats := make([]game.Seat, r.Seats)
	for i := range seats {
		if r.SeatOptions != nil {
			seats[i].Options = r.SeatOptions[i]
		}
	}
	m, err := New(def, Config{Mode: rng.ModeTrustless, Seats: seats, Rules: rules, Dealer: dealer})
	if err != nil {
		return nil, err
	}
	f := &TrustlessFollower{Match: m, def: def, kinds: def.Kinds(), c: c, seats: slices.Clone(r.Trustless.Seats)}
	f.sync()
	if err := f.Update(r); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *TrustlessFollower) sync() {
	f.Transcript, f.Next, f.Last, f.Version = f.c.t, f.c.next, slices.Clone(f.c.prev), f.c.version
}

// Update follows r, the same game further on: its seats and the moves
// already followed must be exactly those checked before (else an error:
// the server changed the past), and the new ones are checked and
// replayed. After an error the follower must not be used again.
func (f *TrustlessFollower) Update(r *Record) error { return f.UpdateAfter(0, r) }

// Checked is how many applied moves the follower has checked and
// replayed: its checkpoint, which a client polling a table sends as the
// moves it holds (the server then sends only those after them).
func (f *TrustlessFollower) Checked() int { return f.floor + len(f.moves) }

// skipOverlap switches off UpdateAfter's comparison of the moves it
// already checked (the tests' positive control only).
var skipOverlap bool

// UpdateAfter is Update for r whose Moves (and their protocol) are the
// game's from move base on (0 <= base <= Checked(), and not before the
// checkpoint a resumed follower started from: a view of the moves
// after those the client checked, table.TrustlessView.MovesBase): the
// moves r holds that the follower already checked must be exactly those
// it checked, and those after are checked from the follower's own
// checkpoint (its transcript, next index and last links), never from
// anything the server says of the moves before base. Errors: a base
// past the moves checked (a gap), a negative base, a base before a
// resumed follower's checkpoint (it holds no moves before it to compare
// them with), and Update's.
func (f *TrustlessFollower) UpdateAfter(base int, r *Record) error {
	p := r.Trustless
	checked := f.Checked()
	switch {
	case p == nil:
		return fmt.Errorf("no trustless protocol")
	case base < 0 || base > checked:
		return fmt.Errorf("trustless: the moves shown start at move %d; %d were checked", base+1, checked)
	case base < f.floor:
		return fmt.Errorf("trustless: the moves shown start at move %d, before the checkpoint this client resumed from (move %d): ask for the moves after it", base+1, f.floor)
	case !slices.Equal(p.Seats, f.seats):
		return fmt.Errorf("trustless: the seats' commitments changed")
	case base+len(r.Moves) < checked || len(p.Moves) != len(r.Moves):
		return fmt.Errorf("trustless: %d moves (%d with their protocol) after %d followed", base+len(r.Moves), len(p.Moves), checked)
	}
	for i := base; i < checked && !skipOverlap; i++ {
		if r.Moves[i-base] != f.moves[i-f.floor] || !sameMove(p.Moves[i-base], f.seen[i-f.floor]) {
			return fmt.Errorf("trustless: move %d changed since it was checked", i+1)
		}
	}
	for i := checked; i < base+len(r.Moves); i++ {
		mv, err := decodeCanonicalMove(f.kinds, r.Moves[i-base])
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		pm := &p.Moves[i-base]
		if pm.Move != "" && pm.Move != r.Moves[i-base] {
			return fmt.Errorf("move %d: the protocol names %s, the moves %s", i+1, pm.Move, r.Moves[i-base])
		}
		what := fmt.Sprintf("move %d (%s by seat %d)", i+1, mv.Kind, mv.Seat)
		key, d, err := f.c.move(what, p.Seats, f.kinds, mv, pm, false)
		if err == nil {
			err = d
		}
		if err != nil {
			return err
		}
		if _, err := f.Match.ApplyKeyed(mv, key); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		f.moves = append(f.moves, r.Moves[i-base])
		f.seen = append(f.seen, *pm)
	}
	f.sync()
	return nil
}

func sameMove(a, b TrustlessMove) bool {
	return a.Version == b.Version && a.Signature == b.Signature && a.Index == b.Index && slices.Equal(a.Reveals, b.Reveals)
}
