package service_test

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
)

// The service's side of the trustless protocol on the in-memory store
// (the functions' tests and client/e2e run the same through HTTP and on
// the emulators): staging, the close by the last reveal, an action with
// its reveal, a complete round closed by the next look at the game, the
// deadline's abort. A clock the test moves: a millisecond more at each
// reading.

type clock struct{ ms atomic.Int64 }

func (c *clock) now() time.Time { return time.UnixMilli(c.ms.Add(1)) }

func tlService(t *testing.T) (*service.Service, *store.Memory, *clock) {
	t.Helper()
	c := &clock{}
	c.ms.Store(1_760_000_000_000)
	m := store.NewMemory()
	svc := service.New(service.Config{Store: m, Engine: eng, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		AbortGrace: 2 * time.Second, Now: c.now})
	return svc, m, c
}

// TestRevealsStagedThenTheLastClosesTheRound: of a round of 3, the first
// two reveals are staged (the game unchanged, their answers staged, no
// events) and the third closes the round in its own commit (its answer
// the round's events, RoundRevealed first, in the order they came).
func TestRevealsStagedThenTheLastClosesTheRound(t *testing.T) {
	svc, _, _ := tlService(t)
	tb := trustlesstest.New(t, svc, "tl-svc-round", []string{"p1", "p2", "p3"}, 0)
	tb.Start(t)
	v := tb.State.Version
	for i := range 2 {
		res, err := tb.Reveal(t, i)
		require.NoError(t, err)
		require.True(t, res.Staged, "reveal %d", i)
		require.Empty(t, res.Events)
		require.Equal(t, v, tb.State.Version, "a staged reveal changes no game")
		require.NotNil(t, tb.State.Trustless.Pending)
	}
	res, err := tb.Reveal(t, 2)
	require.NoError(t, err)
	require.False(t, res.Staged, "the last reveal closes the round")
	require.NotEmpty(t, res.Events)
	require.Equal(t, engine.EvRoundRevealed, res.Events[0].Type)
	var who []string
	for _, r := range res.Events[0].Trust.Reveals {
		who = append(who, r.UID)
	}
	require.Equal(t, []string{"p1", "p2", "p3"}, who)
	require.Nil(t, tb.State.Trustless.Pending)
	require.Equal(t, v+3, tb.State.Version, "3 reveals applied, the start with them")
}

