package dungeonclient_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng"
)

// TestHostileServerCaught: a server that lies, in each way of the issue,
// is caught by every honest client it lies to, which stops and names what
// diverged (a *client.Lie): it asks for a later index than the log's
// pending action uses; it applies an action with other randomness (a die
// the round's R_v does not make); it changes a past event; it applies an
// action no seat signed; it replaces a pending action by another in the
// game document; it shows two clients two different pending actions, both
// signed by their actor (who signed twice), and the round never
// completes: each client sees the other's reveal signed over another
// action, and says so. The honest double, with no lie, is played to its
// end by the same clients (the control).
//
// Each lie names the check that catches it, and runs once more with that
// check switched off (its positive control, "<lie>Control"): then the
// clients must not all report the lie with its message (they believe it
// and play on, or a later check names it otherwise), so the message the
// test wants is that check's doing (docs/testing.md, "Positive
// controls").
func TestHostileServerCaught(t *testing.T) {
	type lie struct {
		name string
		// setup sets the lie up; it may return a hook that gets the
		// clients once they are seated, before they play.
		setup func(d *double) func(cs []*dungeonclient.Client)
		want  string       // in every client's Lie
		check checks.Check // the check that catches it
	}
	lies := []lie{
		{"laterIndex", func(d *double) func([]*dungeonclient.Client) {
			d.view = func(d *double, uid string, v *view) {
				if t := v.State.Trustless; t != nil && t.Pending != nil && t.Pending.Index >= 2 {
					t.Pending.Index++
				}
			}
			return nil
		}, "the server asks for index", checks.ShownIndex},
		{"otherRandomness", func(d *double) func([]*dungeonclient.Client) {
			var seq uint64
			d.view = func(d *double, uid string, v *view) {
				if r := first(v.Events, 0, func(e *engine.Event) bool { return e.Type == engine.EvRoundRevealed && e.Trust.Index >= 2 }); seq == 0 && r > 0 {
					seq = first(v.Events, r, func(e *engine.Event) bool { return e.Type == engine.EvDiceRolled })
				}
				rewrite(v, seq, func(e *engine.Event) { e.Value = e.Value%e.Sides + 1 })
			}
			return nil
		}, "the replay makes", checks.ReplaySame},
		{"pastEventChanged", func(d *double) func([]*dungeonclient.Client) {
			d.view = func(d *double, uid string, v *view) {
				if len(v.Events) > 40 {
					// Sent again with the next events, changed.
					e := v.Events[2]
					e.Class = engine.ClassScout
					v.Resend = []engine.Event{e}
				}
			}
			return nil
		}, "a past event changed", checks.PastEvent},
		{"unsignedAction", func(d *double) func([]*dungeonclient.Client) {
			var seq uint64
			_, forger, _ := ed25519.GenerateKey(nil)
			d.view = func(d *double, uid string, v *view) {
				if r := first(v.Events, 0, func(e *engine.Event) bool { return e.Type == engine.EvRoundRevealed }); seq == 0 && r > 0 {
					seq = first(v.Events, r, func(e *engine.Event) bool { return e.Type == engine.EvActionAccepted })
				}
				rewrite(v, seq, func(e *engine.Event) {
					msg, _ := engine.ActionMessage(d.g.Public.GameID, e.Trust.Action)
					e.Trust.Signature = hex.EncodeToString(ed25519.Sign(forger, msg))
				})
			}
			return nil
		}, "bad_signature", checks.ActionSignature},
		{"pendingReplaced", func(d *double) func([]*dungeonclient.Client) {
			d.view = func(d *double, uid string, v *view) {
				if t := v.State.Trustless; t != nil && t.Pending != nil && t.Pending.Index >= 2 {
					t.Pending.Digest[0] ^= 1
					t.Pending.Action.Kind = engine.ActSleep
				}
			}
			return nil
		}, "another pending action", checks.ShownPending},
		{"splitPending", splitPending, "the server shows the seats different games", checks.MarkDigest},
	}
	for _, l := range lies {
		t.Run(l.name, func(t *testing.T) {
			d, url := newDouble(t)
			_, errs := playDouble(t, d, url, 3, l.setup(d))
			for i, err := range errs {
				var lie *client.Lie
				require.True(t, errors.As(err, &lie), "%s's client: %v, want a lie", policy.UID(i), err)
				require.Contains(t, lie.What, l.want, "%s's client", policy.UID(i))
				t.Logf("%s: %s", policy.UID(i), lie.What)
			}
		})
		t.Run(l.name+"Control", func(t *testing.T) {
			checks.Off(t, l.check)
			d, url := newDouble(t)
			_, errs := playDouble(t, d, url, 3, l.setup(d))
			caught := 0
			for i, err := range errs {
				var lie *client.Lie
				if errors.As(err, &lie) && strings.Contains(lie.What, l.want) {
					caught++
				}
				t.Logf("%s, with %s off: %.160v", policy.UID(i), l.check, err)
			}
			require.Less(t, caught, len(errs), "with %s off, every client still names the lie %q: the check is not what catches it", l.check, l.want)
		})
	}
	t.Run("honest", func(t *testing.T) {
		d, url := newDouble(t)
		_, errs := playDouble(t, d, url, 3, nil)
		for i, err := range errs {
			require.NoError(t, err, "%s's client", policy.UID(i))
		}
		require.Equal(t, engine.PhaseFinished, d.g.Public.Phase)
	})
}

