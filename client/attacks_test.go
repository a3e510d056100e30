package client_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/player"
	"github.com/fairboard/fairboard/store"
)

// Attacks of issue 26, part 4, on the clients through the double of
// hostile_test.go: a reveal acknowledged, dropped, then blamed; the seats
// shown two different pending actions in the middle of a game.

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
// p2's client stops with a *client.Dropped (a lie too) that cites the
// acknowledgement: the index, the digest it revealed for, the call and
// when it was answered; the other seats see a game aborted by a staller
// (they cannot tell). The control: the same abort of a seat whose reveal
// the server refused (never acknowledged) is an abort its client accepts.
func TestDroppedThenBlamed(t *testing.T) {
	for _, acked := range []bool{true, false} {
		name := map[bool]string{true: "acknowledged", false: "control-refused"}[acked]
		t.Run(name, func(t *testing.T) {
			d, url := newDouble(t)
			var target atomic.Uint32
			abortOnceOthersRevealed(d, &target)
			if acked {
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
			var dropped *client.Dropped
			if !acked {
				require.NoError(t, errs[1], "a seat the server never acknowledged has nothing to show")
				require.False(t, errors.As(errs[1], &dropped))
				if a := cs[1].LastAck(); a != nil {
					require.Less(t, a.Index, i, "no acknowledgement of the index refused")
				}
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
			t.Logf("%s: %s", bot.UID(1), lie.What)
			require.Equal(t, dropped.Ack, *cs[1].LastAck())
			require.True(t, strings.HasPrefix(dropped.Ack.ActionID, "reveal-"))
		})
	}
}

// splitMidGame shows one seat (the victim: the first that is not the
// actor) another pending action than the others at the first index from
// 3 on: the actor's own action with one field its signature covers
// changed (keepSmokeBomb, which the engine takes on any action and which
// draws just the same), signed by the actor too (the server holds a
// second signature: the test signs it with the actor's key, as a client
// tricked or colluding would). Every marker of that index is held until
// every seat has revealed (shown as they came, the first marker over the
// other action would stop the other side before it revealed), then all
// are shown. With split false (the control) the victim is shown the same
// action as the others, and the held reveals are then staged honestly:
// the round closes and the game goes on to the next round, which the
// double then aborts (the game over sooner). It returns the index split (0
// until then) and the victim.
func splitMidGame(d *double, split bool) (func([]*client.Client), *uint32, *string) {
	keys := map[string]ed25519.PrivateKey{}
	var target uint32
	var victim string
	var altState *engine.Public
	var altLog []engine.Event
	var held []engine.Action
	d.view = func(d *double, uid string, v *view) {
		t := d.g.Public.Trustless
		if target == 0 && t != nil && t.Pending != nil && t.Pending.Index >= 3 {
			target = t.Pending.Index
			actor := t.Pending.Action.Actor
			for _, u := range []string{"p1", "p2", "p3"} {
				if u != actor && victim == "" {
					victim = u
				}
			}
			n := len(d.log) - 1
			if d.log[n].Type != engine.EvActionPending {
				d.t.Errorf("the log ends with %v, not the pending action", d.log[n].Type)
				return
			}
			f := player.NewFollower(engine.DefaultRules())
			if err := f.Follow(d.log[:n]); err != nil {
				d.t.Error(err)
				return
			}
			g := f.Game().Clone()
			alt := t.Pending.Action
			if split {
				alt.KeepSmokeBomb = !alt.KeepSmokeBomb
				msg, err := engine.ActionMessage(d.g.Public.GameID, &alt)
				if err != nil {
					d.t.Error(err)
					return
				}
				alt.Signature = hex.EncodeToString(ed25519.Sign(keys[actor], msg))
			} else {
				alt.Signature = t.Pending.Signature
			}
			ev, err := eng.Dispatch(g, &alt, mustStream(d.t, g, &alt), nil)
			if err != nil || ev[len(ev)-1].Type != engine.EvActionPending {
				d.t.Errorf("the other action: %v, %v", err, ev)
				return
			}
			altState, altLog = &g.Public, append(slices.Clone(d.log[:n]), ev...)
		}
		if target == 0 {
			return
		}
		if !split && t != nil && t.Pending != nil && t.Pending.Index > target {
			// The control has shown the round close and the game go on:
			// it ends there (the next round aborted), not at the game's end.
			abortNow(d)
			return
		}
		if uid == victim && altState != nil && d.g.Public.Trustless.Pending != nil && d.g.Public.Trustless.Pending.Index == target {
			v.State, v.Events = *clonePublic(altState), slices.Clone(altLog)
		}
		if len(held)+len(d.staged) < len(d.g.Public.Trustless.Seats) {
			v.Reveals = slices.DeleteFunc(v.Reveals, func(m store.Mark) bool { return m.Index == target })
		}
	}
	d.reveal = func(d *double, uid string, a engine.Action) bool {
		if target == 0 || a.Index != target {
			return false
		}
		held = append(held, a)
		if len(held)+len(d.staged) < len(d.g.Public.Trustless.Seats) {
			return true
		}
		if split {
			d.marks = nil
			for _, h := range held {
				d.marks = append(d.marks, store.MarkOf(&h))
			}
			return true
		}
		for _, h := range held {
			if _, err := d.stage(h); err != nil {
				d.t.Error(err)
			}
		}
		return true
	}
	return func(cs []*client.Client) {
		for _, c := range cs {
			sec := c.Seat().Secrets()
			keys[sec.UID] = ed25519.NewKeyFromSeed(sec.KeySeed[:])
		}
	}, &target, &victim
}

// TestSplitViewMidGame: at the first pending index from 3 on, the server
// shows one seat another pending action than the others', both signed by
// their actor; every seat reveals what it was shown, and once the markers
// are shown every client names the split (a *client.Lie: the server
// shows the seats different games), the victim's included; the round
// never closes. The control: the same server showing every seat the same
// action closes the round, and no client objects.
func TestSplitViewMidGame(t *testing.T) {
	for _, split := range []bool{true, false} {
		name := map[bool]string{true: "split", false: "control-same"}[split]
		t.Run(name, func(t *testing.T) {
			d, url := newDouble(t)
			seen, target, victim := splitMidGame(d, split)
			_, errs := playDouble(t, d, url, 3, seen)
			require.GreaterOrEqual(t, *target, uint32(3))
			if !split {
				for i, err := range errs {
					require.NoError(t, err, "%s's client", bot.UID(i))
				}
				require.NotZero(t, first(d.log, 0, func(e *engine.Event) bool { return e.Type == engine.EvRoundRevealed && e.Trust.Index == *target }),
					"the round closed")
				require.Equal(t, engine.PhaseFinished, d.g.Public.Phase, "the next round aborted")
				return
			}
			for i, err := range errs {
				var lie *client.Lie
				require.ErrorAs(t, err, &lie, "%s's client", bot.UID(i))
				require.Contains(t, lie.What, "the server shows the seats different games", "%s's client", bot.UID(i))
				require.Contains(t, lie.What, fmt.Sprintf("revealed index %d ", *target))
				t.Logf("%s%s: %s", bot.UID(i), map[bool]string{true: " (the victim)"}[bot.UID(i) == *victim], lie.What)
			}
			require.Equal(t, *target, d.g.Public.Trustless.Pending.Index, "the round never closed")
		})
	}
}
