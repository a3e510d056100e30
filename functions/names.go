package functions

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// Players' names (docs/functions.md, "Names"): setName and getName, the
// copy of the caller's name into a game it joins, and the names in
// getView's answers.

// SetNameRequest is setName's data: the caller's display name, checked
// by names.Check (trimmed; 1 to 32 characters; no control, formatting or
// invisible characters, no '<' or '>').
type SetNameRequest struct {
	Name string `json:"name"`
}

// GetNameRequest is getName's data: nothing.
type GetNameRequest struct{}

// NameResult is the answer of setName and getName: the caller's name,
// whether the caller chose it (false: the default, names.Default), and,
// from setName, the games whose copy of it was updated (the games the
// caller is seated in that are not over).
type NameResult struct {
	Name    string   `json:"name"`
	Chosen  bool     `json:"chosen"`
	Updated []string `json:"updated,omitempty"`
}

// WithNames keeps the players' names in ns (names/fsnames on Firestore);
// without it the API keeps them in memory (names.NewMemory), which is
// right for one process only. It returns a.
func (a *API) WithNames(ns names.Store) *API {
	a.names = ns
	return a
}

type guestKey struct{}

// withGuest notes in ctx whether the caller's token is an anonymous
// account's (Firebase's firebase.sign_in_provider claim "anonymous").
func withGuest(ctx context.Context, t *callable.Token) context.Context {
	guest := false
	if t != nil {
		if fb, ok := t.Claims["firebase"].(map[string]any); ok {
			guest = fb["sign_in_provider"] == "anonymous"
		}
	}
	return context.WithValue(ctx, guestKey{}, guest)
}

func isGuest(ctx context.Context) bool {
	g, _ := ctx.Value(guestKey{}).(bool)
	return g
}

// nameOf is uid's name: the one it chose, else its default.
func (a *API) nameOf(ctx context.Context, uid string) (name string, chosen bool, err error) {
	name, err = a.names.Name(ctx, uid)
	if err != nil {
		return "", false, nameErr(err)
	}
	if name == "" {
		return names.Default(uid, isGuest(ctx)), false, nil
	}
	return name, true, nil
}

// nameErr maps a name store's failure to the client's answer.
func nameErr(err error) error {
	if errors.Is(err, names.ErrUnavailable) {
		return callable.Errorf(callable.StatusUnavailable, "the names could not be reached; retry")
	}
	return err
}

// GetName answers the caller's name: data {} ([GetNameRequest]), result
// [NameResult].
func (a *API) GetName(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "getName", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q GetNameRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		name, chosen, err := a.nameOf(ctx, uid)
		if err != nil {
			return nil, err
		}
		return &NameResult{Name: name, Chosen: chosen}, nil
	})
}

// SetName stores the caller's display name and copies it into every game
// the caller is seated in that is not over and into the listings of the
// listed games the caller owns: data [SetNameRequest], result
// [NameResult]. A name names.Check refuses is INVALID_ARGUMENT
// (details.code "invalid_name"), its message naming what is wrong.
func (a *API) SetName(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "setName", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q SetNameRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		name, err := names.Check(q.Name)
		if err != nil {
			return nil, fieldErr("name", err.Error())
		}
		games, err := a.names.SetName(ctx, uid, name)
		if err != nil {
			return nil, nameErr(err)
		}
		// The lobby names the owner of a listed game by the new name.
		if _, err := a.lobby.Rename(ctx, uid, name); err != nil {
			return nil, lobbyErr(err)
		}
		res := &NameResult{Name: name, Chosen: true}
		for _, id := range games {
			over, err := a.gameOver(ctx, uid, id)
			if err != nil {
				return nil, err
			}
			if over {
				err = a.names.Drop(ctx, uid, id)
			} else {
				err = a.names.Seat(ctx, id, uid, name)
				res.Updated = append(res.Updated, id)
			}
			if err != nil {
				return nil, nameErr(err)
			}
		}
		return res, nil
	})
}

// gameOver tells whether the game id is over for uid: finished, or no
// longer one uid may see (a table seat it left, a game gone).
func (a *API) gameOver(ctx context.Context, uid, id string) (bool, error) {
	name, err := a.tableOf(ctx, json.RawMessage(`{"gameId":`+quote(id)+`}`))
	if err != nil {
		return false, err
	}
	if name != "" { // a table
		v, _, err := tablestore.ViewAfter(ctx, a.tables, id, uid, noLogNorMoves) // no log read, no trustless move
		if errors.Is(err, table.CodeNotCreated) {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		return v.Phase == table.PhaseFinished || v.Seat == table.NoSeat, nil
	}
	g, err := a.dungeon.Game(ctx, uid, id)
	if a.isNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return g.Phase == lobby.PhaseFinished || !slices.Contains(g.Players, uid), nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// seatName copies uid's name into the game it just joined. A failure is
// UNAVAILABLE: the join stands, and its retry with the same actionId
// (answered as the first time) copies the name again.
func (a *API) seatName(ctx context.Context, gameID, uid string) error {
	name, _, err := a.nameOf(ctx, uid)
	if err == nil {
		err = a.names.Seat(ctx, gameID, uid, name)
	}
	if err != nil {
		a.log.Warn("join: the name was not copied into the game", "game", gameID, "uid", uid, "err", err)
		return callable.Errorf(callable.StatusUnavailable, "you are seated, but your name could not be copied into the game; retry with the same actionId")
	}
	return nil
}

// gameNames reads the names copied into a game, for getView.
func (a *API) gameNames(ctx context.Context, gameID string) (map[string]string, error) {
	m, err := a.names.Names(ctx, gameID)
	if err != nil {
		return nil, nameErr(err)
	}
	return m, nil
}
