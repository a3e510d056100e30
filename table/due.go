package table

import (
	"cmp"
	"slices"

	"github.com/fairboard/fairboard/table/trustdeal"
)

// SweepActionID is the action id of the sweep's abort (KindAbort by
// ServerActor): one per table, since a table is aborted at most once, so
// that a sweep retried, or two sweeps at once, apply it once and answer
// the same result (Replayed) after.
const SweepActionID = "sweep-abort"

// DueAt returns when the server will owe the table an action of its own
// (unix ms; 0 for never): a trustless table's pending round's deadline,
// or a dealing table's current wait's (a pass, keys or a reveal the deal
// awaits), after which (from the millisecond after: AbortDue) the abort
// is due. A store keeps it beside the table so that a sweep finds the
// tables past their deadline by an indexed query, never a scan.
func (t *Table) DueAt() int64 {
	switch {
	case t.phase == PhaseLobby:
		return t.openDeadline()
	case t.phase != PhasePlaying:
		return 0
	case t.dl != nil:
		if t.dl.Phase() == trustdeal.PhasePlay {
			return 0
		}
		return t.dl.Deadline()
	case t.tl == nil || t.tl.Pending == nil:
		return 0
	}
	return t.tl.Pending.Deadline
}

// Due returns the ids of the tables whose DueAt is set and not after
// before (unix ms), earliest first (then by id), at most limit (limit <=
// 0: every one).
func (s *Memory) Due(before int64, limit int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	type due struct {
		id string
		at int64
	}
	var all []due
	for id, t := range s.tables {
		if at := t.DueAt(); at > 0 && at <= before {
			all = append(all, due{id, at})
		}
	}
	slices.SortFunc(all, func(a, b due) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.id, b.id)) })
	if limit > 0 && len(all) > limit {
		all = all[:limit]
	}
	out := make([]string, len(all))
	for i, d := range all {
		out[i] = d.id
	}
	return out
}
