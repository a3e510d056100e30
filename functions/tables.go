package functions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// DungeonGame is createGame's game for the dungeon (also its default):
// the dungeon's own path ([Dungeon]).
const DungeonGame = "dungeon"

// WithTables lets the functions serve every game of the store's lookup
// but the dungeon, as tables kept in ts (docs/functions.md, "Table
// games"): createGame with another game than the dungeon makes a table,
// and joinGame, startGame, act and getView on a game id ts holds go to
// the table path. It returns a.
func (a *API) WithTables(ts tablestore.Store) *API {
	a.tables = ts
	return a
}

// OneIDSpace declares that the dungeon's store and the tables' refuse
// each other's game ids themselves, as fsstore and fstables on one
// database do (both keep a game in games/{id}, and each refuses a create
// on an id the other holds): a create then asks only its own store, one
// read fewer. Without it (separate stores, as in memory), a create first
// asks the other store whether it holds the id. It returns a.
func (a *API) OneIDSpace() *API {
	a.oneIDSpace = true
	return a
}

// peek reads one string field of the data leniently (for routing only:
// the strict decoding follows); ok is false when it is absent or not a
// string.
func peek(data json.RawMessage, field string) (string, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return "", false
	}
	raw, ok := m[field]
	var s string
	if !ok || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// tableOf returns the name of the game the data's gameId plays if it is
// a table of the store: the table path's routing for joinGame,
// startGame, act and getView. Without a store, or with no valid gameId,
// it is "" (the dungeon's path answers).
func (a *API) tableOf(ctx context.Context, data json.RawMessage) (string, error) {
	if a.tables == nil {
		return "", nil
	}
	id, ok := peek(data, "gameId")
	if !ok || !table.ValidID(id) {
		return "", nil
	}
	name, err := a.tables.Game(ctx, id)
	if errors.Is(err, table.CodeNotCreated) {
		return "", nil
	}
	return name, err
}

// createTable is createGame's table path for game (not the dungeon).
func (a *API) createTable(ctx context.Context, uid, name string, data json.RawMessage) (any, error) {
	if a.tables == nil {
		return nil, callable.InvalidArgument("unknown game %q (known: %s)", name, DungeonGame).WithDetails(details{"unknown_game"})
	}
	var q TableCreateRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	// The dungeon's store may be another than the tables' (in memory):
	// an id either holds is taken for both.
	if !a.oneIDSpace {
		if held, err := a.dungeon.Holds(ctx, q.GameID); err != nil || held {
			if err == nil {
				err = errAlreadyCreated
			}
			return nil, err
		}
	}
	mode, serverSeed := rng.ModeCrypto, ""
	if q.Mode == "fair" {
		seed, err := fair.NewServerSeed() // the server's, never a client's
		if err != nil {
			return nil, err
		}
		mode, serverSeed = rng.ModeFair, seed
	}
	if q.Mode == "trustless" {
		mode = rng.ModeTrustless
	}
	if q.Mode == "seeded" {
		if !a.dungeon.AllowSeeded() {
			return nil, callable.FailedPrecondition("seeded mode is disabled in this deployment (seeded games are replayable, for development only); create the game in crypto mode").
				WithDetails(details{"seeded_disabled"})
		}
		mode = rng.ModeSeeded
	}
	res, err := a.tables.Create(ctx, q.GameID, name, table.CreateRequest{Actor: uid, ActionID: q.ActionID, At: a.nowMs(),
		Mode: mode, Seed: q.Seed, ServerSeed: serverSeed, Seats: q.Seats, Rules: q.Rules, ChainLength: q.ChainLength, DeadlineMs: q.DeadlineMs, Openings: q.Openings,
		Audit: q.Audit || a.dungeon.ForceAudit()})
	if err != nil {
		return nil, err
	}
	def, err := a.tables.Def(name)
	if err != nil {
		return nil, err
	}
	seats := q.Seats
	if seats == 0 {
		seats = def.Seats().Default
	}
	return tableResult(q.GameID, def, res), a.list(ctx, uid, q.GameID, name, string(mode), q.Visibility, q.Spectators, seats)
}

