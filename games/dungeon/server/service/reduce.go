// One action's reduction (its stream rebuilt, the engine's dispatch, the
// stream saved) and the audit entries it collects.

package service

import (
	"context"
	"fmt"
	"time"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
)

// reduce rebuilds the stream for a from g (session.StreamFor: in a
// trustless game, the closing reveal's R_v) and dispatches a copy of a.
// col, if not nil, collects the audit entries of a game with audit on.
func (s *Service) reduce(g *engine.Game, a engine.Action, col *collector) ([]engine.Event, error) {
	start := time.Now()
	defer func() {
		s.reduceNanos.Add(int64(time.Since(start)))
		s.reduces.Add(1)
	}()
	var st *rng.Stream
	if a.Kind != engine.ActCreate && g.Public.Phase != engine.PhaseNone {
		var opts []rng.Option
		if g.Public.RNG.AuditEnabled && col != nil {
			opts = append(opts, rng.WithAuditor(col))
		}
		var err error
		if st, err = session.StreamFor(g, &a, opts...); err != nil {
			return nil, fmt.Errorf("service: restore stream: %w", err)
		}
	}
	ev, err := s.cfg.Engine.Dispatch(g, &a, st, nil)
	if err != nil {
		return nil, err
	}
	if st != nil {
		if err := g.SaveStream(st); err != nil {
			return nil, fmt.Errorf("service: save stream: %w", err)
		}
	}
	return ev, nil
}

// writeAudit puts the entries of an action whose commit did not ring
// them in the game's ring (the stores of this release ring every action
// in its own commit; see store.Record.Ringed): after the commit, and after
// each replay of such an action, which repairs entries that a failed or
// never-made write left out (the write is idempotent: when nothing is
// missing it stores nothing). A failure is logged and counted, and the
// move stands.
func (s *Service) writeAudit(ctx context.Context, gameID, actionID string, entries []audit.Entry, replayed bool) {
	s.auditWrites.Add(1)
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.cfg.Timeout)
	defer cancel()
	n, err := s.cfg.Audit.WriteAudit(actx, gameID, entries)
	switch {
	case err != nil:
		s.auditFailures.Add(1)
		s.cfg.Logger.Error("audit write failed; the move stands, and a retry of the action will repair it",
			"game", gameID, "action", actionID, "entries", len(entries), "replay", replayed, "err", err)
	case replayed && n > 0:
		s.auditRepairs.Add(1)
		s.cfg.Logger.Warn("audit entries were missing; repaired from the action's record",
			"game", gameID, "action", actionID, "repaired", n, "of", len(entries))
	}
}

// collector is the rng.Auditor of one transaction attempt.
type collector struct{ entries []rng.Entry }

// Record implements rng.Auditor.
func (c *collector) Record(e rng.Entry) { c.entries = append(c.entries, e) }
