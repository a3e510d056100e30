package functions

import (
	"context"
	"errors"
	"time"

	"github.com/fairboard/fairboard/table"
)

// The idle limits' defaults (docs/functions.md, "The sweep"): a table in
// play with no action for a week, and a table still in its lobby with
// none for a day, is ended by the sweep.
const (
	DefaultTableIdle = 7 * 24 * time.Hour
	DefaultLobbyIdle = 24 * time.Hour
)

// sweepBatch is how many due or idle tables one query of the sweep reads
// (as the dungeon's own sweep reads its games).
const sweepBatch = 100

// idleLimits are the API's idle limits: 0 their default, negative never.
type idleLimits struct{ playing, lobby time.Duration }

// WithTableIdle sets how long a table may go without an applied action
// before the sweep ends it as idle: playing for a table in play, lobby
// for one still in its lobby. 0 is the default (DefaultTableIdle,
// DefaultLobbyIdle); a negative limit never ends that phase's tables. It
// returns a.
func (a *API) WithTableIdle(playing, lobby time.Duration) *API {
	a.idle = idleLimits{playing: playing, lobby: lobby}
	return a
}

// idleLimit returns the idle limit of the tables in phase (lobby or
// playing) after its default; negative: never.
func (a *API) idleLimit(phase table.Phase) time.Duration {
	d, def := a.idle.playing, DefaultTableIdle
	if phase == table.PhaseLobby {
		d, def = a.idle.lobby, DefaultLobbyIdle
	}
	if d == 0 {
		return def
	}
	return d
}

// TableIdle is one table the sweep ended as idle: its game id, the phase
// and version it sat at, and Replayed when the end had been applied
// before (a sweep run at the same time, or retried).
type TableIdle struct {
	GameID   string      `json:"gameId"`
	Phase    table.Phase `json:"phase"`
	Version  uint64      `json:"version"`
	Replayed bool        `json:"replayed,omitempty"`
}

// ActedBackfillBatch is how many tables each sweep looks at, at most,
// to stamp those written before their stores kept the time of their last
// action (tablestore.Store.BackfillActed), until it has looked at all.
const ActedBackfillBatch = 100

// sweepIdle first stamps at most ActedBackfillBatch old tables with the
// time of their last write (tablestore.Store.BackfillActed, unless both
// limits are off), so that the query below finds them too; then it ends
// every table, in its lobby or in play, whose last
// applied action is its phase's idle limit or more before the API's
// clock (tablestore.Store.Idle: an indexed query, never a scan): the
// server's abandon (table.KindAbandon by table.ServerActor, reason
// table.ReasonIdle, action id table.IdleActionID) at the version the
// query found, so that a table that moved since is skipped
// (stale_version), and a sweep retried or run twice at once ends it once.
// A game ends as abandoned with the game's AbortPayoffs, a lobby simply
// closes (and leaves the open games' list). It adds what it did to res;
// an error is the store's query failing, or the stamping's (after the idle
// tables were ended all the same: a stamping that keeps failing never
// keeps the sweep from ending the tables it can find).
func (a *API) sweepIdle(ctx context.Context, res *TableSweepResult) error {
	var backfill error
	if a.idleLimit(table.PhaseLobby) >= 0 || a.idleLimit(table.PhasePlaying) >= 0 {
		b, err := a.tables.BackfillActed(ctx, a.nowMs(), ActedBackfillBatch)
		res.Backfilled = b.Stamped
		if err != nil {
			// The tables already stamped are still ended below; the error
			// is the sweep's answer once they are.
			a.log.Error("sweep: stamping old tables with their last write's time failed", "err", err)
			backfill = err
		}
	}
	if err := a.endIdleTables(ctx, res); err != nil {
		return err
	}
	return backfill
}

// endIdleTables ends the idle tables of each phase whose limit is on.
func (a *API) endIdleTables(ctx context.Context, res *TableSweepResult) error {
	for _, phase := range []table.Phase{table.PhaseLobby, table.PhasePlaying} {
		limit := a.idleLimit(phase)
		if limit < 0 {
			continue
		}
		tried := map[string]bool{}
		for {
			now := a.nowMs()
			batch := sweepBatch + len(tried) // those tried and still idle come again
			found, err := a.tables.Idle(ctx, phase, now-limit.Milliseconds(), batch)
			if err != nil {
				return err
			}
			fresh := 0
			for _, it := range found {
				if tried[it.GameID] {
					continue
				}
				tried[it.GameID] = true
				fresh++
				a.endIdle(ctx, res, phase, it, now)
				if ctx.Err() != nil {
					return ctx.Err()
				}
			}
			if fresh == 0 || len(found) < batch {
				break
			}
		}
	}
	return nil
}

// endIdle applies the sweep's end of one idle table.
func (a *API) endIdle(ctx context.Context, res *TableSweepResult, phase table.Phase, it table.IdleTable, now int64) {
	r, err := a.tables.Do(ctx, it.GameID, table.Action{Actor: table.ServerActor, ActionID: table.IdleActionID,
		Kind: table.KindAbandon, Version: it.Version, Reason: table.ReasonIdle, At: now})
	switch {
	case errors.Is(err, table.CodeStaleVersion), errors.Is(err, table.CodeGameOver),
		errors.Is(err, table.CodeNotCreated), errors.Is(err, table.CodeActionIDReused):
		// moved since the query, or ended otherwise: not idle
	case err != nil:
		if res.Failed == nil {
			res.Failed = map[string]string{}
		}
		res.Failed[it.GameID] = err.Error()
		a.log.Error("sweep: an idle table could not be ended", "game", it.GameID, "err", err)
	default:
		res.Idle = append(res.Idle, TableIdle{GameID: it.GameID, Phase: phase, Version: it.Version, Replayed: r.Replayed})
		if !r.Replayed {
			a.relist(ctx, it.GameID)
		}
	}
}
