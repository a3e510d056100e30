package integration

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// roundInstances are n servers on the suite's emulator, each with its
// own store made with opts (two instances never share a per-game queue).
func roundInstances(t *testing.T, n int, opts ...fsstore.Option) []instance {
	t.Helper()
	out := make([]instance, n)
	for i := range out {
		e := newFaultyEnv(t, nil, nil, opts...)
		out[i] = instance{c: e.c, st: e.st}
	}
	return out
}

// closingShare plays bot games of n players until rounds random actions
// have had their round, each action with its actor's reveal and the
// other seats' reveals sent at once through their own instances (as
// BenchmarkTrustlessAction does, untimed), and returns how many rounds
// took a commit more than the reveals sent (a staging, then the round's
// close), counted by the stores' transactions, never by time.
func closingShare(t *testing.T, in []instance, n, rounds int, name string) (extra int) {
	ctx := context.Background()
	r := &trustlessRun{t: t, in: in, n: n, prefix: runID(name)}
	r.newGame(ctx)
	var lat latencies
	for r.roundsSeen < rounds {
		tb := r.tb
		if tb.State.Phase == engine.PhaseFinished {
			r.newGame(ctx)
			continue
		}
		seat := tb.Awaited()
		a := policy.Aggressive{}.Choose(&tb.State, eng.Rules(), tb.Players[seat].UID)
		if _, err := tb.ActRevealing(ctx, seat, a, fmt.Sprint("a", tb.State.Version)); err != nil {
			t.Fatalf("%s: %v", a.Kind, err)
		}
		if err := tb.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if tb.State.Trustless.Pending == nil {
			continue
		}
		r.round(ctx, &lat)
		if err := tb.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if tb.State.Trustless.Pending != nil && tb.State.Phase != engine.PhaseFinished {
			t.Fatalf("round %d still open after every seat revealed", tb.State.Trustless.Pending.Index)
		}
	}
	return r.extra
}

// TestRoundsCloseInTheLastRevealsCommit: with the other seats' reveals
// sent at once, each through its own instance, the round closes in one
// reveal's own commit (the round's closer, which waits for the others to
// be staged rather than staging itself) in every round, for 3, 4 and 6
// players: no round takes a commit more (a staging and then the close),
// counted by the stores' transactions. The closer's wait is bounded here
// by 5 s (under the service's 15 s store timeout) rather than
// DefaultRoundWait's 500 ms, so that the property does not depend on how
// fast a loaded machine stages the other reveals (with 500 ms, 2 of 20
// rounds fell back under a load of 15 on two cores), and the wait ends
// with a direct read of the staged reveals (a listener that lags does
// not make the closer stage); the share under real timing is
// BenchmarkTrustlessAction's extra-commit-share. The same games with the wait off
// (fsstore.WithRoundWait(0): every reveal that finds the round incomplete
// stages, as before) are measured beside them and logged, not asserted:
// how often their reveals meet is the machine's timing.
func TestRoundsCloseInTheLastRevealsCommit(t *testing.T) {
	emu.Require(t)
	if testing.Short() {
		t.Skip("plays 60 rounds on the emulator")
	}
	const rounds = 20
	for _, n := range []int{3, 4, 6} {
		t.Run(fmt.Sprintf("%dP", n), func(t *testing.T) {
			extra := closingShare(t, roundInstances(t, n, fsstore.WithRoundWait(5*time.Second)), n, rounds, fmt.Sprintf("last%d", n))
			before := closingShare(t, roundInstances(t, n, fsstore.WithRoundWait(0)), n, rounds, fmt.Sprintf("nowait%d", n))
			t.Logf("%d players: %d of %d rounds took a commit more (without the wait: %d of %d)", n, extra, rounds, before, rounds)
			if extra > 0 {
				t.Fatalf("%d of %d rounds took a commit more than the reveals sent; want none", extra, rounds)
			}
		})
	}
	// The closer's wait without its direct reads (fsstore.WithRoundPolls(0):
	// the listener alone, which also takes a staging later than the
	// reads): still no round takes a commit more.
	t.Run("6P-listener", func(t *testing.T) {
		const n, rounds = 6, 10
		extra := closingShare(t, roundInstances(t, n, fsstore.WithRoundWait(5*time.Second), fsstore.WithRoundPolls(0)), n, rounds, "listen6")
		if extra > 0 {
			t.Fatalf("%d of %d rounds took a commit more than the reveals sent; want none", extra, rounds)
		}
	})
}

// TestTamperedStagedRevealRefusedAtClose: a staged reveal is not
// verified again at the close when it carries the fingerprint of its
// check (engine.RevealFingerprint, kept in links/{id} as verified); one
// whose signature was changed in the store after it was staged no longer
// matches it, is verified again, and the close is refused (bad_signature,
// naming that seat's key): the round stays open. The positive control changes the signature and
// writes the fingerprint a writer of the store could compute for it: the
// close then takes it unverified (the skip is real; the fingerprint is an
// integrity check, not a secret), and the players' client, which verifies
// every signature the round publishes, refuses the game.
func TestTamperedStagedRevealRefusedAtClose(t *testing.T) {
	emu.Require(t)
	for _, control := range []bool{false, true} {
		t.Run(map[bool]string{false: "tampered", true: "control"}[control], func(t *testing.T) {
			ctx := context.Background()
			e := newEnv(t, nil)
			id := runID("tamper")
			tb, err := functest.NewTable(ctx, e.c, id, players(t, 3), eng.Rules(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := tb.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
				t.Fatal(err)
			}
			if err := tb.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			// seats 0 and 1 stage; seat 2, the round's closer, closes
			var first engine.Action
			for i := range 2 {
				a, err := tb.Reveal(i)
				if err != nil {
					t.Fatal(err)
				}
				if err := tb.SendReveal(ctx, i, a); err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = a
				}
			}
			ref := e.fc.Doc(fmt.Sprintf("games/%s/links/%020d-%03d", id, first.Index, first.Seat))
			snap, err := ref.Get(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var staged store.StagedReveal
			if err := store.FromDoc(snap.Data(), &staged); err != nil {
				t.Fatal(err)
			}
			if staged.Verified == "" || staged.Verified != engine.RevealFingerprint(&tb.State, &staged.Action) {
				t.Fatalf("the staged reveal keeps verified %q, not its fingerprint", staged.Verified)
			}
			forged := staged.Action
			sig := []byte(forged.Signature)
			sig[0] = "01"[map[bool]int{false: 1, true: 0}[sig[0] == '1']]
			forged.Signature = string(sig)
			ups := []firestore.Update{{FieldPath: firestore.FieldPath{"action", "signature"}, Value: forged.Signature}}
			if control {
				ups = append(ups, firestore.Update{Path: "verified", Value: engine.RevealFingerprint(&tb.State, &forged)})
			}
			if _, err := ref.Update(ctx, ups); err != nil {
				t.Fatal(err)
			}
			last, err := tb.Reveal(2)
			if err != nil {
				t.Fatal(err)
			}
			err = tb.SendReveal(ctx, 2, last)
			st, gerr := e.st.Game(ctx, id)
			if gerr != nil {
				t.Fatal(gerr)
			}
			open := st.Trustless.Pending != nil
			if !control {
				if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("does not verify under seat %d's key", first.Seat)) || !open {
					t.Fatalf("the close with a tampered staged reveal: %v; round open %v", err, open)
				}
				return
			}
			if err != nil || open {
				t.Fatalf("control: the close with the forged fingerprint: %v; round open %v", err, open)
			}
			if err := tb.Sync(ctx); err == nil {
				t.Fatal("control: the client took a round with a forged signature")
			}
		})
	}
}
