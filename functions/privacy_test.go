package functions_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// leakyTables is a store that leaks on purpose, the positive controls of
// the privacy check: view adds seat 0's state to every reader's state,
// result adds the events addressed to seat 0 to every action's result.
type leakyTables struct {
	tablestore.Store
	view, result bool
	// public leaks (as view) to readers without a seat only: spectators.
	public bool
	// secret leaks the game's secret part to every reader's state, from
	// a mirror of each seeded table (match on its seed and moves).
	secret *mirrors
}

// mirrors follows each seeded table of a leaky store: its seed, its
// seats and the moves applied, so that its secret part can be leaked.
type mirrors struct {
	mu    sync.Mutex
	seeds map[string]string
	seats map[string]int
	moves map[string][]game.Move
}

func newMirrors() *mirrors {
	return &mirrors{seeds: map[string]string{}, seats: map[string]int{}, moves: map[string][]game.Move{}}
}

// secretOf returns the secret part of table g's game, replayed by match.
func (m *mirrors) secretOf(def game.Definition, g string) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	ref, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: m.seeds[g], Seats: make([]game.Seat, m.seats[g])})
	if err != nil {
		return nil
	}
	for _, mv := range m.moves[g] {
		if _, err := ref.Apply(mv); err != nil {
			return nil
		}
	}
	return ref.State().AppendSecret(nil)
}

func (l leakyTables) Create(ctx context.Context, g, name string, req table.CreateRequest) (*table.Result, error) {
	res, err := l.Store.Create(ctx, g, name, req)
	if err == nil && l.secret != nil {
		l.secret.mu.Lock()
		l.secret.seeds[g], l.secret.seats[g] = req.Seed, req.Seats
		l.secret.mu.Unlock()
	}
	return res, err
}

// seat0 is seat 0's view of the table g (nil before it is taken).
func (l leakyTables) seat0(ctx context.Context, g string) *table.View {
	pub, _, err := l.Store.View(ctx, g, "")
	if err != nil || pub.Seats[0].UID == "" {
		return nil
	}
	v, _, err := l.Store.View(ctx, g, pub.Seats[0].UID)
	if err != nil {
		return nil
	}
	return v
}

func (l leakyTables) View(ctx context.Context, g, uid string) (*table.View, game.Definition, error) {
	v, def, err := l.Store.View(ctx, g, uid)
	if err == nil && l.secret != nil && v.State != nil {
		v.State = fmt.Appendf(nil, `{"mine":%s,"leak":%s}`, v.State, l.secret.secretOf(def, g))
	}
	if err != nil || !(l.view || l.public && v.Seat == table.NoSeat) || v.State == nil {
		return v, def, err
	}
	if zero := l.seat0(ctx, g); zero != nil {
		v.State = fmt.Appendf(nil, `{"mine":%s,"leak":%s}`, v.State, zero.State)
	}
	return v, def, nil
}

func (l leakyTables) Do(ctx context.Context, g string, a table.Action) (*table.Result, error) {
	before, def, _ := l.Store.View(ctx, g, a.Actor)
	res, err := l.Store.Do(ctx, g, a)
	if err == nil && l.secret != nil && a.Kind == table.KindMove && !res.Replayed {
		mv, derr := game.DecodeMove(def.Kinds(), before.Seat, a.Move)
		if derr == nil {
			l.secret.mu.Lock()
			l.secret.moves[g] = append(l.secret.moves[g], mv)
			l.secret.mu.Unlock()
		}
	}
	if err != nil || !l.result {
		return res, err
	}
	if zero := l.seat0(ctx, g); zero != nil {
		for _, e := range zero.Log {
			if e.To == 0 {
				res.Events = append(res.Events, e)
			}
		}
	}
	return res, nil
}

