// Package lobby keeps each game's listing: who may find and watch it
// (its visibility and whether it is open to spectators), what the
// lobby shows of it while it waits for players (the game, its owner's
// name, its seats taken and free, its mode, when it was made), and, for
// a rematch, the game it follows and the seat kept for each of its
// players (docs/functions.md, "Open games, spectators and rematches").
//
// A listing lives beside its game, never in it: the games' own stores
// write their game documents whole, so a field of the listing there
// would be wiped or make the next move contend, and the engine, the
// export and its verification know nothing of listings. [Memory] keeps
// them in memory, lobby/fslobby on Firestore.
package lobby

import (
	"context"
	"errors"
	"slices"
)

// Visibility is who may find a game: [Link] (the default: those given
// its id) or [Public] (also listed in the lobby while it waits for
// players).
type Visibility string

const (
	Link   Visibility = "link"
	Public Visibility = "public"
)

// The phases a listing records (the dungeon's and the tables' alike).
const (
	PhaseLobby    = "lobby"
	PhasePlaying  = "playing"
	PhaseFinished = "finished"
)

// MaxOpen is the most listings Open returns.
const MaxOpen = 50

// Listing is one game's entry. Seats is the game's seat count, Taken
// the seats taken (0 to Seats); CreatedAt the create's time in unix ms.
// Reserved (a rematch's) holds, by seat, the uid that alone may take
// the seat ("" for a seat anyone may take), or is nil.
type Listing struct {
	GameID     string     `json:"gameId" firestore:"gameId"`
	Game       string     `json:"game" firestore:"game"`
	Owner      string     `json:"ownerUid" firestore:"ownerUid"`
	OwnerName  string     `json:"ownerName" firestore:"ownerName"`
	Mode       string     `json:"mode" firestore:"mode"`
	Visibility Visibility `json:"visibility" firestore:"visibility"`
	Spectators bool       `json:"spectators" firestore:"spectators"`
	Seats      int        `json:"seats" firestore:"seats"`
	Taken      int        `json:"taken" firestore:"taken"`
	Phase      string     `json:"phase" firestore:"phase"`
	CreatedAt  int64      `json:"createdAt" firestore:"createdAt"`
	RematchOf  string     `json:"rematchOf,omitempty" firestore:"rematchOf,omitempty"`
	Reserved   []string   `json:"-" firestore:"reserved,omitempty"`
}

// Listed reports whether l is shown in the lobby: public, in its lobby,
// with a free seat.
func (l *Listing) Listed() bool {
	return l.Visibility == Public && l.Phase == PhaseLobby && l.Taken < l.Seats
}

// Watchable reports whether a signed-in user who is not in the game may
// read its public view: a game open to spectators, or a public one
// (public implies spectators).
func (l *Listing) Watchable() bool {
	return l != nil && (l.Spectators || l.Visibility == Public)
}

// ErrUnavailable is a store's answer when its database could not be
// reached; the caller may retry.
var ErrUnavailable = errors.New("lobby: unavailable")

// Store keeps the listings by game id. Implementations are safe for
// concurrent use.
type Store interface {
	// Put stores l whole as its game's listing.
	Put(ctx context.Context, l Listing) error
	// Get returns gameID's listing, or nil (no error) if it has none.
	Get(ctx context.Context, gameID string) (*Listing, error)
	// Open returns up to limit (1 to MaxOpen; other values MaxOpen)
	// listed games (Listing.Listed), newest first (CreatedAt, then
	// GameID descending).
	Open(ctx context.Context, limit int) ([]Listing, error)
	// Rename sets OwnerName to name in every listed game (Listing.Listed)
	// whose Owner is owner, so that the lobby names an owner who renamed
	// by the new name; it returns how many it changed.
	Rename(ctx context.Context, owner, name string) (int, error)
}

// Memory is the in-memory Store.
type Memory struct {
	ch chan map[string]Listing // holds the map: a one-slot lock
}

// NewMemory returns an empty Memory.
func NewMemory() *Memory {
	m := &Memory{ch: make(chan map[string]Listing, 1)}
	m.ch <- map[string]Listing{}
	return m
}

// Put implements Store.
func (m *Memory) Put(_ context.Context, l Listing) error {
	all := <-m.ch
	l.Reserved = slices.Clone(l.Reserved)
	all[l.GameID] = l
	m.ch <- all
	return nil
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, gameID string) (*Listing, error) {
	all := <-m.ch
	l, ok := all[gameID]
	m.ch <- all
	if !ok {
		return nil, nil
	}
	l.Reserved = slices.Clone(l.Reserved)
	return &l, nil
}

// Open implements Store.
func (m *Memory) Open(_ context.Context, limit int) ([]Listing, error) {
	all := <-m.ch
	var out []Listing
	for _, l := range all {
		if l.Listed() {
			out = append(out, l)
		}
	}
	m.ch <- all
	SortNewest(out)
	return out[:min(len(out), Limit(limit))], nil
}

// Rename implements Store.
func (m *Memory) Rename(_ context.Context, owner, name string) (int, error) {
	all := <-m.ch
	n := 0
	for id, l := range all {
		if l.Owner == owner && l.Listed() && l.OwnerName != name {
			l.OwnerName = name
			all[id] = l
			n++
		}
	}
	m.ch <- all
	return n, nil
}

// Limit is limit if it is 1 to MaxOpen, else MaxOpen.
func Limit(limit int) int {
	if limit < 1 || limit > MaxOpen {
		return MaxOpen
	}
	return limit
}

// SortNewest sorts ls newest first: CreatedAt, then GameID, descending.
func SortNewest(ls []Listing) {
	slices.SortFunc(ls, func(a, b Listing) int {
		switch {
		case a.CreatedAt != b.CreatedAt:
			if a.CreatedAt > b.CreatedAt {
				return -1
			}
			return 1
		case a.GameID > b.GameID:
			return -1
		case a.GameID < b.GameID:
			return 1
		}
		return 0
	})
}
