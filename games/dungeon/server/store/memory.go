package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
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
