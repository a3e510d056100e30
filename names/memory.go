package names

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// Memory is a [Store] in process: for gamectl serve's in-memory store and
// tests.
type Memory struct {
	mu    sync.Mutex
	users map[string]*user
	games map[string]map[string]string
}

type user struct {
	name  string
	games map[string]bool
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	return &Memory{users: map[string]*user{}, games: map[string]map[string]string{}}
}

func (m *Memory) user(uid string) *user {
	u := m.users[uid]
	if u == nil {
		u = &user{games: map[string]bool{}}
		m.users[uid] = u
	}
	return u
}

// Name implements Store.
func (m *Memory) Name(_ context.Context, uid string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u := m.users[uid]; u != nil {
		return u.name, nil
	}
	return "", nil
}

// SetName implements Store.
func (m *Memory) SetName(_ context.Context, uid, name string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u := m.user(uid)
	u.name = name
	return slices.Sorted(maps.Keys(u.games)), nil
}

// Seat implements Store.
func (m *Memory) Seat(_ context.Context, gameID, uid, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.games[gameID]
	if g == nil {
		g = map[string]string{}
		m.games[gameID] = g
	}
	g[uid] = name
	m.user(uid).games[gameID] = true
	return nil
}

// Drop implements Store.
func (m *Memory) Drop(_ context.Context, uid, gameID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u := m.users[uid]; u != nil {
		delete(u.games, gameID)
	}
	return nil
}

// Names implements Store.
func (m *Memory) Names(_ context.Context, gameID string) (map[string]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := maps.Clone(m.games[gameID])
	if out == nil {
		out = map[string]string{}
	}
	return out, nil
}
