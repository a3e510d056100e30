package table

import (
	"errors"
	"slices"
)

// The backfill of the idle sweep's clock (docs/functions.md, "The
// sweep"): a table last written before its store kept the time of its
// last applied action (tablestore.Store.Idle) has none, so the idle
// query never finds it. Each sweep first stamps at most a batch of such
// tables with a time, walking every table once in game-id order from
// where the last sweep stopped, until it has walked them all.

// ActedBackfill says what one step of the backfill did: how many tables
// it looked at (Scanned) and stamped (Stamped), and Done once every
// table has been walked (a step after that looks at none).
type ActedBackfill struct {
	Scanned, Stamped int
	Done             bool
}

// BackfillActed is one step of the backfill: it looks at the next limit
// tables (limit >= 1) in game-id order after those the last step looked
// at, and gives each one that is unfinished and has no time of its last
// action (created or last acted on with At 0) the time now (unix ms, >
// 0): the memory keeps no other time of a table, so its idle limit runs
// from the backfill. A table with a time, or finished, is left as it is.
// Once a step looks at fewer than limit tables, the walk is done and
// every later step looks at none (a table created since carries its
// create's time). Errors: limit < 1 or now <= 0, and nothing is done.
func (s *Memory) BackfillActed(now int64, limit int) (ActedBackfill, error) {
	if limit < 1 || now <= 0 {
		return ActedBackfill{}, errors.New("table: a backfill takes a limit of 1 or more and a time after 1970")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.backfill.done {
		return ActedBackfill{Done: true}, nil
	}
	var ids []string
	for id := range s.tables {
		if id > s.backfill.after {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	var out ActedBackfill
	if len(ids) < limit {
		out.Done = true
	} else {
		ids = ids[:limit]
	}
	for _, id := range ids {
		if _, ok := s.actedAt[id]; !ok && s.tables[id].phase != PhaseFinished {
			s.acted(id, s.tables[id], now)
			out.Stamped++
		}
	}
	out.Scanned = len(ids)
	if len(ids) > 0 {
		s.backfill.after = ids[len(ids)-1]
	}
	s.backfill.done = out.Done
	return out, nil
}
