package functions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// RematchRequest is rematch's data: the finished game's id (and,
// optionally, its game, as a routing hint).
type RematchRequest struct {
	Game   string `json:"game,omitempty"`
	GameID string `json:"gameId"`
}

// RematchResult is rematch's answer: the new game (RematchID of the
// old), its game and mode, and the caller's seat there with what it
// played with (the dungeon's class and smoke-bomb preference, a table's
// seat options by name), for its join.
type RematchResult struct {
	GameID        string            `json:"gameId"`
	Game          string            `json:"game"`
	Mode          string            `json:"mode"`
	Seat          int               `json:"seat"`
	Class         string            `json:"class,omitempty"`
	KeepSmokeBomb bool              `json:"keepSmokeBomb,omitempty"`
	Options       map[string]string `json:"options,omitempty"`
}

// RematchID is the id of the rematch of the game old: "rm" and the first
// 32 hex digits of SHA-256("fairboard-rematch/v1\x00" + old), so that
// every player asking for it reaches the same game.
func RematchID(old string) string {
	sum := sha256.Sum256([]byte("fairboard-rematch/v1\x00" + old))
	return "rm" + hex.EncodeToString(sum[:16])
}

// RematchActionID is the create's action id of every rematch (the
// dungeon's and a table's): the create is made once, for the old game's
// owner, and asked again by every player as a retry.
const RematchActionID = "rematch"

// Rematch makes (once: every player's call reaches the same game) the
// rematch of a finished game for one of its seated players: data
// [RematchRequest], result [RematchResult]. The new game is of the same
// game, owner, mode (a fair game with a fresh server seed, a trustless
// game or table with the same chain length and deadline), rules and seat count,
// visible by link only and open to spectators if the old one was; its
// players join it themselves, each into its seat rotated by one (the
// player of the k-th seat taken, in seat order, to seat k+1 mod the
// number of players), which the new game keeps for it (any other
// caller's join there is PERMISSION_DENIED "seat_reserved"). Errors: a
// game not finished FAILED_PRECONDITION "not_finished"; a caller who
// sees the game but holds no seat (its owner, a spectator)
// PERMISSION_DENIED "not_seated"; anyone else NOT_FOUND.
func (a *API) Rematch(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "rematch", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q RematchRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		if !table.ValidID(q.GameID) {
			return nil, fieldErr("gameId", "must be 1-128 characters of [A-Za-z0-9_-]")
		}
		name, err := a.tableOf(ctx, data)
		if err != nil {
			return nil, err
		}
		if name != "" {
			return a.rematchTable(ctx, uid, name, q.GameID)
		}
		return a.rematchDungeon(ctx, uid, q.GameID)
	})
}

var (
	errNotSeatedRematch = callable.PermissionDenied("only a player seated in the game may ask for its rematch").
				WithDetails(details{"not_seated"})
	errNotFinishedRematch = callable.FailedPrecondition("the game is not over: a rematch comes at its end").
				WithDetails(details{"not_finished"})
)

// notSeated is the refusal of a caller without a seat: not_seated if it
// may see the game (owner, spectator), else NOT_FOUND.
func (a *API) notSeated(ctx context.Context, gameID, name string, owner bool) error {
	if owner {
		return errNotSeatedRematch
	}
	l, err := a.spectate(ctx, gameID, name)
	if err != nil {
		return err
	}
	if l != nil {
		return errNotSeatedRematch
	}
	return NoSuchGame()
}

// relisting writes the rematch's listing: link only, spectators as the
// old game, the seats kept.
func (a *API) relisting(ctx context.Context, old, newID, name, owner, mode string, seats int, reserved []string) error {
	l0, err := a.listing(ctx, old)
	if err != nil {
		return err
	}
	l := lobby.Listing{GameID: newID, Game: name, Owner: owner, Mode: mode, Visibility: lobby.Link,
		Spectators: l0.Watchable(), Seats: seats, Phase: lobby.PhaseLobby, CreatedAt: time.Now().UnixMilli(),
		RematchOf: old, Reserved: reserved}
	if l0 != nil {
		l.OwnerName = l0.OwnerName
	}
	cur, err := a.listing(ctx, newID)
	if err != nil {
		return err
	}
	if cur != nil { // asked before: keep it (a join may have counted a seat)
		return nil
	}
	if err := a.lobby.Put(ctx, l); err != nil {
		return lobbyErr(err)
	}
	return nil
}

