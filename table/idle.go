package table

import (
	"cmp"
	"slices"
)

// The sweep of idle tables (docs/functions.md, "The sweep"): a table of
// any mode, in its lobby or in play, on which no action was applied for
// the deployment's idle limit is ended by the server, as abandoned with
// the reason ReasonIdle. The table itself reads no clock: its stores keep
// the time of its last applied action (Action.At, CreateRequest.At)
// beside it, find the idle ones by an indexed query (Memory.Idle;
// tablestore.Store.Idle) and the sweep abandons each at the version it
// found it at, so that a table that moved in the meantime is skipped
// (stale_version).

// IdleActionID is the action id of the sweep's abandon of an idle table
// (KindAbandon by ServerActor with Reason ReasonIdle): one per table,
// since a table ends once, so that a sweep retried, or two sweeps at once
// at the same version, apply it once and answer the same result
// (Replayed) after.
const IdleActionID = "sweep-idle"

// ReasonIdle is Outcome.Reason of a table the sweep ended because no
// action came for the idle limit, and the option of its Abandoned event.
// It is the only Action.Reason.
const ReasonIdle = "idle"

// IdleTable is one table an idle query found: its game id, its version
// then (the sweep's abandon names it: a table that moved since is
// stale_version, and skipped) and the time of its last applied action
// (unix ms).
type IdleTable struct {
	GameID  string
	Version uint64
	ActedAt int64
}

// checkReason refuses a Reason anywhere but on the server's abandon, and
// any Reason but ReasonIdle (invalid_action).
func checkReason(a *Action) *Error {
	if a.Reason == "" || a.Reason == ReasonIdle && a.Actor == ServerActor && a.Kind == KindAbandon {
		return nil
	}
	return reject(CodeInvalidAction, "a reason is the server's, on its abandon of an idle table only")
}

// reasonOptions is the Abandoned event's options: the reason, if any.
func reasonOptions(reason string) []string {
	if reason == "" {
		return nil
	}
	return []string{reason}
}

// acted records, under s.mu, that an action at at (unix ms) was applied
// to the table gameID: the time its idle limit runs from, forgotten once
// the table is finished (it is idle no more) or when at is 0 (unknown).
func (s *Memory) acted(gameID string, t *Table, at int64) {
	if s.actedAt == nil {
		s.actedAt = map[string]int64{}
	}
	if t.phase == PhaseFinished || at <= 0 {
		delete(s.actedAt, gameID)
		return
	}
	s.actedAt[gameID] = at
}

// Idle returns the tables in phase (PhaseLobby or PhasePlaying) whose last
// applied action was at or before before (unix ms), earliest first (then
// by id), at most limit (limit <= 0: every one), each with its version. A
// table whose last action carried no time (At 0) is not found.
func (s *Memory) Idle(phase Phase, before int64, limit int) []IdleTable {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []IdleTable
	for id, at := range s.actedAt {
		if t := s.tables[id]; t.phase == phase && at <= before {
			out = append(out, IdleTable{GameID: id, Version: t.version, ActedAt: at})
		}
	}
	slices.SortFunc(out, func(a, b IdleTable) int {
		return cmp.Or(cmp.Compare(a.ActedAt, b.ActedAt), cmp.Compare(a.GameID, b.GameID))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out
}
