package service_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
)

// sendAll sends n copies of a at once (action id id, or id-k for the k-th
// when distinct) and returns their answers and errors.
func sendAll(svc *service.Service, gameID string, a engine.Action, n int, id string, distinct bool) ([]*service.Result, []error) {
	res, errs := make([]*service.Result, n), make([]error, n)
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for k := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := a
			c.ID = id
			if distinct {
				c.ID = fmt.Sprint(id, "-", k)
			}
			<-gate
			res[k], errs[k] = svc.Reveal(context.Background(), gameID, c)
		}()
	}
	close(gate)
	wg.Wait()
	return res, errs
}

// TestConcurrentDuplicateReveals: one seat's identical reveal sent by 8
// goroutines at once, under one action id (a client's retries) or 8
// (a replayer's copies). Staged: exactly one copy is staged, the game
// unchanged; the others get the first answer (replayed) or
// already_revealed. Closing: exactly one copy closes the round (one
// RoundRevealed, the game 3 versions on, one reveal of that seat listed
// as applied); the others get its answer (replayed) or a named refusal
// (already_revealed, or wrong_index once the round is closed). The
// control: copies of two seats' reveals sent at once stage both seats.
//
// Its positive control (8 action ids, with the service's StagedOnce and
// the engine's RevealOnce off): the staged copies are refused unnamed, as
// the store's contention, which the test's answer check names; one copy
// is staged all the same (the store keeps one staged document per seat
// and index) and the round closes once (its commit is conditional on the
// game document, and a closed round has nothing pending): what keeps a
// reveal from being applied twice is the store, which has no switch
// (docs/testing.md, "Not controlled"). Under one action id the copies are
// the first call's answer, from the store's record of that id, with the
// checks off as on.
func TestConcurrentDuplicateReveals(t *testing.T) {
	for _, distinct := range []bool{false, true} {
		t.Run(fmt.Sprint("distinctIDs=", distinct), func(t *testing.T) {
			duplicates(t, distinct, false)
		})
	}
	t.Run("distinctIDs=true without StagedOnce, RevealOnce", func(t *testing.T) {
		checks.Off(t, checks.StagedOnce)
		checks.Off(t, checks.RevealOnce)
		duplicates(t, true, true)
	})
	t.Run("control", func(t *testing.T) {
		// Copies of two seats' reveals, four each, all at once: both
		// seats are staged, once each (the one-of-eight above is not the
		// store dropping concurrent reveals). And a copy staged behind
		// the service's back is refused by the store itself (the staged
		// document is the seat's, for the index).
		svc, mem, _ := tlService(t)
		ctx := context.Background()
		tb := trustlesstest.New(t, svc, "tl-atk-dup", []string{"p1", "p2", "p3"}, 0)
		tb.Start(t)
		var rvs []engine.Action
		for i := range 2 {
			rv, err := tb.Seats[i].Reveal(tb.State, 0)
			require.NoError(t, err)
			rvs = append(rvs, rv)
		}
		var wg sync.WaitGroup
		gate := make(chan struct{})
		errs := make([]error, 8)
		for k := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := rvs[k%2]
				c.ID = fmt.Sprint("r1-", k)
				<-gate
				_, errs[k] = svc.Reveal(ctx, tb.GameID, c)
			}()
		}
		close(gate)
		wg.Wait()
		staged, err := mem.Staged(ctx, tb.GameID, 1)
		require.NoError(t, err)
		var who []string
		for _, s := range staged {
			who = append(who, s.Actor)
		}
		require.ElementsMatch(t, []string{"p1", "p2"}, who, "each seat staged once")
		c := rvs[0]
		c.ID, c.At = "behind", 1_760_000_000_500
		_, err = mem.Apply(ctx, store.Request{GameID: tb.GameID, Actor: c.Actor, Kind: engine.ActReveal, Staging: true},
			func(*engine.Game, []engine.Action) (store.Outcome, error) { return store.Outcome{Stage: &c}, nil })
		require.ErrorContains(t, err, "staged already")
	})
}

