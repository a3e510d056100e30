package integration

import (
	"context"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/internal/checks"
)

// twinGames creates trustless game idA with ps seated, and game idB with
// the same players bringing the same keys and chain secrets (the chain
// binds them to B: other heads), both waiting for their start at the same
// version.
func twinGames(t *testing.T, e *env, ps []functest.Player, idA, idB string) (a, b *functest.Table) {
	t.Helper()
	ctx := context.Background()
	a, err := functest.NewTable(ctx, e.c, idA, ps, eng.Rules(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b = &functest.Table{C: e.c, ID: idB, Players: ps}
	if err := b.Call(ctx, "createGame", 0, map[string]any{"actionId": "create", "mode": "trustless"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	for i, s := range a.Seats {
		sec := s.Secrets()
		sec.GameID = b.ID
		twin, err := player.RestoreSeat(eng.Rules(), sec)
		if err != nil {
			t.Fatal(err)
		}
		if err := twin.Follow(b.Log); err != nil {
			t.Fatal(err)
		}
		b.Seats = append(b.Seats, twin)
		j, err := twin.Join(ps[i].Seat.Class, false, b.State.Version)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Call(ctx, "joinGame", i, map[string]any{"actionId": "join", "seat": i, "class": j.Class, "chainHead": j.ChainHead,
			"publicKey": j.PublicKey, "version": j.Version, "signature": j.Signature}, nil); err != nil {
			t.Fatal(err)
		}
		if err := b.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if a.State.Version != b.State.Version {
		t.Fatalf("A waits for its start at version %d, B at %d", a.State.Version, b.State.Version)
	}
	return a, b
}

// startBoth has p1 sign A's start, send it to A, and start B with its own.
func startBoth(t *testing.T, a, b *functest.Table) {
	t.Helper()
	ctx := context.Background()
	for _, tb := range []*functest.Table{a, b} {
		if err := tb.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
			t.Fatal(err)
		}
		if err := tb.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCrossGameReplayThroughTheFunctions: the service's
// TestCrossGameReplayRefused through the functions on Firestore: p1 and
// p2 sit at games A and B with the same keys and chain secrets. A's start,
// signed by p1, sent to B is bad_signature; p1's reveal of A's index 1
// sent to B is wrong_digest, and with B's digest and transcript
// bad_signature; B's game document keeps its version and nothing is
// staged in it. The controls: the start and the reveal are A's, which
// takes them; and, with the checks that refuse each replay switched off
// (trustlesstest.CrossGameReplays, its positive controls), the replay is
// refused by the next check or taken into B.
func TestCrossGameReplayThroughTheFunctions(t *testing.T) {
	emu.Require(t)
	ctx := context.Background()
	e := newEnv(t, nil)
	ps := players(t, 2)
	a, b := twinGames(t, e, ps, "tl-xg-a", "tl-xg-b")
	unchanged := func(what string, version uint64) {
		t.Helper()
		if err := b.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		staged, err := e.st.Staged(ctx, b.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		if b.State.Version != version || len(staged) != 0 {
			t.Fatalf("%s: B at version %d (was %d), %d staged", what, b.State.Version, version, len(staged))
		}
	}

	start := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: a.State.Version}
	if err := a.Seats[0].Sign(&start); err != nil {
		t.Fatal(err)
	}
	v := b.State.Version
	err := b.Call(ctx, "startGame", 0, map[string]any{"actionId": "replayed", "version": start.Version, "signature": start.Signature}, nil)
	if engineCode(err) != string(engine.CodeBadSignature) {
		t.Fatalf("A's start in B: %v, want bad_signature", err)
	}
	unchanged("A's start in B", v)
	if err := a.Call(ctx, "startGame", 0, map[string]any{"actionId": "start", "version": start.Version, "signature": start.Signature}, nil); err != nil {
		t.Fatalf("A's start in A: %v", err)
	}
	if err := a.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Act(ctx, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(ctx); err != nil {
		t.Fatal(err)
	}

	rv, err := a.Reveal(0)
	if err != nil {
		t.Fatal(err)
	}
	v = b.State.Version
	err = b.Call(ctx, "reveal", 0, functest.RevealData(rv, "replayed-r1"), nil)
	if engineCode(err) != string(engine.CodeWrongDigest) {
		t.Fatalf("A's reveal in B: %v, want wrong_digest", err)
	}
	moved := rv
	pd := b.State.Trustless.Pending
	moved.Digest, moved.Transcript = pd.Digest.String(), pd.Transcript.String()
	err = b.Call(ctx, "reveal", 0, functest.RevealData(moved, "replayed-moved"), nil)
	if engineCode(err) != string(engine.CodeBadSignature) {
		t.Fatalf("A's reveal in B over B's pending action: %v, want bad_signature", err)
	}
	unchanged("A's reveal in B", v)
	if err := a.SendReveal(ctx, 0, rv); err != nil {
		t.Fatalf("A's reveal in A: %v", err)
	}

	// The positive controls, each on a fresh pair of games.
	for k, c := range trustlesstest.CrossGameReplays {
		t.Run(c.Name, func(t *testing.T) {
			for _, x := range c.Off {
				checks.Off(t, x)
			}
			a, b := twinGames(t, e, ps, fmt.Sprint("tl-xgc-a", k), fmt.Sprint("tl-xgc-b", k))
			v := b.State.Version
			if !c.Reveal {
				start := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: a.State.Version}
				if err := a.Seats[0].Sign(&start); err != nil {
					t.Fatal(err)
				}
				err := b.Call(ctx, "startGame", 0, map[string]any{"actionId": "replayed", "version": start.Version, "signature": start.Signature}, nil)
				if err != nil {
					t.Fatalf("with %v off, A's start in B: %v, want it taken", c.Off, err)
				}
				if err := b.Sync(ctx); err != nil {
					t.Fatal(err)
				}
				if b.State.Version == v || b.State.Trustless.Pending == nil {
					t.Fatalf("with %v off, B not started by A's start (version %d, was %d)", c.Off, b.State.Version, v)
				}
				return
			}
			startBoth(t, a, b)
			rv, err := a.Reveal(0)
			if err != nil {
				t.Fatal(err)
			}
			if c.Moved {
				pd := b.State.Trustless.Pending
				rv.Digest, rv.Transcript = pd.Digest.String(), pd.Transcript.String()
			}
			err = b.Call(ctx, "reveal", 0, functest.RevealData(rv, "replayed-r1"), nil)
			staged, serr := e.st.Staged(ctx, b.ID, 1)
			if serr != nil {
				t.Fatal(serr)
			}
			if c.Then != "" {
				if engineCode(err) != string(c.Then) || len(staged) != 0 {
					t.Fatalf("with %v off, A's reveal in B: %v, %d staged; want %s (the next check) and nothing staged", c.Off, err, len(staged), c.Then)
				}
				return
			}
			if err != nil || len(staged) != 1 || staged[0].Actor != "p1" || staged[0].Link != rv.Link {
				t.Fatalf("with %v off, A's reveal in B: %v, staged %v; want A's reveal staged as p1's", c.Off, err, staged)
			}
		})
	}
}
