package game

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Restorer is implemented by a definition whose states can be made again
// from the canonical bytes of their three parts, as AppendPublic,
// AppendPrivate (one per seat) and AppendSecret wrote them: a store keeps
// those bytes as a snapshot of a game in progress and makes its state
// again without replaying its moves (package table, "snapshots"). A
// definition without it is restored by replay only.
type Restorer interface {
	// RestoreState returns the state whose parts are public, private[i]
	// for seat i and secret, under r (a ruleset of this definition) with
	// seats as at Setup. Anything that is not such a state (bytes that
	// do not decode strictly, a seat count or a ruleset that does not
	// fit, a state that breaks an invariant) is an error naming the
	// problem, never a panic: the bytes come from a store. RestoreState
	// (the function) checks that the state's parts append to exactly the
	// given bytes, so a game may rebuild from the fewest fields that fix
	// the state.
	RestoreState(r Ruleset, seats []Seat, public []byte, private [][]byte, secret []byte) (State, error)
}

// ErrNotRestorer is RestoreState's error for a definition that is not a
// Restorer: its games are restored by replay only.
var ErrNotRestorer = errors.New("the game does not restore a state from its parts")

// RestoreState makes a state of def again from its parts (Restorer) and
// checks it: its seat count is len(private), Check passes, and its three
// parts append to exactly the given bytes. Errors: ErrNotRestorer,
// RestoreState's own, and any of those checks, named.
func RestoreState(def Definition, r Ruleset, seats []Seat, public []byte, private [][]byte, secret []byte) (State, error) {
	rs, ok := def.(Restorer)
	if !ok {
		return nil, fmt.Errorf("%s: %w", def.Name(), ErrNotRestorer)
	}
	if len(private) != len(seats) {
		return nil, fmt.Errorf("%d private parts for %d seats", len(private), len(seats))
	}
	st, err := rs.RestoreState(r, seats, public, private, secret)
	if err != nil {
		return nil, err
	}
	if st.NumSeats() != len(seats) {
		return nil, fmt.Errorf("a state of %d seats for %d", st.NumSeats(), len(seats))
	}
	if err := st.Check(); err != nil {
		return nil, err
	}
	if !bytes.Equal(st.AppendPublic(nil), public) {
		return nil, errors.New("the restored state's public part is not the given one")
	}
	if !bytes.Equal(st.AppendSecret(nil), secret) {
		return nil, errors.New("the restored state's secret part is not the given one")
	}
	for i, p := range private {
		if !bytes.Equal(st.AppendPrivate(nil, i), p) {
			return nil, fmt.Errorf("the restored state's private part of seat %d is not the given one", i)
		}
	}
	return st, nil
}

// DecodePart decodes one part's JSON strictly into v (unknown fields and
// trailing data refused), for a Restorer; the error names the part.
func DecodePart(name string, data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%s part: %w", name, err)
	}
	if _, err := d.Token(); err == nil {
		return fmt.Errorf("%s part: trailing data", name)
	}
	return nil
}

// FixtureReplayer is implemented by a definition that keeps golden
// fixtures in a format of its own (the dungeon's engine fixtures, which
// predate game records): `gamectl replay FILE` hands it a file that is not
// a game record. ReplayFixture reads and replays the fixture at path:
// its one-line summary when the replay is identical, a divergence (the
// first step, event or audit entry that differs), or an error when the
// file is not one of its fixtures or cannot be replayed at all (bad
// input).
type FixtureReplayer interface {
	ReplayFixture(path string) (summary string, divergence, err error)
}