// duplicates plays TestConcurrentDuplicateReveals' two rounds of copies
// on a fresh game; off: the once-checks are off (its positive control),
// and the staged copies must be refused as the store's contention.
func duplicates(t *testing.T, distinct, off bool) {
	svc, mem, _ := tlService(t)
	ctx := context.Background()
	tb := trustlesstest.New(t, svc, "tl-atk-dup", []string{"p1", "p2", "p3"}, 0)
	tb.Start(t)
	v := tb.State.Version
	// Staged: p1's reveal, 8 at once.
	rv, err := tb.Seats[0].Reveal(tb.State, 0)
	require.NoError(t, err)
	res, errs := sendAll(svc, tb.GameID, rv, 8, "r1", distinct)
	if off {
		un := unnamed(res, errs, engine.CodeAlreadyRevealed)
		require.NotEmpty(t, un, "with the once-checks off, the test's answer check names copies refused otherwise")
		for _, err := range un {
			require.ErrorIs(t, err, store.ErrContention, "refused by the store's one staged document per seat")
		}
		t.Logf("%d of 8 copies refused by the store alone: %v", len(un), un[0])
	} else {
		require.Equal(t, 1, firsts(t, res, errs, engine.CodeAlreadyRevealed), "one copy is the reveal")
	}
	staged, err := mem.Staged(ctx, tb.GameID, 1)
	require.NoError(t, err)
	require.Len(t, staged, 1, "one staged")
	tb.Sync(t)
	require.Equal(t, v, tb.State.Version, "the game unchanged")

	// Closing: p2 staged, then p3's reveal, 8 at once.
	_, err = tb.Reveal(t, 1)
	require.NoError(t, err)
	rv, err = tb.Seats[2].Reveal(tb.State, 0)
	require.NoError(t, err)
	res, errs = sendAll(svc, tb.GameID, rv, 8, "r1", distinct)
	require.Equal(t, 1, firsts(t, res, errs, engine.CodeAlreadyRevealed, engine.CodeWrongIndex), "one copy closes the round")
	closer := 0
	for k := range res {
		if res[k] != nil && !res[k].Replayed {
			closer = k
		}
	}
	require.False(t, res[closer].Staged, "the first copy closes the round")
	require.Equal(t, engine.EvRoundRevealed, res[closer].Events[0].Type)
	tb.Sync(t)
	rounds := 0
	for _, e := range tb.Log {
		if e.Type == engine.EvRoundRevealed {
			rounds++
		}
	}
	require.Equal(t, 1, rounds, "the round closed once")
	require.Nil(t, tb.State.Trustless.Pending)
	require.Equal(t, v+3, tb.State.Version, "three reveals applied, each once")
	applied, err := mem.Applied(ctx, tb.GameID)
	require.NoError(t, err)
	per := map[string]int{}
	for _, x := range applied {
		if x.Action.Kind == engine.ActReveal {
			per[x.Action.Actor]++
		}
	}
	require.Equal(t, map[string]int{"p1": 1, "p2": 1, "p3": 1}, per, "each seat's reveal applied once")
}

// unnamed returns the errors of concurrent copies of one reveal that are
// none of the named refusals allowed.
func unnamed(res []*service.Result, errs []error, allowed ...engine.Code) []error {
	var out []error
	for _, err := range errs {
		ok := err == nil
		for _, c := range allowed {
			ok = ok || errors.Is(err, c)
		}
		if !ok {
			out = append(out, err)
		}
	}
	return out
}

// firsts checks the answers of concurrent copies of one reveal: each is
// an answer (replayed, for all but the first, which it returns the count
// of) or one of the named refusals allowed, never another error.
func firsts(t *testing.T, res []*service.Result, errs []error, allowed ...engine.Code) int {
	t.Helper()
	require.Empty(t, unnamed(res, errs, allowed...), "copies answered neither with an answer nor with one of %v", allowed)
	n := 0
	for k, err := range errs {
		if err == nil && !res[k].Replayed {
			n++
		}
	}
	return n
}
