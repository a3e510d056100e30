package service

import (
	"context"
	"errors"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// The scheduled sweep of trustless games past their reveal deadline.

// SweepResult says what one Sweep did.
type SweepResult struct {
	// Due is how many games were due.
	Due int `json:"due"`
	// Closed, Aborted and Abandoned name the games settled each way.
	Closed    []string `json:"closed"`
	Aborted   []string `json:"aborted"`
	Abandoned []string `json:"abandoned"`
	// Failed names the games that could not be settled, with why (they
	// stay due: the next sweep tries again).
	Failed map[string]string `json:"failed,omitempty"`
}

// SweepBatch is how many due games one query of Sweep reads.
const SweepBatch = 100

// Sweep settles every game that is due now (a trustless round past its
// deadline and grace, closed if every seat revealed, else aborted; a fair
// game past the fair deadline, abandoned), found by the store's indexed
// query of the games' due times (store.Store.Due), never by a scan. It is
// what the scheduled function runs; a game settled by a call on it in the
// meantime is skipped. It stops when none is due or ctx ends.
func (s *Service) Sweep(ctx context.Context) (*SweepResult, error) {
	res := &SweepResult{Closed: []string{}, Aborted: []string{}, Abandoned: []string{}}
	tried := map[string]bool{}
	for {
		now := s.cfg.Now().UnixMilli()
		limit := SweepBatch + len(tried) // those tried and still due come again
		cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
		ids, err := s.cfg.Store.Due(cctx, now-1, limit)
		cancel()
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
			did, err := s.settle(ctx, id)
			switch {
			case errors.Is(err, errNothingToSettle):
			case err != nil:
				if res.Failed == nil {
					res.Failed = map[string]string{}
				}
				res.Failed[id] = err.Error()
				s.cfg.Logger.Error("sweep: a due game could not be settled", "game", id, "err", err)
			case did == SettledClosed:
				res.Closed = append(res.Closed, id)
			case did == SettledAborted:
				res.Aborted = append(res.Aborted, id)
			case did == SettledAbandoned:
				res.Abandoned = append(res.Abandoned, id)
			}
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
		}
		if fresh == 0 || len(ids) < limit {
			return res, nil
		}
	}
}

// marks are the public markers of the staged reveals (what a client may
// see of them: never the link).
func marks(staged []engine.Action) []store.Mark {
	out := make([]store.Mark, len(staged))
	for i := range staged {
		out[i] = store.MarkOf(&staged[i])
	}
	return out
}
