package store

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/engine"
)

// Memory is a Store in process memory, for the embedded development server
// and fast tests. Every game is kept as JSON (as a database would keep
// it), so no value is shared with callers. Actions on one game are
// serialized by a per-game lock, so Apply never contends and calls the
// Mutator at most once.
//
// Only games that exist take memory: an Apply on an unknown id holds a
// placeholder while it runs and drops it unless the action created the
// game, and reads never add anything, so probing ids leaves nothing behind.
type Memory struct {
	mu    sync.Mutex
	games map[string]*memGame // existing games, and placeholders in use
}

type memGame struct {
	refs int // Apply calls holding it (guarded by Memory.mu)

	mu      sync.Mutex
	exists  bool
	public  []byte
	secret  []byte
	log     [][]byte          // index i holds seq i+1
	applied [][]byte          // AppliedAction JSON, in version order
	actions map[string][]byte // by RecordKey
	audit   *audit.Ring
	// staged holds the open round's staged reveals (engine.Action JSON),
	// by index then seat; a round's entry goes when it is applied.
	staged map[uint32]map[int][]byte
	due    int64 // Outcome.DueAt of the last commit
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{games: map[string]*memGame{}} }

// Games returns how many game entries the store holds (existing games and
// placeholders of Apply calls in progress).
func (m *Memory) Games() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.games)
}

// acquire returns the entry for id, creating a placeholder; release it.
func (m *Memory) acquire(id string) *memGame {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[id]
	if g == nil {
		g = &memGame{actions: map[string][]byte{}, audit: audit.NewRing(audit.RingSize), staged: map[uint32]map[int][]byte{}}
		m.games[id] = g
	}
	g.refs++
	return g
}

// release drops a placeholder that no call holds and no action created.
// (exists only changes under g.mu while a reference is held, so with
// refs at 0 nobody else can be changing it.)
func (m *Memory) release(id string, g *memGame) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g.refs--
	if g.refs == 0 && !g.exists {
		delete(m.games, id)
	}
}

// lookup returns the entry of an existing game, locked, or nil.
func (m *Memory) lookup(id string) *memGame {
	m.mu.Lock()
	g := m.games[id]
	m.mu.Unlock()
	if g == nil {
		return nil
	}
	g.mu.Lock()
	if !g.exists {
		g.mu.Unlock()
		return nil
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
	mg := m.acquire(req.GameID)
	defer m.release(req.GameID, mg)
	mg.mu.Lock()
	defer mg.mu.Unlock()
	key := ""
	if req.ActionID != "" {
		key = RecordKey(req.Actor, req.ActionID)
		if raw, ok := mg.actions[key]; ok {
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
	before := g.Public.Version
	round, open := OpenRound(&g.Public)
	var staged []engine.Action
	if mg.exists && open {
		var err error
		if staged, err = mg.stagedOf(round); err != nil {
			return nil, err
		}
	}
	out, err := fn(&g, staged)
	rec := &Record{ActionID: req.ActionID, Actor: req.Actor, Kind: req.Kind, Fingerprint: req.Fingerprint}
	var rej *engine.Error
	var unrec *Unrecorded
	switch {
	case errors.As(err, &unrec):
		rec.Rejection, rec.Events = &Rejection{Code: unrec.Rejection.Code, Msg: unrec.Rejection.Msg}, []engine.Event{}
		return rec, nil
	case errors.As(err, &rej):
		rec.Rejection, rec.Events = &Rejection{Code: rej.Code, Msg: rej.Msg}, []engine.Event{}
		if key != "" && mg.exists {
			if err := putRecord(mg, key, rec); err != nil {
				return nil, err
			}
		}
		return rec, nil
	case err != nil:
		return nil, err
	case out.Stage != nil:
		rec, err := m.stage(mg, key, rec, before, out.Stage)
		if err == nil && req.Close != nil {
			rec.Closed, rec.CloseErr = mg.closeRound(out.Stage.Index, req.Close)
		}
		return rec, err
	}
	if err := mg.commit(&g, out, key, rec, before, round); err != nil {
		return nil, err
	}
	return rec, nil
}

// closeRound runs close (Request.Close) after a staging in round index:
// on a fresh copy of the game, with the round's staged reveals; an
// outcome that applies something is committed. mg is locked and exists.
// It returns whether it committed, or the error of a commit it could not
// make (a rejection or another error of close writes nothing: nil).
func (mg *memGame) closeRound(index uint32, close Mutator) (bool, error) {
	var g engine.Game
	if err := json.Unmarshal(mg.public, &g.Public); err != nil {
		return false, err
	}
	if err := json.Unmarshal(mg.secret, &g.Secret); err != nil {
		return false, err
	}
	if r, ok := OpenRound(&g.Public); !ok || r != index {
		return false, nil
	}
	staged, err := mg.stagedOf(index)
	if err != nil {
		return false, err
	}
	before := g.Public.Version
	out, err := close(&g, staged)
	if err != nil || out.Stage != nil {
		return false, nil
	}
	if err := mg.commit(&g, out, "", &Record{}, before, index); err != nil {
		return false, err
	}
	return true, nil
}

// commit writes the outcome out of an action applied to g (the stored
// game at version before, whose open round was round), with its record
// rec under key ("" for none): mg is locked.
func (mg *memGame) commit(g *engine.Game, out Outcome, key string, rec *Record, before uint64, round uint32) error {
	var applied [][]byte
	for i := range out.Applied {
		b, err := json.Marshal(AppliedAction{Version: before + uint64(i), Action: out.Applied[i]})
		if err != nil {
			return err
		}
		applied = append(applied, b)
	}
	rec.Version, rec.Events, rec.Audit = g.Public.Version, out.Events, out.Audit
	rec.Ringed = len(out.Audit) > 0
	ring := make([]audit.Entry, len(out.Audit)) // as a database would keep them
	for i, e := range out.Audit {
		if err := jsonCopy(e, &ring[i]); err != nil {
			return fmt.Errorf("%w: audit entry %d: %v", ErrInvalid, e.Seq, err)
		}
	}
	pub, err := json.Marshal(&g.Public)
	if err != nil {
		return err
	}
	sec, err := json.Marshal(&g.Secret)
	if err != nil {
		return err
	}
	// Refuse what a database could not store exactly, as Firestore does.
	for _, b := range append([][]byte{pub, sec}, applied...) {
		if err := checkStorable(b); err != nil {
			return err
		}
	}
	logs := make([][]byte, len(out.Events))
	for i := range out.Events {
		if out.Events[i].Seq != uint64(len(mg.log)+i+1) {
			return fmt.Errorf("store: event seq %d does not continue the log at %d", out.Events[i].Seq, len(mg.log))
		}
		logs[i] = out.Events[i].AppendJSON(nil)
	}
	if key != "" {
		if err := putRecord(mg, key, rec); err != nil {
			return err
		}
	}
	mg.exists, mg.public, mg.secret = true, pub, sec
	mg.log = append(mg.log, logs...)
	for _, e := range ring {
		mg.audit.Put(e)
	}
	mg.applied = append(mg.applied, applied...)
	mg.due = out.DueAt
	// A round the action closed (or aborted) keeps no staged reveal: they
	// were applied, or never will be.
	if r, ok := OpenRound(&g.Public); !ok || r != round {
		delete(mg.staged, round)
	}
	return nil
}

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

// stagedOf decodes the reveals staged for index, in the order they were
// accepted.
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
