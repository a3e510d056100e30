// Package trustlesstest plays trustless games through a service.Service
// in process, each seat a player.Seat that follows the log (through the
// service's View) and signs and reveals as a client does: for the tests
// of the stores, the security rules and the functions that need a real
// trustless game's documents without the HTTP layer. It stands beside the
// service it drives, above it: it imports the service, player and bot.
package trustlesstest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
)

// Table is one trustless game and its seats.
type Table struct {
	Svc    *service.Service
	GameID string
	UIDs   []string
	Seats  []*player.Seat
	State  *engine.Public // the game as the last View showed it
	Log    []engine.Event // every event read
}

// New creates the game (by uids[0], with the create's deadlineMs, 0 for
// the default) and seats every uid in order, each with a fresh chain and
// key.
func New(t testing.TB, svc *service.Service, gameID string, uids []string, deadlineMs int64) *Table {
	t.Helper()
	tb := &Table{Svc: svc, GameID: gameID, UIDs: uids}
	ctx := context.Background()
	if _, err := svc.Do(ctx, gameID, engine.Action{Kind: engine.ActCreate, Actor: uids[0], ID: "create", Mode: "trustless", DeadlineMs: deadlineMs}); err != nil {
		t.Fatalf("create %s: %v", gameID, err)
	}
	tb.Sync(t)
	classes := policy.DefaultClasses(len(uids))
	for i, u := range uids {
		s, err := player.NewSeat(svc.Rules(), gameID, u, i, tb.State.Trustless.ChainLength)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Follow(tb.Log); err != nil {
			t.Fatal(err)
		}
		tb.Seats = append(tb.Seats, s)
		a, err := s.Join(classes[i], false, tb.State.Version)
		if err != nil {
			t.Fatal(err)
		}
		a.ID = "join"
		if _, err := svc.Do(ctx, gameID, a); err != nil {
			t.Fatalf("join %s: %v", u, err)
		}
		tb.Sync(t)
	}
	return tb
}

// Sync reads the game (View, as its owner) and feeds every seat the new
// events.
func (tb *Table) Sync(t testing.TB) {
	t.Helper()
	for {
		v, err := tb.Svc.View(context.Background(), tb.UIDs[0], tb.GameID, uint64(len(tb.Log)))
		if err != nil {
			t.Fatalf("view %s: %v", tb.GameID, err)
		}
		tb.State = v.Public
		for _, s := range tb.Seats {
			if err := s.Follow(v.Events); err != nil {
				t.Fatalf("%s's seat: %v", s.UID(), err)
			}
		}
		tb.Log = append(tb.Log, v.Events...)
		if !v.More {
			return
		}
	}
}

// Act has seat i sign and send a (its actor and the version are set
// here), with action id id.
func (tb *Table) Act(t testing.TB, i int, a engine.Action, id string) (*service.Result, error) {
	t.Helper()
	a.Actor, a.Version, a.ID = tb.UIDs[i], tb.State.Version, id
	if err := tb.Seats[i].Sign(&a); err != nil {
		t.Fatal(err)
	}
	res, err := tb.Svc.Do(context.Background(), tb.GameID, a)
	tb.Sync(t)
	return res, err
}

// Reveal has seat i reveal the pending index (action id "r<index>"), as
// its client would after checking.
func (tb *Table) Reveal(t testing.TB, i int) (*service.Result, error) {
	t.Helper()
	a, err := tb.Seats[i].Reveal(tb.State, 0)
	if err != nil {
		t.Fatalf("%s reveals: %v", tb.UIDs[i], err)
	}
	a.ID = fmt.Sprint("r", a.Index)
	res, err := tb.Svc.Reveal(context.Background(), tb.GameID, a)
	tb.Sync(t)
	return res, err
}

// Round has every seat reveal the pending index, in seat order.
func (tb *Table) Round(t testing.TB) {
	t.Helper()
	for i := range tb.Seats {
		if _, err := tb.Reveal(t, i); err != nil {
			t.Fatalf("%s's reveal: %v", tb.UIDs[i], err)
		}
	}
}

// Start has the owner start the game (pending: its turn order draws).
func (tb *Table) Start(t testing.TB) {
	t.Helper()
	if _, err := tb.Act(t, 0, engine.Action{Kind: engine.ActStart}, "start"); err != nil {
		t.Fatalf("start: %v", err)
	}
}

// Play plays on with the bots' policy (Aggressive) and full rounds until
// stop says so or the game ends.
func (tb *Table) Play(t testing.TB, stop func(p *engine.Public) bool) {
	t.Helper()
	for n := 0; tb.State.Phase != engine.PhaseFinished; n++ {
		if stop != nil && stop(tb.State) {
			return
		}
		if tb.State.Trustless.Pending != nil {
			tb.Round(t)
			continue
		}
		who := tb.awaited()
		if who < 0 {
			t.Fatalf("the game awaits %q", tb.State.Awaiting)
		}
		a := policy.Aggressive{}.Choose(tb.State, tb.Svc.Rules(), tb.UIDs[who])
		if _, err := tb.Act(t, who, a, fmt.Sprint("a", n)); err != nil && !errors.Is(err, engine.CodeStaleVersion) {
			t.Fatalf("%s by %s: %v", a.Kind, tb.UIDs[who], err)
		}
	}
}

// ToMove plays the awaited seats' actions that draw nothing (endManage,
// skipDuel; action ids "p<kind><n>", n counting from 0 in each call)
// until a seat may move, and returns its index. It fails t when the
// game awaits nobody seated here, or such an action is refused.
func (tb *Table) ToMove(t testing.TB) int {
	t.Helper()
	for n := 0; ; n++ {
		x := tb.awaited()
		if x < 0 {
			t.Fatalf("the game awaits %q, no seat of the table", tb.State.Awaiting)
		}
		if tb.State.Step == engine.StepMoveOrSleep {
			return x
		}
		k := engine.ActSkipDuel
		if tb.State.Step == engine.StepManage {
			k = engine.ActEndManage
		}
		if _, err := tb.Act(t, x, engine.Action{Kind: k}, fmt.Sprint("p", k, n)); err != nil {
			t.Fatalf("%s by %s: %v", k, tb.UIDs[x], err)
		}
	}
}

// awaited is the index of the seat the game awaits, or -1 when it
// awaits none of the table's.
func (tb *Table) awaited() int {
	for i, u := range tb.UIDs {
		if u == tb.State.Awaiting {
			return i
		}
	}
	return -1
}
