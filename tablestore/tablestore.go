// Package tablestore keeps tables (package table) for the Cloud
// Functions: a Store creates a table, applies an action to it atomically
// by its game id, and reads a caller's view and the public part. Memory
// is the in-memory Store; package tablestore/fstables is the Firestore
// one.
//
// It is machinery: it imports no game. A Store finds a table's game by
// name through the Lookup its caller passes (cmd/gamectl and
// deploy pass games/registry.Lookup).
package tablestore

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// Lookup returns the game definition called name, or an error that names
// the known games (games/registry.Lookup).
type Lookup func(name string) (game.Definition, error)

// ErrUnknownGame is wrapped by Create's error for a game name Lookup does
// not know; the error's text is Lookup's, which names the known games.
var ErrUnknownGame = errors.New("unknown game")

// ErrUnavailable is wrapped by a persistent store's errors when its
// database does not answer (the caller may retry with the same action
// id); ErrContention when an action lost to others on the same table more
// times than the store retries.
var (
	ErrUnavailable = errors.New("table store unavailable")
	ErrContention  = errors.New("table busy")
)

// Store keeps tables by game id (1-128 characters of [A-Za-z0-9_-]). Its
// refusals are *table.Error values (table.Codes); its own failures wrap
// ErrUnavailable or ErrContention, or are internal.
type Store interface {
	// Create makes the table gameID of the game called name: a table's
	// refusals (table.Create), bad_game_id, ErrUnknownGame. On a game id
	// that exists, the request that created it gets its stored result
	// again (Replayed), the same actor and action id with other content
	// action_id_reused, and anything else (another request, a game id
	// another kind of game holds) already_created.
	Create(ctx context.Context, gameID, name string, req table.CreateRequest) (*table.Result, error)
	// Do applies a to the table gameID atomically (table.Table.Do): a
	// refused action writes nothing; not_created if there is no table.
	Do(ctx context.Context, gameID string, a table.Action) (*table.Result, error)
	// View returns what uid may see of the table gameID
	// (table.Table.View), and the table's definition; not_created if
	// there is none.
	View(ctx context.Context, gameID, uid string) (*table.View, game.Definition, error)
	// Game returns the name of the game the table gameID plays;
	// not_created if gameID is no table.
	Game(ctx context.Context, gameID string) (string, error)
	// Def returns the definition of the game called name (the store's
	// Lookup, no I/O): ErrUnknownGame for a name it does not know.
	Def(name string) (game.Definition, error)
	// Record returns the finished table gameID's game record for uid, a
	// seated player or the owner (table.Table.Record): not_created for
	// anyone else or no table, not_finished before the game's end.
	Record(ctx context.Context, gameID, uid string) (*match.Record, error)
	// Due returns the ids of the tables whose due time
	// (table.Table.DueAt: a trustless round's deadline) is not after
	// before (unix ms), earliest first, at most limit (limit <= 0: every
	// one): the tables a sweep aborts (functions' sweep). It reads only
	// those tables' entries (fstables: one indexed query), never every
	// table.
	Due(ctx context.Context, before int64, limit int) ([]string, error)
	// Idle returns the tables in phase (table.PhaseLobby or
	// table.PhasePlaying) whose last applied action (its Action.At, or
	// the create's CreateRequest.At) was at or before before (unix ms),
	// earliest first, at most limit (limit <= 0: every one), each with
	// its version then: the tables the sweep ends as idle. A table whose
	// last action carried no time is not found. It reads only those
	// tables' entries (fstables: one indexed query), never every table.
	Idle(ctx context.Context, phase table.Phase, before int64, limit int) ([]table.IdleTable, error)
	// BackfillActed is one step of the backfill of Idle's clock
	// (table.ActedBackfill; docs/functions.md, "The sweep"): it looks at
	// the next limit tables (limit >= 1) in game-id order after those its
	// last step looked at, remembered by the store, and stamps each one
	// that is unfinished and has no time of its last action (written
	// before the store kept it) with the best time the store holds of
	// its last write (fstables: its public document's update time; the
	// memory: now, unix ms > 0), never over a time an action wrote
	// meanwhile. Once it has looked at every table it is Done, and every
	// later step reads one document at most. Errors: limit < 1 or now <=
	// 0 (nothing done), or the store's.
	BackfillActed(ctx context.Context, now int64, limit int) (table.ActedBackfill, error)
}

