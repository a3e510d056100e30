package functions

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/fairboard/fairboard/functions/callable"
)

// tableFunc is a table game's path of a function (joinTable, startTable,
// actTable, viewTable) for the table's game name.
type tableFunc func(ctx context.Context, uid, name string, data json.RawMessage) (any, error)

// route serves joinGame, startGame, act and getView, whose data names a
// game id of the dungeon or of a table (docs/functions.md, "Routing").
//
// Data whose game field names a table game (anything but "dungeon") goes
// to the table path: one read of the table store for the game the id
// plays, and NOT_FOUND if it plays none or another. Otherwise the
// dungeon's path answers first, with no read beyond its own: the
// dungeon's store answers a table's id as a game that does not exist.
// Only when it refuses the data (INVALID_ARGUMENT: a table's request is
// not the dungeon's) or finds no game (NOT_FOUND) is the table store
// asked, and a table's id then goes to the table path; any other id
// gets the dungeon's answer. A client that knows its game sends game and
// spares the table its failed dungeon read.
func (a *API) route(ctx context.Context, uid string, data json.RawMessage, dungeon func() (any, error), tbl tableFunc) (any, error) {
	if want, ok := peek(data, "game"); ok && want != DungeonGame && a.tables != nil {
		name, err := a.tableOf(ctx, data)
		switch {
		case err != nil:
			return nil, err
		case name == "" || name != want:
			return nil, NoSuchGame()
		}
		return tbl(ctx, uid, name, data)
	}
	res, err := dungeon()
	if err == nil || a.tables == nil || !a.mayBeTable(err) {
		return res, err
	}
	name, terr := a.tableOf(ctx, data)
	if terr != nil || name == "" {
		return res, err
	}
	return tbl(ctx, uid, name, data)
}

// mayBeTable reports whether the dungeon's error on some data may be
// because its game id is a table's: the dungeon found no game, or
// refused data shaped for a table.
func (a *API) mayBeTable(err error) bool {
	var ce *callable.Error
	if !errors.As(err, &ce) {
		var ok bool
		if ce, ok = a.classify(err); !ok {
			return false
		}
	}
	return ce.Status == callable.StatusNotFound || ce.Status == callable.StatusInvalidArgument
}
