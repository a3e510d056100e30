package functions

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/table"
)

// TableSweepResult says what one sweep did to the tables (docs/
// functions.md, "The sweep"): how many were due (a trustless round past
// its deadline), those it aborted with the seats that stalled, and those
// it could not settle, with why (they stay due: the next sweep tries
// again).
type TableSweepResult struct {
	Due     int               `json:"due"`
	Aborted []TableAbort      `json:"aborted"`
	Failed  map[string]string `json:"failed,omitempty"`
	// Idle lists the tables ended for want of an action (sweepidle.go);
	// absent when none. Failed holds theirs too.
	Idle []TableIdle `json:"idle,omitempty"`
	// Backfilled is how many tables written before the idle clock
	// existed the sweep stamped with one (sweepidle.go); absent when
	// none.
	Backfilled int `json:"backfilled,omitempty"`
}

// TableAbort is one table the sweep aborted: its game id, the round that
// stalled (0 for a dealing table's deal, which has no rounds), and the
// uids of the seats that did not reveal it, or did not send the pass,
// keys or reveal the deal awaited (the table's outcome names their
// seats: Missing). Replayed is true when the abort was applied before
// (by a sweep run at the same time, or retried).
type TableAbort struct {
	GameID   string   `json:"gameId"`
	Index    int64    `json:"index"`
	Missing  []string `json:"missing"`
	Replayed bool     `json:"replayed,omitempty"`
}

// SweepTables aborts every table that is due now (tablestore.Store.Due:
// an indexed query, never a scan): the server's abort (table.KindAbort by
// table.ServerActor, action id table.SweepActionID, at the API's clock),
// which ends the game naming the seats that did not reveal. A table
// settled in the meantime (its round closed: wrong_index; finished:
// game_over; gone) is skipped; the sweep's own action id makes it
// idempotent. It stops when none is due or ctx ends; an error is the
// store's query failing, with what was done so far. Without tables
// (WithTables) there is nothing to sweep. The sweep function runs it
// after the dungeon's; gamectl serve's in-process sweep too.
func (a *API) SweepTables(ctx context.Context) (*TableSweepResult, error) {
	res := &TableSweepResult{Aborted: []TableAbort{}}
	if a.tables == nil {
		return res, nil
	}
	tried := map[string]bool{}
	for {
		now := a.nowMs()
		limit := sweepBatch + len(tried) // those tried and still due come again
		ids, err := a.tables.Due(ctx, now-1, limit)
		if err != nil {
			return res, err
		}
		fresh := 0
		for _, id := range ids {
			if tried[id] {
				continue
			}
			tried[id] = true
			fresh++
			res.Due++
			r, err := a.tables.Do(ctx, id, table.Action{Actor: table.ServerActor, ActionID: table.SweepActionID, Kind: table.KindAbort, At: now})
			switch {
			case errors.Is(err, table.CodeWrongIndex), errors.Is(err, table.CodeGameOver),
				errors.Is(err, table.CodeNotCreated), errors.Is(err, table.CodeDeadlineNotPassed):
			case err != nil:
				if res.Failed == nil {
					res.Failed = map[string]string{}
				}
				res.Failed[id] = err.Error()
				a.log.Error("sweep: a due table could not be aborted", "game", id, "err", err)
			default:
				res.Aborted = append(res.Aborted, abortOf(id, r))
			}
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
		}
		if fresh == 0 || len(ids) < limit {
			return res, a.sweepIdle(ctx, res) // sweepidle.go
		}
	}
}

// abortOf reads the sweep's abort from its result: the Aborted event's
// round index and missing uids (its options after the reason), or a
// deal's DealSettled forfeit (its options: the reason, then the uids).
func abortOf(id string, r *table.Result) TableAbort {
	ab := TableAbort{GameID: id, Missing: []string{}, Replayed: r.Replayed}
	for _, e := range r.Events {
		if e.Game || e.Type != "Aborted" && e.Type != "DealSettled" {
			continue
		}
		if e.Type == "Aborted" {
			ab.Index = e.Vals[0]
		}
		if len(e.Options) > 1 {
			ab.Missing = append(ab.Missing, e.Options[1:]...)
		}
	}
	return ab
}