// doTable applies one action to a table of the game name and answers
// its TableResult.
func (a *API) doTable(ctx context.Context, name, gameID string, act table.Action) (any, error) {
	def, err := a.tables.Def(name)
	if err != nil {
		return nil, err
	}
	res, err := a.tables.Do(ctx, gameID, act)
	if err != nil {
		return nil, err
	}
	out := tableResult(gameID, def, res)
	out.Ack = a.tableAck(gameID, &act)
	return out, nil
}

func tableResult(gameID string, def game.Definition, r *table.Result) *TableResult {
	return &TableResult{GameID: gameID, ActionID: r.ActionID, Version: r.Version,
		Events: tablestore.AppendEventsJSON(nil, def, r.Events), Replayed: r.Replayed}
}

func (a *API) joinTable(ctx context.Context, uid, name string, data json.RawMessage) (any, error) {
	var q TableJoinRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	if err := a.reserved(ctx, q.GameID, uid, q.Seat); err != nil {
		return nil, err
	}
	res, err := a.doTable(ctx, name, q.GameID, table.Action{Actor: uid, ActionID: q.ActionID, Version: q.Version,
		Kind: table.KindJoin, Seat: q.Seat, Options: q.Options, Entropy: q.Entropy, EntropyCommitment: q.EntropyCommitment,
		ChainHead: q.ChainHead, PublicKey: q.PublicKey, Signature: q.Signature, At: a.nowMs()})
	if err != nil {
		return nil, err
	}
	a.relist(ctx, q.GameID)
	return res, a.seatName(ctx, q.GameID, uid)
}

func (a *API) startTable(ctx context.Context, uid, name string, data json.RawMessage) (any, error) {
	var q TableStartRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	if err := checkIDs(q.GameID, q.ActionID); err != nil {
		return nil, err
	}
	res, err := a.doTable(ctx, name, q.GameID, table.Action{Actor: uid, ActionID: q.ActionID, Version: q.Version, Kind: table.KindStart, At: a.nowMs()})
	if err == nil {
		a.relist(ctx, q.GameID)
	}
	return res, err
}

func (a *API) actTable(ctx context.Context, uid, name string, data json.RawMessage) (any, error) {
	var q TableActRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	if err := q.check(); err != nil {
		return nil, err
	}
	res, err := a.doTable(ctx, name, q.GameID, q.action(uid, a.nowMs()))
	if err == nil && q.Kind != "" && q.Kind != table.KindMove && q.Kind != table.KindDeal { // a leave, a removal, an abandon, an abort
		a.relist(ctx, q.GameID)
	}
	return res, err
}

// viewTable is getView's table path: the caller's view if it holds a
// seat or owns the table, anyone's while the table is in its lobby (to
// see the free seats), a spectator's (the public part) once started if
// the table is open to spectators; anyone else gets NOT_FOUND, as for a
// game that does not exist.
func (a *API) viewTable(ctx context.Context, uid, _ string, data json.RawMessage) (any, error) {
	var q ViewRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	if !table.ValidID(q.GameID) {
		return nil, fieldErr("gameId", "must be 1-128 characters of [A-Za-z0-9_-]")
	}
	v, def, err := tablestore.ViewAfter(ctx, a.tables, q.GameID, uid, tablestore.After{Seq: q.AfterSeq, Moves: int(q.CheckedMoves)})
	if err != nil {
		return nil, err
	}
	spectating := false
	if v.Seat == table.NoSeat && v.Owner != uid {
		// A spectator reads the public part (v is uid's view: no seat's);
		// in the lobby anyone reads it, and a spectator is told so.
		l, err := a.spectate(ctx, q.GameID, v.Game)
		if err != nil {
			return nil, err
		}
		if l == nil && v.Phase != table.PhaseLobby {
			return nil, NoSuchGame()
		}
		spectating = l != nil
	}
	if err := checkCheckedMoves(q.CheckedMoves, v); err != nil { // after the read is allowed: the count is the reader's to know
		return nil, err
	}
	out := &TableView{Game: v.Game, GameID: q.GameID, Mode: string(v.Mode), Owner: v.Owner, Phase: string(v.Phase),
		Version: v.Version, Rules: v.Rules, RulesHash: v.RulesHash, Seat: v.Seat, ToMove: v.ToMove, Spectating: spectating}
	for _, s := range v.Seats {
		out.Seats = append(out.Seats, TableSeat{UID: s.UID, Options: s.Options})
	}
	out.State = asJSON(v.State)
	out.Private = asJSON(v.Private)
	legal := []byte{'['}
	for i, m := range v.Legal {
		if i > 0 {
			legal = append(legal, ',')
		}
		legal = game.AppendMoveJSON(legal, def.Kinds(), m)
	}
	out.Legal = append(legal, ']')
	var log []table.Event
	for _, e := range v.Log {
		if uint64(e.Seq) > q.AfterSeq {
			log = append(log, e)
		}
	}
	out.Log = tablestore.AppendEventsJSON(nil, def, log)
	if f := v.Fairness; f != nil {
		out.Fairness = &TableFairness{CommitmentHex: f.CommitmentHex, ServerSeedHex: f.ServerSeedHex,
			ContributionsHex: f.ContributionsHex, GameSeedHex: f.GameSeedHex}
		if op := f.Openings; op != nil {
			out.Fairness.Openings = &TableOpenings{DeadlineMs: op.DeadlineMs, Deadline: op.Deadline, CommitmentsHex: op.Commitments, Opened: op.Opened}
		}
	}
	out.Trustless = v.Trustless
	if out.Names, err = a.gameNames(ctx, q.GameID); err != nil {
		return nil, err
	}
	if o := v.Outcome; o != nil {
		out.Outcome = &TableOutcome{Abandoned: o.Abandoned, Winners: o.Winners, Payoffs: o.Payoffs, Reason: o.Reason, Missing: o.Missing}
		if out.Outcome.Winners == nil {
			out.Outcome.Winners = []int{}
		}
	}
	return out, nil
}

