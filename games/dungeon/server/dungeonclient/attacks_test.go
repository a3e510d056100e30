package dungeonclient_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/internal/checks"
)

// Attacks of issue 26, part 4, on the clients through the double of
// hostile_test.go: a reveal acknowledged, dropped, then blamed (the seats
// shown two different pending actions mid-game: splitview_test.go).

// abortOnceOthersRevealed has the double abort the round of index
// *target (0: none yet) once every seat but the one it lost has revealed
// it: their reveals applied (they came before the deadline), then the
// server's abort just after the deadline, which names the missing seat.
func abortOnceOthersRevealed(d *double, target *atomic.Uint32) {
	d.view = func(d *double, uid string, v *view) {
		t := d.g.Public.Trustless
		if target.Load() == 0 || t == nil || t.Pending == nil || t.Pending.Index != target.Load() || len(d.staged) < len(t.Seats)-1 {
			return
		}
		abortNow(d)
	}
}

// abortNow applies, on the double, the staged reveals of the open round
// (they came before its deadline) and then the server's abort just after
// the deadline, which names the seats missing (d.mu held).
func abortNow(d *double) {
	for _, s := range d.staged {
		ev, err := d.apply(&d.g, s)
		if err != nil {
			d.t.Error(err)
			return
		}
		d.log = append(d.log, ev...)
	}
	d.staged = nil
	d.now = d.g.Public.Trustless.Pending.Deadline
	ev, err := d.apply(&d.g, engine.Action{Kind: engine.ActAbort, Actor: engine.ServerActor})
	if err != nil {
		d.t.Error(err)
		return
	}
	d.log = append(d.log, ev...)
}

// refuser is the double behind a front that refuses p2's reveals of an
// index from 2 on with deadline_passed: the server never acknowledges
// them (it never has them), and the index refused is *target.
type refuser struct {
	d      *double
	target *atomic.Uint32
}

func (f refuser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(b))
	var q struct {
		Data struct {
			Index uint32 `json:"index"`
		} `json:"data"`
	}
	if r.URL.Path == "/reveal" && r.Header.Get("Authorization") == "Bearer dev:p2" && json.Unmarshal(b, &q) == nil && q.Data.Index >= 2 {
		f.target.CompareAndSwap(0, q.Data.Index)
		if q.Data.Index == f.target.Load() {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":{"status":"FAILED_PRECONDITION","message":"too late","details":{"code":"deadline_passed"}}}`))
			return
		}
	}
	f.d.ServeHTTP(w, r)
}

// TestDroppedThenBlamed: the server answers p2's reveal of an index with
// success (the staged reveal's answer), drops it, and, once the others
// have revealed, aborts the round at its deadline naming p2 as missing.
// p2's client stops with a *dungeonclient.Dropped (a lie too) that cites
// the acknowledgement: the index, the digest it revealed for, the call and
// when it was answered; the other seats see a game aborted by a staller
// (they cannot tell). The controls: the same abort of a seat whose reveal
// the server refused (never acknowledged) is an abort its client accepts;
// and with the client's comparison of the abort with the acknowledgement
// it holds switched off (checks.AckHeld, its positive control), the
// blamed client holds the acknowledgement of that index and takes the
// abort all the same.
func TestDroppedThenBlamed(t *testing.T) {
	for _, tc := range []struct {
		name       string
		acked, off bool
	}{{"acknowledged", true, false}, {"control-refused", false, false}, {"acknowledged without AckHeld", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.off {
				checks.Off(t, checks.AckHeld)
			}
			d, url := newDouble(t)
			var target atomic.Uint32
			abortOnceOthersRevealed(d, &target)
			if tc.acked {
				d.reveal = func(d *double, uid string, a engine.Action) bool {
					if uid != "p2" || a.Index < 2 {
						return false
					}
					target.CompareAndSwap(0, a.Index)
					return a.Index == target.Load() // answered as staged, kept nowhere
				}
			} else {
				srv := httptest.NewServer(refuser{d: d, target: &target})
				t.Cleanup(srv.Close)
				url = srv.URL
			}
			cs, errs := playDouble(t, d, url, 3, nil)
			i := target.Load()
			require.NotZero(t, i, "p2 revealed an index from 2 on")
			at := first(d.log, 0, func(e *engine.Event) bool { return e.Type == engine.EvGameAborted })
			require.NotZero(t, at)
			abort := d.log[at-1]
			require.Equal(t, i, abort.Trust.Index)
			require.Equal(t, []string{"p2"}, abort.Trust.Missing, "the server blames p2")
			require.NoError(t, errs[0], "p1 sees an abort")
			require.NoError(t, errs[2], "p3 sees an abort")
			var dropped *dungeonclient.Dropped
			if !tc.acked {
				require.NoError(t, errs[1], "a seat the server never acknowledged has nothing to show")
				require.False(t, errors.As(errs[1], &dropped))
				if a := cs[1].LastAck(); a != nil {
					require.Less(t, a.Index, i, "no acknowledgement of the index refused")
				}
				return
			}
			if tc.off {
				require.False(t, errors.As(errs[1], &dropped), "with AckHeld off, p2's client names no drop: %v", errs[1])
				require.NoError(t, errs[1], "with AckHeld off, p2's client takes the abort")
				require.NotNil(t, cs[1].LastAck())
				require.Equal(t, i, cs[1].LastAck().Index, "though it holds the acknowledgement of the index it is blamed for")
				return
			}
			require.ErrorAs(t, errs[1], &dropped, "p2's client")
			var lie *client.Lie
			require.ErrorAs(t, errs[1], &lie, "a drop is a lie")
			pending := first(d.log, 0, func(e *engine.Event) bool { return e.Type == engine.EvActionPending && e.Trust.Index == i })
			require.NotZero(t, pending)
			require.Equal(t, i, dropped.Ack.Index)
			require.Equal(t, d.log[pending-1].Trust.Digest.String(), dropped.Ack.Digest, "the ack names the round's digest")
			require.Equal(t, "reveal", dropped.Ack.Via)
			require.Equal(t, "deadline", dropped.Reason)
			require.False(t, dropped.Ack.At.IsZero())
			for _, s := range []string{"acknowledged", dropped.Ack.Digest, "reveal-", "missing"} {
				require.Contains(t, lie.What, s)
			}
			t.Logf("%s: %s", policy.UID(1), lie.What)
			require.Equal(t, dropped.Ack, *cs[1].LastAck())
			require.True(t, strings.HasPrefix(dropped.Ack.ActionID, "reveal-"))
		})
	}
}