// splitPending shows p2 a start by p1 other than the one p1's client sent
// (p1 signed both: its client's start, and one with keepSmokeBomb set,
// which the engine takes and which draws just the same), and takes every
// reveal itself, never closing the round. It shows the reveals as markers
// once every seat has revealed: shown as they came, the marker of a seat
// that revealed first would stop the other side's clients before they
// revealed (a marker over another digest is a lie they name at once), and
// the first seat could never tell more than that the round waits, which
// is what a slow seat looks like too (under load, the order varies).
// A client that believes the lie (a positive control) waits for the round
// for ever: once every client has read the markers and asked again three
// times, the play is stopped.
func splitPending(d *double) func([]*dungeonclient.Client) {
	var y engine.Action
	var alt *engine.Game
	var altLog []engine.Event
	var held []store.Mark
	after := map[string]int{} // getView answers since every marker shows, by reader
	d.view = func(d *double, uid string, v *view) {
		if d.marks != nil {
			after[uid]++
			waiting := len(after) == len(d.g.Public.Players)
			for _, n := range after {
				waiting = waiting && n > 3
			}
			if waiting {
				d.stop()
			}
		}
		pd := d.g.Public.Trustless
		if alt == nil && pd != nil && pd.Pending != nil && pd.Pending.Index == 1 {
			// The game before the start (the log without the start's one
			// event, ActionPending), and the other start applied to it.
			n := len(d.log) - 1
			f := player.NewFollower(engine.DefaultRules())
			if err := f.Follow(d.log[:n]); err != nil {
				d.t.Error(err)
				return
			}
			g := f.Game().Clone()
			a := y
			a.At = pd.Pending.Action.At
			ev, err := eng.Dispatch(g, &a, mustStream(d.t, g, &a), nil)
			if err != nil {
				d.t.Error(err)
				return
			}
			alt, altLog = g, append(slices.Clone(d.log[:n]), ev...)
		}
		if alt != nil && uid == "p2" {
			v.State, v.Events = *clonePublic(&alt.Public), slices.Clone(altLog)
		}
	}
	d.reveal = func(d *double, uid string, a engine.Action) bool {
		held = append(held, store.MarkOf(&a))
		if len(held) == len(d.g.Public.Players) {
			d.marks = held
		}
		return true
	}
	return func(cs []*dungeonclient.Client) {
		// p1's second signature, over a start at the version its
		// client's start is made against (after create and 3 joins).
		y = engine.Action{Kind: engine.ActStart, Actor: "p1", Version: 4, KeepSmokeBomb: true}
		if err := cs[0].Seat().Sign(&y); err != nil {
			d.t.Fatal(err)
		}
	}
}

func mustStream(t *testing.T, g *engine.Game, a *engine.Action) *rng.Stream {
	s, err := session.StreamFor(g, a)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// playDouble seats n polling clients on the double and plays until every
// client has stopped (the game's end, a lie, or 60 s); seen, if not nil,
// gets the clients once they are seated. It returns each client's error.
func playDouble(t *testing.T, d *double, url string, n int, seen func([]*dungeonclient.Client)) ([]*dungeonclient.Client, []error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d.mu.Lock()
	d.stop = cancel
	d.mu.Unlock()
	require.NoError(t, devFunctions(url, "p1").Call(ctx, "createGame", map[string]any{"gameId": "tl-double", "mode": "trustless"}, nil))
	ss := seats(n)
	dir := t.TempDir()
	cs := make([]*dungeonclient.Client, n)
	for i := range n {
		uid := policy.UID(i)
		c, err := dungeonclient.Join(ctx, dungeonclient.Config{Functions: devFunctions(url, uid), UID: uid, GameID: "tl-double",
			SecretsFile: filepath.Join(dir, uid+".json"), Retry: 10 * time.Millisecond, PollEvery: 5 * time.Millisecond}, i, ss[i].Class, false)
		require.NoError(t, err)
		cs[i] = c
	}
	if seen != nil {
		seen(cs)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Play(ctx, ss[i].Policy, func(p *engine.Public) bool { return len(p.Players) == n })
		}()
	}
	wg.Wait()
	return cs, errs
}