func (a *API) rematchDungeon(ctx context.Context, uid, old string) (any, error) {
	g, err := a.dungeon.Game(ctx, uid, old)
	if a.isNotFound(err) {
		return nil, a.notSeated(ctx, old, DungeonGame, false)
	}
	if err != nil {
		return nil, err
	}
	k := -1
	for i, pl := range g.Players {
		if pl == uid {
			k = i
		}
	}
	if k < 0 {
		return nil, errNotSeatedRematch
	}
	if g.Phase != lobby.PhaseFinished {
		return nil, errNotFinishedRematch
	}
	n := len(g.Players)
	reserved := make([]string, g.Seats)
	for i, pl := range g.Players {
		reserved[(i+1)%n] = pl
	}
	newID := RematchID(old)
	if err := a.relisting(ctx, old, newID, DungeonGame, g.Owner, g.Mode, len(reserved), reserved); err != nil {
		return nil, err
	}
	return a.dungeon.Rematch(ctx, g, k, newID)
}

func (a *API) rematchTable(ctx context.Context, uid, name, old string) (any, error) {
	v, def, err := tablestore.ViewAfter(ctx, a.tables, old, uid, noLogNorMoves) // no log read, no trustless move
	if err != nil {
		return nil, err
	}
	if v.Seat == table.NoSeat {
		return nil, a.notSeated(ctx, old, name, v.Owner == uid)
	}
	if v.Phase != table.PhaseFinished {
		return nil, errNotFinishedRematch
	}
	n := len(v.Seats)
	reserved := make([]string, n)
	for i, s := range v.Seats {
		reserved[(i+1)%n] = s.UID
	}
	newID := RematchID(old)
	if err := a.relisting(ctx, old, newID, name, v.Owner, string(v.Mode), n, reserved); err != nil {
		return nil, err
	}
	req := table.CreateRequest{Actor: v.Owner, ActionID: RematchActionID, Mode: v.Mode, Seats: n, Rules: v.Rules, At: a.nowMs(),
		Audit: v.Audited || a.dungeon.ForceAudit()}
	switch v.Mode {
	case rng.ModeFair:
		if req.ServerSeed, err = fair.NewServerSeed(); err != nil {
			return nil, err
		}
		if op := v.Fairness.Openings; op != nil {
			req.Openings, req.DeadlineMs = true, op.DeadlineMs
		}
	case rng.ModeSeeded:
		req.Seed = newID
	case rng.ModeTrustless:
		if tl := v.Trustless; tl != nil {
			req.ChainLength, req.DeadlineMs = tl.ChainLength, tl.DeadlineMs
		}
	}
	if _, err := a.tables.Create(ctx, newID, name, req); err != nil {
		// Made by an earlier call (a fair create's fresh seed makes this
		// call's content another): the rematch is there.
		var te *table.Error
		if !errors.As(err, &te) || te.Code != table.CodeAlreadyCreated && te.Code != table.CodeActionIDReused {
			return nil, err
		}
		if got, gerr := a.tables.Game(ctx, newID); gerr != nil || got != name {
			return nil, err
		}
	}
	res := &RematchResult{GameID: newID, Game: name, Mode: string(v.Mode), Seat: (v.Seat + 1) % n}
	opts := def.Seats().Options
	if mine := v.Seats[v.Seat].Options; len(opts) > 0 && len(mine) == len(opts) {
		res.Options = map[string]string{}
		for j, o := range opts {
			res.Options[o.Name] = mine[j]
		}
	}
	return res, nil
}
