package functions

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// Open games and spectators (docs/functions.md, "Open games, spectators
// and rematches"): the listing a create writes, listOpenGames, and the
// spectators' reads.

// WithLobby keeps the games' listings in ls (lobby/fslobby on
// Firestore); without it the API keeps them in memory (lobby.NewMemory),
// which is right for one process only. It returns a.
func (a *API) WithLobby(ls lobby.Store) *API {
	a.lobby = ls
	return a
}

// ListOpenGamesRequest is listOpenGames' data: Limit, 0 (the default:
// lobby.MaxOpen) to lobby.MaxOpen.
type ListOpenGamesRequest struct {
	Limit int `json:"limit,omitempty"`
}

// OpenGame is one game of listOpenGames' answer: what the lobby shows
// of a public game waiting for players, all of it public by the owner's
// choice at create.
type OpenGame struct {
	GameID     string `json:"gameId"`
	Game       string `json:"game"`
	OwnerName  string `json:"ownerName"`
	Mode       string `json:"mode"`
	Seats      int    `json:"seats"`
	Taken      int    `json:"taken"`
	Spectators bool   `json:"spectators"`
	CreatedAt  int64  `json:"createdAt"`
}

// OpenGames is listOpenGames' answer, newest first.
type OpenGames struct {
	Games []OpenGame `json:"games"`
}

// ListOpenGames answers the public games waiting for players, newest
// first, at most data.limit (1 to lobby.MaxOpen, MaxOpen by default) to
// any signed-in caller: data [ListOpenGamesRequest], result [OpenGames].
// It reads the listings only (one query), never a game.
func (a *API) ListOpenGames(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "listOpenGames", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q ListOpenGamesRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		if q.Limit < 0 || q.Limit > lobby.MaxOpen {
			return nil, fieldErr("limit", "must be 0 (the default) to 50")
		}
		ls, err := a.lobby.Open(ctx, q.Limit)
		if err != nil {
			return nil, lobbyErr(err)
		}
		out := &OpenGames{Games: []OpenGame{}}
		for _, l := range ls {
			out.Games = append(out.Games, OpenGame{GameID: l.GameID, Game: l.Game, OwnerName: l.OwnerName, Mode: l.Mode,
				Seats: l.Seats, Taken: l.Taken, Spectators: l.Watchable(), CreatedAt: l.CreatedAt})
		}
		return out, nil
	})
}

// lobbyErr maps a listing store's failure to the client's answer.
func lobbyErr(err error) error {
	if errors.Is(err, lobby.ErrUnavailable) {
		return callable.Errorf(callable.StatusUnavailable, "the list of games could not be reached; retry")
	}
	return err
}

// checkVisibility checks a create's visibility: "" (link), "link" or
// "public".
func checkVisibility(v string) error {
	switch lobby.Visibility(v) {
	case "", lobby.Link, lobby.Public:
		return nil
	}
	return fieldErr("visibility", `must be "link" (the default) or "public"`)
}

// list writes the listing of a game just created when it is public or
// open to spectators (a game by link only needs none). A failure is
// UNAVAILABLE: the game stands, and the same create again (its retry,
// answered as the first time) writes the listing.
func (a *API) list(ctx context.Context, uid, gameID, name, mode, visibility string, spectators bool, seats int) error {
	if visibility != string(lobby.Public) && !spectators {
		return nil
	}
	owner, _, err := a.nameOf(ctx, uid)
	if err != nil {
		return err
	}
	err = a.lobby.Put(ctx, lobby.Listing{GameID: gameID, Game: name, Owner: uid, OwnerName: owner, Mode: mode,
		Visibility: lobby.Visibility(visibility), Spectators: spectators, Seats: seats, Phase: lobby.PhaseLobby,
		CreatedAt: time.Now().UnixMilli()})
	if err != nil {
		a.log.Warn("create: the game was not listed", "game", gameID, "err", err)
		return callable.Errorf(callable.StatusUnavailable, "the game is made, but it could not be listed; retry with the same actionId")
	}
	return nil
}

// listing returns gameID's listing (nil if it has none).
func (a *API) listing(ctx context.Context, gameID string) (*lobby.Listing, error) {
	l, err := a.lobby.Get(ctx, gameID)
	if err != nil {
		return nil, lobbyErr(err)
	}
	return l, nil
}

// relist brings gameID's listing (if it has one) in step with its game
// after a join, a start or a table's leave, removal or abandon: its
// seats taken and its phase. It never fails the action that called it: a
// listing left behind is logged, and the next such action mends it.
func (a *API) relist(ctx context.Context, gameID string) {
	l, err := a.lobby.Get(ctx, gameID)
	if err != nil || l == nil {
		if err != nil {
			a.log.Warn("relist: the listing could not be read", "game", gameID, "err", err)
		}
		return
	}
	taken, phase := 0, lobby.PhasePlaying
	if l.Game == DungeonGame {
		g, err := a.dungeon.Game(ctx, l.Owner, gameID)
		if err != nil {
			a.log.Warn("relist: the game could not be read", "game", gameID, "err", err)
			return
		}
		taken, phase = len(g.Players), g.Phase
	} else {
		v, _, err := tablestore.ViewAfter(ctx, a.tables, gameID, "", noLogNorMoves) // no log read, no trustless move
		if err != nil {
			a.log.Warn("relist: the table could not be read", "game", gameID, "err", err)
			return
		}
		for _, s := range v.Seats {
			if s.UID != "" {
				taken++
			}
		}
		phase = string(v.Phase)
	}
	if taken == l.Taken && phase == l.Phase {
		return
	}
	l.Taken, l.Phase = taken, phase
	if err := a.lobby.Put(ctx, *l); err != nil {
		a.log.Warn("relist: the listing was not written", "game", gameID, "err", err)
	}
}

// reserved refuses uid's join at seat when the game is a rematch that
// keeps the seat for another of its players (PERMISSION_DENIED,
// details.code "seat_reserved").
func (a *API) reserved(ctx context.Context, gameID, uid string, seat int) error {
	l, err := a.listing(ctx, gameID)
	if err != nil || l == nil {
		return err
	}
	if seat >= 0 && seat < len(l.Reserved) && l.Reserved[seat] != "" && l.Reserved[seat] != uid {
		return callable.PermissionDenied("seat %d is kept for a player of the game this one is a rematch of", seat).
			WithDetails(details{"seat_reserved"})
	}
	return nil
}

// spectate returns gameID's listing if a caller who is not in the game
// (no seat, not its owner) may watch it: the listing names the game name
// and says it is open to spectators (or public); else nil. Callers read
// a spectator's dungeon view and finished exports as the listing's owner
// (the same for every member). Its one error is the listing store's.
func (a *API) spectate(ctx context.Context, gameID, name string) (*lobby.Listing, error) {
	if !table.ValidID(gameID) {
		return nil, nil
	}
	l, err := a.listing(ctx, gameID)
	if err != nil || !l.Watchable() || l.Game != name {
		return nil, err
	}
	return l, nil
}

// isNotFound reports whether err is the answer for a game that does not
// exist or that the caller may not see: a table's not_created, or a
// dungeon's error that its Classify answers NOT_FOUND.
func (a *API) isNotFound(err error) bool {
	var te *table.Error
	if err == nil {
		return false
	}
	if errors.As(err, &te) && te.Code == table.CodeNotCreated {
		return true
	}
	ce, _ := a.dungeon.Classify(err)
	return ce != nil && ce.Status == callable.StatusNotFound
}
