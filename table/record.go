package table

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// Record returns the finished table's game as a game record
// (match.Record, fairboard-game/v1) for uid, a seated player or the
// owner: its seats' options, ruleset, moves and either its seed (a seeded
// table), its game seed with the fair protocol that made it (a fair
// table), its every drawn value (a crypto table), or its trustless
// protocol (chains, keys, signatures, every round's links: a trustless
// table), the named decks' salt key, salts, orders and the
// commitments it published (a seeded, fair or crypto table that
// shuffled one: decks.go), its whole log with
// every seat's addressed events (the game is over: its private parts are
// opened), the RNG audit entries of a replay and the final state's hash.
// "gamectl verify" and "gamectl replay" check it offline with
// match.CheckRecord.
//
// The replay is the check of a table restored from its snapshot: moves
// that do not replay to the table's state are an error, and so is a
// trustless table's protocol state (transcript, next round, last links,
// pending round) other than its moves' (trustcheck.go).
//
// Errors: not_created for anyone else (as for no table: a stranger does
// not learn the id is taken); not_finished while the game is not over or
// for a table abandoned in its lobby (it has no game).
func (t *Table) Record(uid string) (*match.Record, error) {
	if uid != t.owner && t.seatOf(uid) == NoSeat {
		return nil, reject(CodeNotCreated, "no such game")
	}
	if t.phase != PhaseFinished || t.m == nil {
		return nil, reject(CodeNotFinished, "the game is not over: its record comes at its end")
	}
	if t.sealed.Chunks > 0 {
		return nil, errors.New("table: record of a table restored from its head alone (JoinHead its chunks first)")
	}
	seats := make([]game.Seat, len(t.seats))
	for i, s := range t.seats {
		seats[i] = game.Seat{Options: slices.Clone(s.Options)}
	}
	seed, err := t.matchSeed()
	if err != nil {
		return nil, fmt.Errorf("table: record: %w", err) // internal: the table started on it
	}
	var audit []rng.Entry
	cfg := match.Config{Mode: t.mode, Seed: seed, Seats: seats, Rules: t.rules, DealDraws: t.dealDraws,
		Auditor: rng.AuditorFunc(func(e rng.Entry) { audit = append(audit, e) })}
	var draws []int64
	if t.mode == rng.ModeCrypto {
		draws = t.m.Draws()
	}
	var m *match.Match
	if t.dl != nil {
		m, err = match.ReplayDeal(t.def, cfg, t.m.Moves(), t.dl.Record())
	} else if t.tl != nil {
		m, err = match.ReplayTrustless(t.def, cfg, t.m.Moves(), t.m.Keys())
	} else {
		m, err = match.Replay(t.def, cfg, t.m.Moves(), draws)
	}
	if err != nil {
		return nil, fmt.Errorf("table: record: the game does not replay: %w", err) // internal: its moves were applied
	}
	if !bytes.Equal(match.StateBytes(m.State()), t.StateBytes()) {
		// a table restored from a snapshot that its moves do not reach
		return nil, fmt.Errorf("table: record: the game's moves replay to another state than the table's")
	}
	if err := t.checkTrustState(t.m.Moves()); err != nil {
		// a protocol state (which a head goes on from) its moves do not give
		return nil, fmt.Errorf("table: record: the trustless protocol state: %w", err)
	}
	r, err := match.NewRecord(m, audit)
	if err != nil {
		return nil, err
	}
	r.Fairness = t.recordFairness()
	if r.Decks, err = t.recordDecks(m); err != nil {
		return nil, fmt.Errorf("table: record: %w", err) // internal: one commitment per shuffle
	}
	if t.tl != nil {
		r.Trustless = t.trustRecord(true)
	}
	return r, nil
}
