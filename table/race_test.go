package table_test

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// race sends the actions to g at once, each from its own goroutine (with
// a reader beside them), and returns how many were applied and how many
// got stale_version.
func race(t *testing.T, s *table.Memory, g string, actions []table.Action) (applied, stale int) {
	t.Helper()
	errs := make([]error, len(actions))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, a := range actions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = s.Do(g, a)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		<-start
		for range 5 {
			_, err := s.View(g, uid(0))
			assert.NoError(t, err)
		}
	}()
	close(start)
	wg.Wait()
	for _, err := range errs {
		switch {
		case err == nil:
			applied++
		case errors.Is(err, table.CodeStaleVersion):
			stale++
		default:
			t.Fatalf("unexpected refusal %v", err)
		}
	}
	return applied, stale
}

// Of actions sent at once at the same version, exactly one is applied
// and every other gets stale_version: joins of four uids to four seats,
// then two rolls of the seat to move.
func TestConcurrentActionsAtOneVersion(t *testing.T) {
	s := table.NewMemory()
	for k := range 8 {
		g := fmt.Sprintf("t%d", k)
		t.Run(g, func(t *testing.T) {
			t.Parallel() // tables side by side in the one store
			_, err := s.Create(g, pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: g, Seats: 4})
			require.NoError(t, err)
			for v := uint64(1); v <= 4; v++ {
				var joins []table.Action
				for i := range 4 {
					joins = append(joins, table.Action{Actor: uid(i), ActionID: fmt.Sprintf("j%d", v), Version: v, Kind: table.KindJoin, Seat: i})
				}
				pub, err := s.View(g, "")
				require.NoError(t, err)
				var free []table.Action
				for i, a := range joins {
					if pub.Seats[i].UID == "" {
						free = append(free, a)
					}
				}
				applied, stale := race(t, s, g, free)
				require.Equal(t, 1, applied)
				require.Equal(t, len(free)-1, stale)
			}
			pub, err := s.View(g, "")
			require.NoError(t, err)
			_, err = s.Do(g, table.Action{Actor: uid(0), ActionID: "s", Version: pub.Version, Kind: table.KindStart})
			require.NoError(t, err)
			for step := 0; step < 40; step++ {
				pub, err := s.View(g, "")
				require.NoError(t, err)
				if pub.Phase == table.PhaseFinished {
					break
				}
				who := pub.Seats[pub.ToMove].UID
				var rolls []table.Action
				for r := range 2 {
					rolls = append(rolls, table.Action{Actor: who, ActionID: fmt.Sprintf("r%d-%d", step, r), Version: pub.Version,
						Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)})
				}
				applied, stale := race(t, s, g, rolls)
				require.Equal(t, 1, applied)
				require.Equal(t, 1, stale)
				after, err := s.View(g, "")
				require.NoError(t, err)
				require.Equal(t, pub.Version+1, after.Version)
			}
		})
	}
}
