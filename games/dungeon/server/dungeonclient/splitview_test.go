package dungeonclient_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
)

// The attack of issue 26, part 4, on the clients through the double of
// hostile_test.go: the seats shown two different pending actions in the
// middle of a game.

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
// double then aborts (the game over sooner). A client that believes the
// split (MarkDigest's positive control) waits for the round for ever: once
// every client has read the markers and asked again three times, the play
// is stopped. It returns the index split (0 until then) and the victim.
func splitMidGame(d *double, split bool) (func([]*dungeonclient.Client), *uint32, *string) {
	keys := map[string]ed25519.PrivateKey{}
	var target uint32
	var victim string
	var altState *engine.Public
	var altLog []engine.Event
	var held []engine.Action
	after := map[string]int{} // getView answers since every marker shows, by reader
	d.view = func(d *double, uid string, v *view) {
		if split && d.marks != nil {
			after[uid]++
			waiting := len(after) == len(d.g.Public.Players)
			for _, n := range after {
				waiting = waiting && n > 3
			}
			if waiting {
				d.stop()
			}
		}
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
	return func(cs []*dungeonclient.Client) {
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
// never closes. The controls: the same server showing every seat the same
// action closes the round, and no client objects; and with the clients'
// comparison of a marker's action with the log's pending one switched off
// (checks.MarkDigest, its positive control), the split is named by no
// client: each reads the markers and waits for a round that never closes,
// until the play is stopped.
func TestSplitViewMidGame(t *testing.T) {
	for _, tc := range []struct {
		name       string
		split, off bool
	}{{"split", true, false}, {"control-same", false, false}, {"split without MarkDigest", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.off {
				checks.Off(t, checks.MarkDigest)
			}
			d, url := newDouble(t)
			seen, target, victim := splitMidGame(d, tc.split)
			_, errs := playDouble(t, d, url, 3, seen)
			require.GreaterOrEqual(t, *target, uint32(3))
			if !tc.split {
				for i, err := range errs {
					require.NoError(t, err, "%s's client", policy.UID(i))
				}
				require.NotZero(t, first(d.log, 0, func(e *engine.Event) bool { return e.Type == engine.EvRoundRevealed && e.Trust.Index == *target }),
					"the round closed")
				require.Equal(t, engine.PhaseFinished, d.g.Public.Phase, "the next round aborted")
				return
			}
			if tc.off {
				for i, err := range errs {
					var lie *client.Lie
					named := errors.As(err, &lie) && strings.Contains(lie.What, "the server shows the seats different games")
					require.False(t, named, "with MarkDigest off, %s's client still names the split: %v", policy.UID(i), err)
					t.Logf("%s, with MarkDigest off: %.160v", policy.UID(i), err)
				}
				require.NotNil(t, d.marks, "every seat revealed and the markers were shown")
				require.Equal(t, *target, d.g.Public.Trustless.Pending.Index, "the round never closed")
				return
			}
			for i, err := range errs {
				var lie *client.Lie
				require.ErrorAs(t, err, &lie, "%s's client", policy.UID(i))
				require.Contains(t, lie.What, "the server shows the seats different games", "%s's client", policy.UID(i))
				require.Contains(t, lie.What, fmt.Sprintf("revealed index %d ", *target))
				t.Logf("%s%s: %s", policy.UID(i), map[bool]string{true: " (the victim)"}[policy.UID(i) == *victim], lie.What)
			}
			require.Equal(t, *target, d.g.Public.Trustless.Pending.Index, "the round never closed")
		})
	}
}
