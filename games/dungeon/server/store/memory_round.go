package store

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// The in-memory store's reveal rounds: staging reveals and finding stalled rounds.

// stage holds the reveal a (Outcome.Stage) in the game's open round, with
// its record, and nothing of the game: mg is locked and exists.
func (m *Memory) stage(mg *memGame, key string, rec *Record, version uint64, a *engine.Action) (*Record, error) {
	if !mg.exists {
		return nil, fmt.Errorf("%w: a reveal staged in a game that does not exist", ErrInvalid)
	}
	if mg.staged[a.Index][a.Seat] != nil {
		return nil, fmt.Errorf("%w: seat %d's reveal for index %d is staged already", ErrContention, a.Seat, a.Index)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	if err := checkStorable(b); err != nil {
		return nil, err
	}
	rec.Version, rec.Events, rec.Staged = version, []engine.Event{}, true
	if key != "" {
		if err := putRecord(mg, key, rec); err != nil {
			return nil, err
		}
	}
	if mg.staged[a.Index] == nil {
		mg.staged[a.Index] = map[int][]byte{}
	}
	mg.staged[a.Index][a.Seat] = b
	return rec, nil
}

// stagedOf decodes the reveals staged for index, sorted by SortStaged.
func (mg *memGame) stagedOf(index uint32) ([]engine.Action, error) {
	var out []engine.Action
	for _, b := range mg.staged[index] {
		var a engine.Action
		if err := json.Unmarshal(b, &a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	SortStaged(out)
	return out, nil
}

// Staged implements Store.
func (m *Memory) Staged(ctx context.Context, gameID string, index uint32) ([]engine.Action, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return []engine.Action{}, nil
	}
	defer mg.mu.Unlock()
	out, err := mg.stagedOf(index)
	if out == nil && err == nil {
		out = []engine.Action{}
	}
	return out, err
}

// Due implements Store: a scan, which in memory is what an index is.
func (m *Memory) Due(ctx context.Context, before int64, limit int) ([]string, error) {
	type due struct {
		id string
		at int64
	}
	m.mu.Lock()
	games := make(map[string]*memGame, len(m.games))
	maps.Copy(games, m.games)
	m.mu.Unlock()
	var all []due
	for id, mg := range games {
		mg.mu.Lock()
		if mg.exists && mg.due > 0 && mg.due <= before {
			all = append(all, due{id, mg.due})
		}
		mg.mu.Unlock()
	}
	slices.SortFunc(all, func(a, b due) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		return strings.Compare(a.id, b.id)
	})
	out := []string{}
	for _, d := range all {
		if limit > 0 && len(out) == limit {
			break
		}
		out = append(out, d.id)
	}
	return out, nil
}
