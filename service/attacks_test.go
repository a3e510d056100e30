package service_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/internal/trustlesstest"
	"github.com/fairboard/fairboard/player"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/service"
	"github.com/fairboard/fairboard/store"
)

// Attacks on the service's side of the trustless protocol (issue 26, part
// 4; docs/fairness.md, the threat model): a reveal or an action taken
// from another game, and one seat's reveal sent many times at once. Each
// "cannot happen" carries its control: the same thing where it should
// work does.

// twinTable seats uids in a new trustless game gameID with the keys and
// chain secrets of the seats of tb (another game): the same players
// bringing the same Ed25519 keys (and the same chain secrets, which the
// chain binds to the game: other heads) to a second table.
func twinTable(t *testing.T, tb *trustlesstest.Table, gameID string) *trustlesstest.Table {
	t.Helper()
	ctx := context.Background()
	tw := &trustlesstest.Table{Svc: tb.Svc, GameID: gameID, UIDs: tb.UIDs}
	_, err := tb.Svc.Do(ctx, gameID, engine.Action{Kind: engine.ActCreate, Actor: tb.UIDs[0], ID: "create", Mode: "trustless"})
	require.NoError(t, err)
	tw.Sync(t)
	for i, s := range tb.Seats {
		sec := s.Secrets()
		sec.GameID, sec.Revealed, sec.Digest = gameID, 0, engine.Hash32{}
		twin, err := player.RestoreSeat(tb.Svc.Rules(), sec)
		require.NoError(t, err)
		require.NoError(t, twin.Follow(tw.Log))
		require.Equal(t, s.PublicKey(), twin.PublicKey(), "the same key in both games")
		require.NotEqual(t, s.Head(), twin.Head(), "the same chain secret makes another chain in another game")
		tw.Seats = append(tw.Seats, twin)
		a, err := twin.Join(engine.Classes[i], false, tw.State.Version)
		require.NoError(t, err)
		a.ID = "join"
		_, err = tb.Svc.Do(ctx, gameID, a)
		require.NoError(t, err)
		tw.Sync(t)
	}
	return tw
}

// snapshot is everything of a game the store keeps that an attack could
// change: its document, its open round's staged reveals, its applied
// actions.
func snapshot(t *testing.T, m *store.Memory, gameID string, index uint32) string {
	t.Helper()
	ctx := context.Background()
	p, err := m.Game(ctx, gameID)
	require.NoError(t, err)
	staged, err := m.Staged(ctx, gameID, index)
	require.NoError(t, err)
	applied, err := m.Applied(ctx, gameID)
	require.NoError(t, err)
	b, err := json.Marshal([]any{p, staged, applied})
	require.NoError(t, err)
	return string(b)
}