// noLogNorMoves is what a reader that needs neither the log nor a
// trustless table's moves holds (a view from the head alone).
var noLogNorMoves = tablestore.After{Seq: math.MaxUint64, Moves: math.MaxInt}

// checkCheckedMoves refuses a checkedMoves that is not 0 at a table that
// is not trustless, or past the moves v's table has applied.
func checkCheckedMoves(n uint32, v *table.View) error {
	switch {
	case n == 0:
		return nil
	case v.Trustless == nil:
		return fieldErr("checkedMoves", "is for a trustless table only")
	case int(n) > v.Trustless.Played():
		return fieldErr("checkedMoves", fmt.Sprintf("must be at most the %d moves played", v.Trustless.Played()))
	}
	return nil
}

// asJSON is a game's part as getView answers it: null when empty, the
// game's JSON as it is, and a part that is not JSON as a string.
func asJSON(b []byte) json.RawMessage {
	switch {
	case len(b) == 0:
		return json.RawMessage("null")
	case !json.Valid(b):
		s, _ := json.Marshal(string(b))
		return s
	}
	return b
}

// errAlreadyCreated is a dungeon create's answer on a game id a table
// holds.
var errAlreadyCreated = &table.Error{Code: table.CodeAlreadyCreated, Msg: "the game exists"}

// exportTable is exportGame's table path: the finished table's game
// record for a seated player or its owner (table.Table.Record), and for
// a spectator of a table open to spectators (read as its owner's: the
// record of a finished table is the same for every member).
func (a *API) exportTable(ctx context.Context, uid, _ string, data json.RawMessage) (any, error) {
	var q ExportRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	return a.tableRecord(ctx, uid, q.GameID)
}

// tableRecord is the finished table gameID's record for uid: a seated
// player or its owner, or a spectator of a table open to spectators
// (exportTable, shuffleTable).
func (a *API) tableRecord(ctx context.Context, uid, gameID string) (*match.Record, error) {
	if !table.ValidID(gameID) {
		return nil, fieldErr("gameId", "must be 1-128 characters of [A-Za-z0-9_-]")
	}
	rec, err := a.tables.Record(ctx, gameID, uid)
	if a.isNotFound(err) {
		name, gerr := a.tables.Game(ctx, gameID)
		if gerr != nil {
			return nil, err
		}
		l, lerr := a.spectate(ctx, gameID, name)
		if lerr != nil {
			return nil, lerr
		}
		if l != nil { // a spectator: a finished table's record is the same for every member
			return a.tables.Record(ctx, gameID, l.Owner)
		}
	}
	return rec, err
}
