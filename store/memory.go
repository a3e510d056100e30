package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// Memory is a Store in process memory, for the embedded development server
// and fast tests. Every game is kept as JSON (as a database would keep
// it), so no value is shared with callers. Actions on one game are
// serialized by a per-game lock, so Apply never contends and calls the
// Mutator at most once.
type Memory struct {
	mu    sync.Mutex
	games map[string]*memGame
}

type memGame struct {
	mu      sync.Mutex
	exists  bool
	public  []byte
	secret  []byte
	log     [][]byte          // index i holds seq i+1
	actions map[string][]byte // by action id
	audit   map[uint64][]byte // by slot
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{games: map[string]*memGame{}} }

// game returns the entry for id, creating an empty one.
func (m *Memory) game(id string) *memGame {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[id]
	if g == nil {
		g = &memGame{actions: map[string][]byte{}, audit: map[uint64][]byte{}}
		m.games[id] = g
	}
	return g
}

// Apply implements Store.
func (m *Memory) Apply(ctx context.Context, req Request, fn Mutator) (*Record, error) {
	if !ValidID(req.GameID) || (req.ActionID != "" && !ValidID(req.ActionID)) {
		return nil, fmt.Errorf("%w: game %q action %q", ErrInvalid, req.GameID, req.ActionID)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mg := m.game(req.GameID)
	mg.mu.Lock()
	defer mg.mu.Unlock()
	if req.ActionID != "" {
		if raw, ok := mg.actions[req.ActionID]; ok {
			return replay(raw, req)
		}
	}
	var g engine.Game
	if mg.exists {
		if err := json.Unmarshal(mg.public, &g.Public); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(mg.secret, &g.Secret); err != nil {
			return nil, err
		}
	}
	events, err := fn(&g)
	rec := &Record{ActionID: req.ActionID, Actor: req.Actor, Kind: req.Kind, Fingerprint: req.Fingerprint}
	var rej *engine.Error
	switch {
	case errors.As(err, &rej):
		rec.Rejection = &Rejection{Code: rej.Code, Msg: rej.Msg}
		if req.ActionID != "" && mg.exists {
			if err := m.putRecord(mg, rec); err != nil {
				return nil, err
			}
		}
		return rec, nil
	case err != nil:
		return nil, err
	}
	rec.Version, rec.Events = g.Public.Version, events
	pub, err := json.Marshal(&g.Public)
	if err != nil {
		return nil, err
	}
	sec, err := json.Marshal(&g.Secret)
	if err != nil {
		return nil, err
	}
	// Refuse what a database could not store exactly, as Firestore does.
	for _, b := range [][]byte{pub, sec} {
		if _, err := JSONToDoc(b); err != nil {
			return nil, err
		}
	}
	logs := make([][]byte, len(events))
	for i := range events {
		if events[i].Seq != uint64(len(mg.log)+i+1) {
			return nil, fmt.Errorf("store: event seq %d does not continue the log at %d", events[i].Seq, len(mg.log))
		}
		logs[i] = events[i].AppendJSON(nil)
	}
	if req.ActionID != "" {
		if err := m.putRecord(mg, rec); err != nil {
			return nil, err
		}
	}
	mg.exists, mg.public, mg.secret = true, pub, sec
	mg.log = append(mg.log, logs...)
	return rec, nil
}

func (m *Memory) putRecord(mg *memGame, rec *Record) error {
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	mg.actions[rec.ActionID] = b
	return nil
}

// replay decodes a stored record and checks it belongs to req.
func replay(raw []byte, req Request) (*Record, error) {
	var rec Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	if err := sameAction(&rec, req); err != nil {
		return nil, err
	}
	rec.Replayed = true
	return &rec, nil
}

// sameAction checks that a stored record was made by req's actor for the
// same action.
func sameAction(rec *Record, req Request) error {
	if rec.Actor != req.Actor || rec.Fingerprint != req.Fingerprint || rec.Kind != req.Kind {
		return fmt.Errorf("%w: %s", ErrActionIDReused, req.ActionID)
	}
	return nil
}

// Game implements Store.
func (m *Memory) Game(ctx context.Context, gameID string) (*engine.Public, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, gameID)
	}
	mg.mu.Lock()
	defer mg.mu.Unlock()
	if !mg.exists {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, gameID)
	}
	var p engine.Public
	if err := json.Unmarshal(mg.public, &p); err != nil {
		return nil, err
	}
	return &p, nil
}

func (m *Memory) lookup(id string) *memGame {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.games[id]
}

// Log implements Store.
func (m *Memory) Log(ctx context.Context, gameID string, after uint64, limit int) ([]engine.Event, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return []engine.Event{}, nil
	}
	mg.mu.Lock()
	defer mg.mu.Unlock()
	out := []engine.Event{}
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
func (m *Memory) Action(ctx context.Context, gameID, actionID string) (*Record, error) {
	mg := m.lookup(gameID)
	if mg == nil {
		return nil, fmt.Errorf("%w: %s/%s", ErrNotFound, gameID, actionID)
	}
	mg.mu.Lock()
	defer mg.mu.Unlock()
	raw, ok := mg.actions[actionID]
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
func (m *Memory) WriteAudit(ctx context.Context, gameID string, entries []rng.Entry) error {
	if !ValidID(gameID) {
		return fmt.Errorf("%w: game %q", ErrInvalid, gameID)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	mg := m.game(gameID)
	mg.mu.Lock()
	defer mg.mu.Unlock()
	for _, e := range LastAudit(entries) {
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		mg.audit[e.Seq%AuditRing] = b
	}
	return nil
}

// Audit implements Store.
func (m *Memory) Audit(ctx context.Context, gameID string) ([]rng.Entry, error) {
	out := []rng.Entry{}
	mg := m.lookup(gameID)
	if mg == nil {
		return out, nil
	}
	mg.mu.Lock()
	defer mg.mu.Unlock()
	for _, raw := range mg.audit {
		var e rng.Entry
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out, nil
}

// Close implements Store; the memory is dropped with the value.
func (m *Memory) Close() error { return nil }