// TestCrossGameReplayRefused: p1 plays two trustless games, A and B, with
// the same Ed25519 key (and the same chain secret). Its start signed for
// A, sent to B at the same version, is bad_signature; its reveal of A's
// index 1, sent to B (whose index 1 is pending too), is wrong_digest (A's
// digest names A), and with B's digest and transcript put in its place
// (all a replayer can change) bad_signature: both signatures cover the
// game id. Nothing of B changes. The controls: the same start and the same
// reveal sent to A are accepted, and the reveal's signature verifies over
// A's message and not over the same message with B's id. The positive
// controls (trustlesstest.CrossGameReplays): with the checks that refuse a replay off,
// it is refused by the next one, or taken into B.
func TestCrossGameReplayRefused(t *testing.T) {
	svc, mem, _ := tlService(t)
	ctx := context.Background()
	a := trustlesstest.New(t, svc, "tl-atk-a", []string{"p1", "p2"}, 0)
	b := twinTable(t, a, "tl-atk-b")
	require.Equal(t, a.State.Version, b.State.Version, "both games wait for the start at the same version")

	// An action: A's start, sent to B.
	start := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: a.State.Version, ID: "start"}
	require.NoError(t, a.Seats[0].Sign(&start))
	before := snapshot(t, mem, b.GameID, 1)
	replayed := start
	replayed.ID = "replayed-start"
	_, err := svc.Do(ctx, b.GameID, replayed)
	require.ErrorIs(t, err, engine.CodeBadSignature, "A's start in B")
	require.Equal(t, before, snapshot(t, mem, b.GameID, 1), "B unchanged")
	_, err = svc.Do(ctx, a.GameID, start) // control
	require.NoError(t, err, "A's start in A")
	a.Sync(t)
	require.NotNil(t, a.State.Trustless.Pending)
	b.Start(t)
	require.EqualValues(t, 1, b.State.Trustless.Pending.Index)
	require.NotEqual(t, a.State.Trustless.Pending.Digest, b.State.Trustless.Pending.Digest, "the digest names the game")

	// A reveal: p1's for A's index 1, sent to B as it is, then with B's
	// digest and transcript.
	rv, err := a.Seats[0].Reveal(a.State, 0)
	require.NoError(t, err)
	rv.ID = "r1"
	before = snapshot(t, mem, b.GameID, 1)
	replayedRv := rv
	replayedRv.ID = "replayed-r1" // B's own reveal will be r1
	_, err = svc.Reveal(ctx, b.GameID, replayedRv)
	require.ErrorIs(t, err, engine.CodeWrongDigest, "A's reveal in B")
	moved := rv
	moved.ID = "r1-moved"
	moved.Digest, moved.Transcript = b.State.Trustless.Pending.Digest.String(), b.State.Trustless.Pending.Transcript.String()
	_, err = svc.Reveal(ctx, b.GameID, moved)
	require.ErrorIs(t, err, engine.CodeBadSignature, "A's reveal in B, over B's pending action")
	require.Equal(t, before, snapshot(t, mem, b.GameID, 1), "B unchanged")

	// The controls: the signature is good for A's message only, and A
	// takes the reveal.
	key := a.Seats[0].PublicKey()
	pub := ed25519.PublicKey(key[:])
	sig, err := hex.DecodeString(rv.Signature)
	require.NoError(t, err)
	pd := a.State.Trustless.Pending
	require.True(t, ed25519.Verify(pub, trustless.RevealMessage(a.GameID, 1, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript)), sig))
	require.False(t, ed25519.Verify(pub, trustless.RevealMessage(b.GameID, 1, (*[32]byte)(&pd.Digest), (*[32]byte)(&pd.Transcript)), sig))
	res, err := svc.Reveal(ctx, a.GameID, rv)
	require.NoError(t, err, "A's reveal in A")
	require.True(t, res.Staged)
	// B's own round still closes with B's own reveals.
	b.Round(t)
	require.Nil(t, b.State.Trustless.Pending)

	crossGameControls(t)
}

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
func TestConcurrentDuplicateReveals(t *testing.T) {
	for _, distinct := range []bool{false, true} {
		t.Run(fmt.Sprint("distinctIDs=", distinct), func(t *testing.T) {
			svc, mem, _ := tlService(t)
			ctx := context.Background()
			tb := trustlesstest.New(t, svc, "tl-atk-dup", []string{"p1", "p2", "p3"}, 0)
			tb.Start(t)
			v := tb.State.Version
			// Staged: p1's reveal, 8 at once.
			rv, err := tb.Seats[0].Reveal(tb.State, 0)
			require.NoError(t, err)
			res, errs := sendAll(svc, tb.GameID, rv, 8, "r1", distinct)
			require.Equal(t, 1, firsts(t, res, errs, engine.CodeAlreadyRevealed), "one copy is the reveal")
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
		})
	}
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

// firsts checks the answers of concurrent copies of one reveal: each is
// an answer (replayed, for all but the first, which it returns the count
// of) or one of the named refusals allowed, never another error.
func firsts(t *testing.T, res []*service.Result, errs []error, allowed ...engine.Code) int {
	t.Helper()
	n := 0
	for k, err := range errs {
		if err != nil {
			ok := false
			for _, c := range allowed {
				ok = ok || errors.Is(err, c)
			}
			require.True(t, ok, "copy %d: %v, want an answer or one of %v", k, err, allowed)
			continue
		}
		if !res[k].Replayed {
			n++
		}
	}
	return n
}
