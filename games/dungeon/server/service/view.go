package service

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// MaxLogPage is the most log events one View returns.
const MaxLogPage = 1000

// View is what a player sees: the public state and the log after a seq.
// The game has no hidden information of a player's own (deck order and the
// generator are hidden from everyone), so every viewer sees the same.
type View struct {
	Public *engine.Public `json:"state"`
	Events []engine.Event `json:"events"`
	// More is true when more events follow the last one returned.
	More bool `json:"more"`
	// Reveals are the public markers of the open trustless round's
	// staged reveals (who revealed when, and what they signed; never a
	// link), in the order they were accepted: whom the round waits for.
	// Absent when no round is open.
	Reveals []store.Mark `json:"reveals,omitempty"`
}

// View returns the game's public state and up to MaxLogPage events with
// seq > after, for viewer: a seated player or the owner, or anyone while
// the game is in its lobby. It reads the game document, decides, and only then reads the
// log, so a caller who may not see the game costs one read. Errors:
// ErrInvalid (a *FieldError), store.ErrNotFound (no such game, or one the
// viewer may not see: the same answer), store.ErrUnavailable.
func (s *Service) View(ctx context.Context, viewer, gameID string, after uint64) (*View, error) {
	if p := idFormat(gameID, nil); p != "" {
		return nil, &FieldError{"gameId", p}
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	p, err := s.cfg.Store.Game(cctx, gameID)
	if err != nil {
		return nil, err
	}
	if !visible(p, viewer) {
		return nil, notFound(gameID)
	}
	session.Migrate(p)
	// A call on the game first settles what is due, and closes a round
	// every seat has revealed (the closer lost its answer, or crashed).
	var staged []engine.Action
	for try := 0; ; try++ {
		round, open := store.OpenRound(p)
		staged = nil
		if open {
			if staged, err = s.cfg.Store.Staged(cctx, gameID, round); err != nil {
				return nil, err
			}
		}
		g := engine.Game{Public: *p}
		if try == 2 || !s.due(&g, s.cfg.Now().UnixMilli()) && (!open || revealed(p)+len(staged) < len(p.Trustless.Seats)) {
			break
		}
		if _, err := s.settle(ctx, gameID); err != nil && !errors.Is(err, errNothingToSettle) {
			return nil, err
		}
		if p, err = s.cfg.Store.Game(cctx, gameID); err != nil {
			return nil, err
		}
		session.Migrate(p)
	}
	ev, err := s.cfg.Store.Log(cctx, gameID, after, MaxLogPage+1)
	if err != nil {
		return nil, err
	}
	// The log may have grown after the state was read: keep them in step.
	for len(ev) > 0 && ev[len(ev)-1].Seq > p.LogSeq {
		ev = ev[:len(ev)-1]
	}
	v := &View{Public: p, Events: ev}
	if _, open := store.OpenRound(p); open {
		v.Reveals = marks(staged)
	}
	if len(ev) > MaxLogPage {
		v.Events, v.More = ev[:MaxLogPage], true
	}
	return v, nil
}

// Holds reports whether the store holds a dungeon game gameID, whoever
// may see it: the functions ask it before they make a table of another
// game at that id in a store of their own. Errors: the store's
// ErrUnavailable; a malformed id holds no game.
func (s *Service) Holds(ctx context.Context, gameID string) (bool, error) {
	if idFormat(gameID, nil) != "" {
		return false, nil
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	_, err := s.cfg.Store.Game(cctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}
