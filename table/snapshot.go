package table

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// A started table of a game that restores its states from their parts
// (game.Restorer: Pig, Kuhn, Leduc) is saved with a snapshot of its
// game: the state's public part, each seat's private part and the secret
// part, and the stream's position (a seeded table's sfc32 words, a fair
// table's ChaCha20 offset, the audit's seq; a crypto table's next draws
// come from a new crypto stream, a trustless table's from each round's
// links). Restore makes the game again from it in work that does not
// grow with the game's length (match.FromSnapshot: no move replayed),
// and checks it against the saved state hash; the moves (and a crypto
// table's draws) stay saved beside it for the record, which replays them
// (Record, RestoreReplay). The snapshot lives in the saved table only,
// where the seed, the draws and the pending links already are: for the
// server alone. A table saved without one (before snapshots, or of a
// game without game.Restorer: the dungeon) is restored by replay.

// savedSnapshot is match.Snapshot as the saved table keeps it: each part
// as the text of the game's canonical bytes.
type savedSnapshot struct {
	Public  string   `json:"public"`
	Private []string `json:"private"`
	Secret  string   `json:"secret"`
	Stream  string   `json:"stream,omitempty"`
	Seq     uint64   `json:"seq,omitempty"`
	// Dealt is a crypto table's decks dealt by position (match.DealtDeck:
	// the orders the rest of each deck is dealt from); absent without.
	Dealt []match.DealtDeck `json:"dealt,omitempty"`
}

// snapshot returns the started game's snapshot, nil for a game that is
// not a game.Restorer and for a trustless table that deals (its hand is
// restored from its deal's log: restoreDeal).
func (t *Table) snapshot() (*savedSnapshot, error) {
	if _, ok := t.def.(game.Restorer); !ok || t.tl != nil && t.tl.Dealing {
		return nil, nil
	}
	sn, err := t.m.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("table: save: %w", err)
	}
	return fromMatchSnapshot(sn), nil
}

func fromMatchSnapshot(sn *match.Snapshot) *savedSnapshot {
	s := &savedSnapshot{Public: string(sn.Public), Private: make([]string, len(sn.Private)), Secret: string(sn.Secret), Stream: sn.Stream, Seq: sn.Seq, Dealt: sn.Dealt}
	for i, p := range sn.Private {
		s.Private[i] = string(p)
	}
	return s
}

func (s *savedSnapshot) match() *match.Snapshot {
	m := &match.Snapshot{Public: []byte(s.Public), Private: make([][]byte, len(s.Private)), Secret: []byte(s.Secret), Stream: s.Stream, Seq: s.Seq, Dealt: s.Dealt}
	for i, p := range s.Private {
		m.Private[i] = []byte(p)
	}
	return m
}

// restoreMatch makes the saved game's match again: from its snapshot if
// it has one and fromSnapshot, else by replaying its moves; a replay of
// a table saved with a snapshot must reach that snapshot exactly.
func (t *Table) restoreMatch(s *saved, fromSnapshot bool) (*match.Match, error) {
	if t.tl != nil && t.tl.Dealing {
		return t.restoreDeal()
	}
	seats := make([]game.Seat, len(s.Seats))
	for i, st := range s.Seats {
		seats[i] = game.Seat{Options: slices.Clone(st.Options)}
	}
	seed, err := t.matchSeed()
	if err != nil {
		return nil, err
	}
	cfg := match.Config{Mode: s.Mode, Seed: seed, Seats: seats, Rules: t.rules, DealDraws: t.dealDraws, Auditor: t.auditor()}
	var keys []*[32]byte
	if t.tl != nil {
		if keys, err = t.trustKeys(s.Moves); err != nil {
			return nil, err
		}
	}
	if s.Snapshot != nil && fromSnapshot {
		if len(s.Snapshot.Private) != len(seats) {
			return nil, fmt.Errorf("a snapshot of %d seats for %d", len(s.Snapshot.Private), len(seats))
		}
		var draws []int64
		if s.Mode == rng.ModeCrypto {
			draws = s.Draws
		} else if len(s.Draws) > 0 {
			return nil, fmt.Errorf("draws saved for a %s table", s.Mode)
		}
		return match.FromSnapshot(t.def, cfg, s.Snapshot.match(), match.History{Moves: s.Moves, Draws: draws, Keys: keys, Events: t.gameEvents()})
	}
	var m *match.Match
	if t.tl != nil {
		m, err = match.ReplayTrustless(t.def, cfg, s.Moves, keys)
	} else {
		m, err = match.Resume(t.def, cfg, s.Moves, s.Draws)
	}
	if err != nil || s.Snapshot == nil {
		return m, err
	}
	sn, err := m.Snapshot()
	if err != nil {
		return nil, err
	}
	if *fromMatchSnapshot(sn).canon() != *s.Snapshot.canon() {
		return nil, errors.New("the replayed game is not its saved snapshot")
	}
	return m, nil
}

// canon is the snapshot as one comparable value.
func (s *savedSnapshot) canon() *[6]string {
	return &[6]string{s.Public, fmt.Sprintf("%q", s.Private), s.Secret, s.Stream, fmt.Sprint(s.Seq), fmt.Sprint(s.Dealt)}
}

// gameEvents returns the game's own events of the log (Event.Game), as
// the match keeps them.
func (t *Table) gameEvents() []game.Event {
	var ev []game.Event
	for _, e := range t.log {
		if e.Game {
			ev = append(ev, game.Event{To: e.To, Type: e.Type, Vals: e.Vals})
		}
	}
	return ev
}
