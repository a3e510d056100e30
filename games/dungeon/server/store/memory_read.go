package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// The in-memory store's reads and its audit ring.

func putRecord(mg *memGame, key string, rec *Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := checkStorable(b); err != nil {
		return err
	}
	mg.actions[key] = b
	return nil
}

// replay decodes a stored record and checks it belongs to req.
func replay(raw []byte, req Request) (*Record, error) {
	var rec Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	if err := rec.Matches(req); err != nil {
		return nil, err
	}
	rec.Replayed = true
	return &rec, nil
}

// Game implements Store.
func (m *Memory) Game(ctx context.Context, gameID string) (*engine.Public, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, gameID)
	}
	defer mg.mu.Unlock()
	var p engine.Public
	if err := json.Unmarshal(mg.public, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// State implements Store.
func (m *Memory) State(ctx context.Context, gameID string) (*engine.Game, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, gameID)
	}
	defer mg.mu.Unlock()
	var g engine.Game
	if err := json.Unmarshal(mg.public, &g.Public); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(mg.secret, &g.Secret); err != nil {
		return nil, err
	}
	return &g, nil
}

// Applied implements Store.
func (m *Memory) Applied(ctx context.Context, gameID string) ([]AppliedAction, error) {
	out := []AppliedAction{}
	mg := m.lookup(gameID)
	if mg == nil {
		return out, nil
	}
	defer mg.mu.Unlock()
	for _, b := range mg.applied {
		var a AppliedAction
		if err := json.Unmarshal(b, &a); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// Log implements Store.
func (m *Memory) Log(ctx context.Context, gameID string, after uint64, limit int) ([]engine.Event, error) {
	out := []engine.Event{}
	mg := m.lookup(gameID)
	if mg == nil {
		return out, nil
	}
	defer mg.mu.Unlock()
	for i := after; i < uint64(len(mg.log)); i++ {
		if limit > 0 && len(out) == limit {
			break
		}
		var e engine.Event
		if err := json.Unmarshal(mg.log[i], &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// Action implements Store.
func (m *Memory) Action(ctx context.Context, gameID, actor, actionID string) (*Record, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return nil, fmt.Errorf("%w: %s/%s", ErrNotFound, gameID, actionID)
	}
	defer mg.mu.Unlock()
	raw, ok := mg.actions[RecordKey(actor, actionID)]
	if !ok {
		return nil, fmt.Errorf("%w: %s/%s", ErrNotFound, gameID, actionID)
	}
	var rec Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// WriteAudit implements Store.
func (m *Memory) WriteAudit(ctx context.Context, gameID string, entries []audit.Entry) (int, error) {
	if !ValidID(gameID) {
		return 0, fmt.Errorf("%w: game %q", ErrInvalid, gameID)
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	// Copies through JSON, as a database would keep them.
	copies := make([]audit.Entry, len(entries))
	for i, e := range entries {
		if err := jsonCopy(e, &copies[i]); err != nil {
			return 0, fmt.Errorf("%w: audit entry %d: %v", ErrInvalid, e.Seq, err)
		}
	}
	mg := m.lookup(gameID)
	if mg == nil {
		return 0, fmt.Errorf("%w: %s", ErrNotFound, gameID)
	}
	defer mg.mu.Unlock()
	n := 0
	for _, e := range copies {
		if mg.audit.Put(e) {
			n++
		}
	}
	return n, nil
}

// Audit implements Store.
func (m *Memory) Audit(ctx context.Context, gameID string) ([]audit.Entry, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return []audit.Entry{}, nil
	}
	defer mg.mu.Unlock()
	held := mg.audit.Entries()
	out := make([]audit.Entry, len(held))
	for i, e := range held {
		if err := jsonCopy(e, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// jsonCopy copies v into dst through its JSON, so they share nothing.
func jsonCopy(v, dst any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, dst)
}

// Close implements Store; the memory is dropped with the value.
func (m *Memory) Close() error { return nil }