// After is what a reader already holds of a table: Seq, the last log
// seq it read (0: none); Moves, at a trustless table, how many applied
// moves it has checked from the first (0: none; its client checks the
// protocol from that checkpoint on, match.TrustlessFollower.UpdateAfter).
type After struct {
	Seq   uint64
	Moves int
}

// ViewerAfter is a Store that may leave out of a view what a reader
// already holds: ViewAfter is View whose Log holds at least every event
// after after.Seq (those before it may be missing) and whose trustless
// protocol holds at least every applied move after the first after.Moves
// (table.TrustlessView.MovesBase says where its moves start). A store
// whose View reads more for older events or moves implements it
// (fstables: a view after a recent seq, and after a trustless table's
// sealed moves, reads the head alone).
type ViewerAfter interface {
	ViewAfter(ctx context.Context, gameID, uid string, after After) (*table.View, game.Definition, error)
}

// ViewAfter returns s's view of gameID for uid whose log holds at least
// every event after after.Seq (s.ViewAfter if s is a ViewerAfter, else
// s.View), its trustless moves cut to those after after.Moves (at most
// the moves played: table.TrustlessView.After), so that every store
// answers a trustless reader with the same moves.
func ViewAfter(ctx context.Context, s Store, gameID, uid string, after After) (*table.View, game.Definition, error) {
	var v *table.View
	var def game.Definition
	var err error
	if va, ok := s.(ViewerAfter); ok {
		v, def, err = va.ViewAfter(ctx, gameID, uid, after)
	} else {
		v, def, err = s.View(ctx, gameID, uid)
	}
	if err == nil && v.Trustless != nil {
		v.Trustless.After(after.Moves)
	}
	return v, def, err
}

// Memory is the in-memory Store (over table.Memory): every request is
// serialised by one mutex, nothing survives a restart.
type Memory struct {
	mem    *table.Memory
	lookup Lookup
}

// NewMemory returns an empty in-memory Store finding games with lookup.
func NewMemory(lookup Lookup) *Memory {
	if lookup == nil {
		panic("tablestore.NewMemory: a lookup is required")
	}
	return &Memory{mem: table.NewMemory(), lookup: lookup}
}

// Def looks name up; an unknown name is an error that is ErrUnknownGame
// (errors.Is) with lookup's text, which names the known games.
func Def(lookup Lookup, name string) (game.Definition, error) {
	def, err := lookup(name)
	if err != nil {
		return nil, unknownGame{err}
	}
	return def, nil
}

// unknownGame is Lookup's error, which names the known games, as an
// ErrUnknownGame.
type unknownGame struct{ err error }

func (e unknownGame) Error() string        { return e.err.Error() }
func (e unknownGame) Is(target error) bool { return target == ErrUnknownGame }
func (e unknownGame) Unwrap() error        { return e.err }

// Create implements Store.
func (m *Memory) Create(_ context.Context, gameID, name string, req table.CreateRequest) (*table.Result, error) {
	def, err := Def(m.lookup, name)
	if err != nil {
		return nil, err
	}
	return m.mem.Create(gameID, def, req)
}

// Do implements Store.
func (m *Memory) Do(_ context.Context, gameID string, a table.Action) (*table.Result, error) {
	return m.mem.Do(gameID, a)
}

// View implements Store.
func (m *Memory) View(_ context.Context, gameID, uid string) (*table.View, game.Definition, error) {
	v, err := m.mem.View(gameID, uid)
	if err != nil {
		return nil, nil, err
	}
	def, err := Def(m.lookup, v.Game)
	if err != nil {
		return nil, nil, err
	}
	return v, def, nil
}

// Def implements Store.
func (m *Memory) Def(name string) (game.Definition, error) { return Def(m.lookup, name) }

// Game implements Store.
func (m *Memory) Game(_ context.Context, gameID string) (string, error) {
	v, err := m.mem.View(gameID, "")
	if err != nil {
		return "", err
	}
	return v.Game, nil
}

// Due implements Store.
func (m *Memory) Due(_ context.Context, before int64, limit int) ([]string, error) {
	return m.mem.Due(before, limit), nil
}

// Record implements Store.
func (m *Memory) Record(_ context.Context, gameID, uid string) (*match.Record, error) {
	return m.mem.Record(gameID, uid)
}