// TestDoRevealing: an action that draws, with its actor's reveal, is
// applied with it (pending, the actor's marker, one version more), and
// the other seat's one reveal closes the round; each way of sending it
// wrongly is refused with nothing applied.
func TestDoRevealing(t *testing.T) {
	svc, _, _ := tlService(t)
	ctx := context.Background()
	tb := trustlesstest.New(t, svc, "tl-svc-act", []string{"p1", "p2"}, 0)
	tb.Start(t)
	tb.Round(t)
	x := tb.ToMove(t)
	uid := tb.UIDs[x]
	signed := func(k engine.ActionKind) engine.Action {
		a := engine.Action{Kind: k, Actor: uid, Version: tb.State.Version}
		require.NoError(t, tb.Seats[x].Sign(&a))
		return a
	}
	move := signed(engine.ActMove)
	rv, draws, err := tb.Seats[x].ActReveal(&move)
	require.NoError(t, err)
	require.True(t, draws)
	before := tb.State.Version
	unchanged := func(what string) {
		t.Helper()
		tb.Sync(t)
		require.Equal(t, before, tb.State.Version, what)
		require.Nil(t, tb.State.Trustless.Pending, what)
	}
	as := func(a engine.Action, id string) engine.Action { a.ID = id; return a }

	// A reveal with an action that draws nothing.
	_, err = svc.DoRevealing(ctx, tb.GameID, as(signed(engine.ActSleep), "sleep"), rv)
	require.ErrorIs(t, err, engine.CodeInvalidAction)
	unchanged("a sleep with a reveal")
	// A reveal with an action that is not an in-game one.
	var fe *service.FieldError
	_, err = svc.DoRevealing(ctx, tb.GameID, engine.Action{Kind: engine.ActStart, Actor: uid, ID: "s2"}, rv)
	require.ErrorAs(t, err, &fe)
	require.Equal(t, "reveal", fe.Field)
	// A reveal without its link, or its index.
	for field, change := range map[string]func(a *engine.Action){
		"reveal.link":  func(a *engine.Action) { a.Link = "" },
		"reveal.index": func(a *engine.Action) { a.Index = 0 },
	} {
		bad := rv
		change(&bad)
		_, err = svc.DoRevealing(ctx, tb.GameID, as(move, "m-"+field[len("reveal."):]), bad)
		require.ErrorAs(t, err, &fe, field)
		require.Equal(t, field, fe.Field)
	}
	// A link that is not the chain's: the engine's refusal refuses both.
	wrong := rv
	wrong.Link = rv.Digest
	_, err = svc.DoRevealing(ctx, tb.GameID, as(move, "m-wrong"), wrong)
	require.ErrorIs(t, err, engine.CodeWrongLink)
	unchanged("a wrong link")

	// Applied together; the same request again is the first answer; the
	// same id with another reveal is another request.
	res, err := svc.DoRevealing(ctx, tb.GameID, as(move, "m"), rv)
	require.NoError(t, err)
	require.Equal(t, before+2, res.Version)
	again, err := svc.DoRevealing(ctx, tb.GameID, as(move, "m"), rv)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	other := rv
	other.Transcript = rv.Digest
	_, err = svc.DoRevealing(ctx, tb.GameID, as(move, "m"), other)
	require.ErrorIs(t, err, store.ErrActionIDReused)
	tb.Sync(t)
	pd := tb.State.Trustless.Pending
	require.NotNil(t, pd)
	require.Len(t, pd.Reveals, 1)
	require.Equal(t, uid, pd.Reveals[0].UID)
	// The actor's reveal again is already_revealed; the other's closes.
	rv.ID = "again"
	_, err = svc.Reveal(ctx, tb.GameID, rv)
	require.ErrorIs(t, err, engine.CodeAlreadyRevealed)
	last, err := tb.Reveal(t, 1-x)
	require.NoError(t, err)
	require.False(t, last.Staged, "one reveal closes a round of 2 whose actor revealed with its action")
	require.Nil(t, tb.State.Trustless.Pending)
	rs := last.Events[0].Trust.Reveals
	require.Equal(t, []string{uid, tb.UIDs[1-x]}, []string{rs[0].UID, rs[1].UID})
}

// TestViewClosesACompleteRound: a round whose every reveal is staged but
// not applied (the process that should close it stopped) is closed by
// the next look at the game, getView.
func TestViewClosesACompleteRound(t *testing.T) {
	svc, mem, _ := tlService(t)
	ctx := context.Background()
	tb := trustlesstest.New(t, svc, "tl-svc-view", []string{"p1", "p2"}, 0)
	tb.Start(t)
	for i := range tb.Seats {
		a, err := tb.Seats[i].Reveal(tb.State, 0)
		require.NoError(t, err)
		a.ID, a.At = tb.UIDs[i]+":x", 1_760_000_000_100+int64(i)
		// Staged behind the service's back, as a crashed closer leaves them.
		_, err = mem.Apply(ctx, store.Request{GameID: tb.GameID, Actor: a.Actor, Kind: engine.ActReveal, Staging: true},
			func(*engine.Game, []engine.Action) (store.Outcome, error) { return store.Outcome{Stage: &a}, nil })
		require.NoError(t, err)
	}
	p, err := mem.Game(ctx, tb.GameID)
	require.NoError(t, err)
	require.NotNil(t, p.Trustless.Pending, "staged, not closed")
	tb.Sync(t) // getView
	require.Nil(t, tb.State.Trustless.Pending, "the view closed the complete round")
}

// TestDeadlineAbortsTheRound: a round past its deadline and grace is
// aborted by the next call on the game (GameAborted naming the seat that
// did not reveal; nothing re-rolled), and a game with nothing due is
// left alone by the sweep.
func TestDeadlineAbortsTheRound(t *testing.T) {
	svc, _, c := tlService(t)
	tb := trustlesstest.New(t, svc, "tl-svc-stall", []string{"p1", "p2"}, 5_000)
	tb.Start(t)
	res, err := svc.Sweep(context.Background())
	require.NoError(t, err)
	require.Zero(t, res.Due, "nothing is due before the deadline")
	_, err = tb.Reveal(t, 0)
	require.NoError(t, err)
	c.ms.Add(5_000 + 2_000 + 10)
	tb.Sync(t) // the next call settles what is due
	require.Equal(t, engine.PhaseFinished, tb.State.Phase)
	var aborted *engine.Event
	for i := range tb.Log {
		if tb.Log[i].Type == engine.EvGameAborted {
			aborted = &tb.Log[i]
		}
		require.NotEqual(t, engine.EvTurnOrderRolled, tb.Log[i].Type, "the pending start was applied")
	}
	require.NotNil(t, aborted)
	require.Equal(t, []string{"p2"}, aborted.Trust.Missing)
}

