package table

import (
	"sync"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// Memory is an in-memory store of tables keyed by game id, safe for
// concurrent use: one mutex serialises every request, so of two actions
// sent at the same version exactly one is applied and the other gets
// stale_version (or its own refusal). It keeps nothing across restarts.
type Memory struct {
	mu     sync.Mutex
	tables map[string]*Table
	// actedAt is each unfinished table's last applied action's time
	// (idle.go).
	actedAt map[string]int64
	// backfill is where BackfillActed goes on from (backfill.go).
	backfill struct {
		after string
		done  bool
	}
}

// NewMemory returns an empty store.
func NewMemory() *Memory { return &Memory{tables: map[string]*Table{}} }

// Create makes the table gameID (1-128 characters of [A-Za-z0-9_-], or
// bad_game_id; req.GameID is set to it). On a game id that exists, the request that created it
// gets its stored result again (Replayed), the same actor and action id
// with other content action_id_reused, any other already_created; else
// Create's refusals.
func (s *Memory) Create(gameID string, def game.Definition, req CreateRequest) (*Result, error) {
	if !ValidID(gameID) {
		return nil, reject(CodeBadGameID, "a game id is 1-128 characters of [A-Za-z0-9_-]")
	}
	req.GameID = gameID
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[gameID]; ok {
		return t.Retry(def, req)
	}
	t, res, err := Create(def, req)
	if err != nil {
		return nil, err
	}
	s.tables[gameID] = t
	s.acted(gameID, t, req.At)
	return res, nil
}

// Do applies a to the table gameID (Table.Do); not_created if there is
// none.
func (s *Memory) Do(gameID string, a Action) (*Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[gameID]
	if !ok {
		return nil, reject(CodeNotCreated, "no game "+gameID)
	}
	res, err := t.Do(a)
	if err == nil && !res.Replayed {
		s.acted(gameID, t, a.At)
	}
	return res, err
}

// View returns what uid may see of the table gameID (Table.View);
// not_created if there is none.
func (s *Memory) View(gameID, uid string) (*View, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[gameID]
	if !ok {
		return nil, reject(CodeNotCreated, "no game "+gameID)
	}
	return t.View(uid), nil
}

// StateBytes returns the table gameID's Table.StateBytes (its game's
// every part: for the server only, never a reader); not_created if there
// is none.
func (s *Memory) StateBytes(gameID string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[gameID]
	if !ok {
		return nil, reject(CodeNotCreated, "no game "+gameID)
	}
	return t.StateBytes(), nil
}

// Record returns the table gameID's game record for uid (Table.Record);
// not_created if there is none.
func (s *Memory) Record(gameID, uid string) (*match.Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[gameID]
	if !ok {
		return nil, reject(CodeNotCreated, "no game "+gameID)
	}
	return t.Record(uid)
}
