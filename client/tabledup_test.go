package client_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/table"
)

// sendAtOnce sends every action of acts at once, each through a Table of
// its own (a Table is not safe for concurrent use), and returns each
// one's answer and error, in order.
func sendAtOnce(t *testing.T, run *trustRun, acts []table.Action) ([]*client.TableResult, []error) {
	t.Helper()
	res, errs := make([]*client.TableResult, len(acts)), make([]error, len(acts))
	tbs := make([]*client.Table, len(acts))
	for i, a := range acts {
		tbs[i] = run.table(t, a.Actor)
	}
	var start, done sync.WaitGroup
	start.Add(1)
	for i := range acts {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			res[i], errs[i] = tbs[i].Send(context.Background(), acts[i])
		}()
	}
	start.Done()
	done.Wait()
	return res, errs
}

// TestTableConcurrentDuplicateReveals: at a Pig table of three, p0's roll
// opens round 1 with its own reveal; p1's one reveal is then sent 16
// times at once, 8 under its action id and 8 under ids of their own.
// Exactly one copy is applied (one answer not replayed, the table one
// version on, p1's marker once); a copy under the applied copy's id gets
// that answer (replayed), signed again; every other copy is
// already_revealed (a refusal is not stored: its id stays free). p2's
// reveal then closes the round once, with one reveal per seat; sent again
// after, the applied copy gets the same answer, another id wrong_index
// (no round pending). The control: p1's and p2's reveals sent
// at once are both applied and close the round.
func TestTableConcurrentDuplicateReveals(t *testing.T) {
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	for _, control := range []bool{false, true} {
		t.Run(map[bool]string{false: "duplicates", true: "control"}[control], func(t *testing.T) {
			run := newTrustRun(t, defOf("pig"), fmt.Sprintf("dup-%v", control), 3, key, nil, nil)
			v := run.view(t, "p0")
			mv, err := run.order[0].Move("m1", v, roll(t, v))
			require.NoError(t, err)
			_, err = run.tt.Do(mv)
			require.NoError(t, err)
			r1, err := run.order[1].Reveal("r1", run.view(t, "p1"))
			require.NoError(t, err)
			r2, err := run.order[2].Reveal("r2", run.view(t, "p2"))
			require.NoError(t, err)
			before := run.view(t, "p0").Version

			if control {
				res, errs := sendAtOnce(t, run, []table.Action{r1, r2})
				for i := range res {
					require.NoError(t, errs[i])
					require.False(t, res[i].Replayed)
				}
				closedOnce(t, run, 1)
				return
			}
			var acts []table.Action
			for i := range 16 {
				a := r1
				if i%2 == 1 {
					a.ActionID = fmt.Sprintf("r1-copy%d", i)
				}
				acts = append(acts, a)
			}
			res, errs := sendAtOnce(t, run, acts)
			var first *client.TableResult
			applied := -1
			for i, r := range res {
				if errs[i] == nil && !r.Replayed {
					require.Nil(t, first, "copy %d applied too", i)
					first, applied = r, i
				}
			}
			require.NotNil(t, first, "one copy applied")
			require.Equal(t, before+1, first.Version, "the table one version on")
			for i, r := range res {
				switch {
				case errs[i] == nil && r != first:
					require.Equal(t, acts[applied].ActionID, acts[i].ActionID, "copy %d: only the applied copy's id replays", i)
					require.True(t, r.Replayed)
					require.Equal(t, first.Version, r.Version, "copy %d: the first answer", i)
					require.NotNil(t, r.Ack, "copy %d: acknowledged again, signed (Send checked it under the published key)", i)
				case errs[i] != nil:
					require.Equal(t, "already_revealed", codeOf(t, errs[i]), "copy %d", i)
				}
			}
			p := run.view(t, "p0").Trustless.Pending
			require.NotNil(t, p)
			require.Len(t, p.Reveals, 2, "p0's and p1's markers, once each")
			require.Equal(t, first.Version, run.view(t, "p0").Version, "nothing else applied")

			_, err = run.tt.Do(r2)
			require.NoError(t, err)
			closedOnce(t, run, 1)
			again, err := run.table(t, "p1").Send(context.Background(), acts[applied])
			require.NoError(t, err)
			require.True(t, again.Replayed)
			require.Equal(t, first.Version, again.Version, "the same answer after")
			other := r1
			other.ActionID = "r1-late"
			_, err = run.table(t, "p1").Send(context.Background(), other)
			require.Equal(t, "wrong_index", codeOf(t, err))
		})
	}
}

// closedOnce checks that the run's round index closed once, with one
// reveal per seat in seat order, and that no round is pending.
func closedOnce(t *testing.T, run *trustRun, index uint32) {
	t.Helper()
	v, err := run.tt.Tables["p0"].View(context.Background(), 0)
	require.NoError(t, err)
	closed := 0
	for _, e := range v.Log {
		if e.Type == "RoundClosed" && e.Vals["index"] == int64(index) {
			closed++
		}
	}
	require.Equal(t, 1, closed, "RoundClosed once")
	tv := mustTrust(t, v)
	require.Nil(t, tv.Pending)
	require.Len(t, tv.Moves, 1)
	require.Equal(t, index, tv.Moves[0].Index)
	for j, r := range tv.Moves[0].Reveals {
		require.Equal(t, j, r.Seat)
	}
	require.Len(t, tv.Moves[0].Reveals, len(run.order))
}