// fixedClock is a clock the test sets (it does not move by itself).
type fixedClock struct{ ms atomic.Int64 }

func (c *fixedClock) now() time.Time { return time.UnixMilli(c.ms.Load()) }

// TestDueExactlyAfterTheDeadlineAndGrace: a trustless round is due (the
// next call aborts it, the sweep finds it) from the millisecond after its
// deadline and the grace, not at it; a fair game unfinished is abandoned
// by the server from the millisecond after its fair deadline, not at it.
func TestDueExactlyAfterTheDeadlineAndGrace(t *testing.T) {
	ctx := context.Background()
	c := &fixedClock{}
	const t0 = 1_760_000_000_000
	c.ms.Store(t0)
	m := store.NewMemory()
	svc := service.New(service.Config{Store: m, Engine: eng, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		AbortGrace: 2 * time.Second, FairDeadline: 10 * time.Second, Now: c.now})

	tb := trustlesstest.New(t, svc, "tl-svc-due", []string{"p1", "p2"}, 5_000)
	tb.Start(t)
	due := tb.State.Trustless.Pending.Deadline + 2_000
	require.Equal(t, int64(t0+5_000+2_000), due)
	ids, err := m.Due(ctx, due-1, 10)
	require.NoError(t, err)
	require.Empty(t, ids, "not due before its deadline and grace")
	ids, err = m.Due(ctx, due, 10)
	require.NoError(t, err)
	require.Equal(t, []string{"tl-svc-due"}, ids, "kept with the time it is due")
	c.ms.Store(due)
	tb.Sync(t)
	require.NotNil(t, tb.State.Trustless.Pending, "at the deadline and grace, not yet aborted")
	res, err := svc.Sweep(ctx)
	require.NoError(t, err)
	require.Empty(t, res.Aborted)
	c.ms.Store(due + 1)
	res, err = svc.Sweep(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"tl-svc-due"}, res.Aborted, "the sweep aborts it a millisecond after")
	tb.Sync(t)
	require.Equal(t, engine.PhaseFinished, tb.State.Phase)

	// A fair game, created at t1, left unfinished.
	t1 := c.ms.Load()
	_, err = svc.Do(ctx, "fair-due", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "fair"})
	require.NoError(t, err)
	for i, u := range []string{"p1", "p2"} {
		_, err = svc.Do(ctx, "fair-due", engine.Action{Kind: engine.ActJoin, Actor: u, ID: "j", Seat: i, Class: engine.Classes[i]})
		require.NoError(t, err)
	}
	_, err = svc.Do(ctx, "fair-due", engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s"})
	require.NoError(t, err)
	ids, err = m.Due(ctx, t1+10_000, 10)
	require.NoError(t, err)
	require.Equal(t, []string{"fair-due"}, ids, "kept with the time its fair deadline passes")
	ids, err = m.Due(ctx, t1+10_000-1, 10)
	require.NoError(t, err)
	require.Empty(t, ids)
	c.ms.Store(t1 + 10_000)
	v, err := svc.View(ctx, "p1", "fair-due", 0)
	require.NoError(t, err)
	require.Equal(t, engine.PhasePlaying, v.Public.Phase, "at its fair deadline, not yet abandoned")
	c.ms.Store(t1 + 10_001)
	v, err = svc.View(ctx, "p1", "fair-due", 0)
	require.NoError(t, err)
	require.Equal(t, engine.PhaseFinished, v.Public.Phase, "abandoned by the server a millisecond after")
	require.NotNil(t, v.Public.Fairness, "its seeds revealed")
}