// privateGames are the registered table games (all but the dungeon,
// which keeps its own path) with a private part or an addressed event.
func privateGames(t *testing.T) []game.Definition {
	var out []game.Definition
	for _, def := range registry.All() {
		if def.Name() == functions.DungeonGame {
			continue
		}
		ok, err := functest.HasPrivateParts(def)
		require.NoError(t, err)
		if ok {
			out = append(out, def)
		}
	}
	require.NotEmpty(t, out, "no registered game has a private part (Kuhn poker has)")
	return out
}

// checkPrivacy runs the privacy check on games seeded games of def
// through c, and returns the first leak ("").
func checkPrivacy(t *testing.T, c *functest.Client, def game.Definition, prefix string, games int) string {
	t.Helper()
	for g := range games {
		toks := make([]string, def.Seats().Default)
		for i := range toks {
			toks[i] = fmt.Sprintf("dev:%s-%d-%d", prefix, g, i)
		}
		id := fmt.Sprintf("%s-%s-%d", prefix, def.Name(), g)
		bots, err := rng.NewSeeded(id + "/bots")
		require.NoError(t, err)
		// Every other game is open to spectators: its outsider is a
		// spectator, reading the public view throughout.
		p := functest.Privacy{Client: c, Def: def, GameID: id, Seed: "privacy-" + id, Seats: toks,
			Outsider: "dev:" + prefix + "-outsider", Bots: bots, Spectators: g%2 == 1}
		leak, err := p.Check(context.Background())
		require.NoError(t, err, "%s game %d", def.Name(), g)
		if leak != "" {
			return fmt.Sprintf("%s game %d: %s", def.Name(), g, leak)
		}
	}
	return ""
}

// TestPrivatePartsStayPrivateOverHTTP: every registered table game with
// private parts (Kuhn poker today), 12 seeded games each through the
// functions on the memory store, checked after every action by
// functest.Privacy (getView, act answers, retries, the same action id
// from another caller, refusals: no other seat's private part, no event
// addressed to another seat, traces holding only their seq and seat;
// each seat finds its own). Positive controls: a store that adds seat
// 0's state to every view, and one that adds seat 0's addressed events
// to every result, and one that adds the game's secret part (the
// undealt cards) to every reader's state, are each caught by the same
// check.
func TestPrivatePartsStayPrivateOverHTTP(t *testing.T) {
	for _, def := range privateGames(t) {
		c := newTableServer(t, true, tablestore.NewMemory(registry.Lookup))
		require.Empty(t, checkPrivacy(t, c, def, "priv", 12))

		leaky := newTableServer(t, true, leakyTables{Store: tablestore.NewMemory(registry.Lookup), view: true})
		leak := checkPrivacy(t, leaky, def, "leakview", 1)
		require.Contains(t, leak, "private part", "control: the leaking view is caught")
		t.Logf("control (view): %.200s", leak)
		leaky = newTableServer(t, true, leakyTables{Store: tablestore.NewMemory(registry.Lookup), result: true})
		leak = checkPrivacy(t, leaky, def, "leakresult", 1)
		require.Contains(t, leak, "addressed to seat 0", "control: the leaking result is caught")
		t.Logf("control (result): %.200s", leak)
		// A store that leaks seat 0's part to readers without a seat
		// only: caught through the spectator (game 1 is open to them).
		leaky = newTableServer(t, true, leakyTables{Store: tablestore.NewMemory(registry.Lookup), public: true})
		leak = checkPrivacy(t, leaky, def, "leakspec", 2)
		require.Contains(t, leak, fmt.Sprintf("game 1: after action 0: reader %d reads seat 0's private part", def.Seats().Default), "control: the spectator's leak is caught")
		t.Logf("control (spectator): %.200s", leak)
		// A store that leaks the game's secret part (the undealt cards)
		// to every reader, the seats included.
		leaky = newTableServer(t, true, leakyTables{Store: tablestore.NewMemory(registry.Lookup), secret: newMirrors()})
		leak = checkPrivacy(t, leaky, def, "leaksecret", 1)
		require.Contains(t, leak, "reads the game's secret part", "control: the secret's leak is caught")
		t.Logf("control (secret): %.200s", leak)
	}
}