// TestRevealRefusals: a seat's reveal is checked by the engine before it
// is staged (a link that is not its chain's is wrong_link, and nothing is
// staged), a seat staged already is already_revealed under another
// action id, and the same call again is the first answer; a retried
// reveal whose round is complete but was not closed closes it. The
// refusals have their positive controls: with the engine's link check
// off, the bad link is staged; with the service's check of the staged
// reveals off, the second reveal passes the engine (which, checking a
// copy of the game, sees no staged reveal) and only the store's one
// staged document per seat and index stops it, as contention.
func TestRevealRefusals(t *testing.T) {
	svc, mem, _ := tlService(t)
	ctx := context.Background()
	tb := trustlesstest.New(t, svc, "tl-svc-refuse", []string{"p1", "p2", "p3"}, 0)
	tb.Start(t)
	a, err := tb.Seats[0].Reveal(tb.State, 0)
	require.NoError(t, err)
	bad := a
	bad.ID, bad.Link = "bad", a.Digest
	_, err = svc.Reveal(ctx, tb.GameID, bad)
	require.ErrorIs(t, err, engine.CodeWrongLink)
	staged, err := mem.Staged(ctx, tb.GameID, a.Index)
	require.NoError(t, err)
	require.Empty(t, staged, "a refused reveal is not staged")
	t.Run("wrong link without RevealLink", func(t *testing.T) {
		checks.Off(t, checks.RevealLink)
		svc, mem, _ := tlService(t)
		tb := trustlesstest.New(t, svc, "tl-svc-refuse-link", []string{"p1", "p2", "p3"}, 0)
		tb.Start(t)
		a, err := tb.Seats[0].Reveal(tb.State, 0)
		require.NoError(t, err)
		a.ID, a.Link = "bad", a.Digest
		res, err := svc.Reveal(ctx, tb.GameID, a)
		require.NoError(t, err, "with RevealLink off, the bad link is taken")
		require.True(t, res.Staged)
		staged, err := mem.Staged(ctx, tb.GameID, a.Index)
		require.NoError(t, err)
		require.Len(t, staged, 1)
	})
	a.ID = "r1"
	res, err := svc.Reveal(ctx, tb.GameID, a)
	require.NoError(t, err)
	require.True(t, res.Staged)
	again, err := svc.Reveal(ctx, tb.GameID, a)
	require.NoError(t, err)
	require.True(t, again.Replayed && again.Staged, "the same call again: the first answer")
	twice := a
	twice.ID = "r1-again"
	_, err = svc.Reveal(ctx, tb.GameID, twice)
	require.ErrorIs(t, err, engine.CodeAlreadyRevealed)
	t.Run("twice without StagedOnce", func(t *testing.T) {
		checks.Off(t, checks.StagedOnce)
		svc, mem, _ := tlService(t)
		tb := trustlesstest.New(t, svc, "tl-svc-refuse-twice", []string{"p1", "p2", "p3"}, 0)
		tb.Start(t)
		a, err := tb.Seats[0].Reveal(tb.State, 0)
		require.NoError(t, err)
		a.ID = "r1"
		_, err = svc.Reveal(ctx, tb.GameID, a)
		require.NoError(t, err)
		a.ID = "r1-again"
		_, err = svc.Reveal(ctx, tb.GameID, a)
		require.NotErrorIs(t, err, engine.CodeAlreadyRevealed, "with StagedOnce off")
		require.ErrorIs(t, err, store.ErrContention, "with StagedOnce off, the store's one document per seat stops it")
		staged, err := mem.Staged(ctx, tb.GameID, a.Index)
		require.NoError(t, err)
		require.Len(t, staged, 1)
	})

	// Seat 2 staged behind the service's back (its closer stopped), seat
	// 1 not yet: then seat 1's reveal closes the round...
	b, err := tb.Seats[2].Reveal(tb.State, 0)
	require.NoError(t, err)
	b.ID, b.At = "p3:x", 1_760_000_000_500
	_, err = mem.Apply(ctx, store.Request{GameID: tb.GameID, Actor: b.Actor, Kind: engine.ActReveal, Staging: true},
		func(*engine.Game, []engine.Action) (store.Outcome, error) { return store.Outcome{Stage: &b}, nil })
	require.NoError(t, err)
	last, err := tb.Reveal(t, 1)
	require.NoError(t, err)
	require.False(t, last.Staged)
	require.Nil(t, tb.State.Trustless.Pending)
	// ...and a replay of seat 0's, the round closed, is still its answer.
	replay, err := svc.Reveal(ctx, tb.GameID, a)
	require.NoError(t, err)
	require.True(t, replay.Replayed)
}
