package table_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// snapshot is everything a reader or the server can see of the table g:
// the public part, every uid's view, the game's state bytes.
func snapshot(t *testing.T, s *table.Memory, g string) string {
	t.Helper()
	var b strings.Builder
	for _, u := range []string{"", uid(0), uid(1), uid(2), uid(3), uid(9)} {
		v, err := s.View(g, u)
		require.NoError(t, err)
		o, f, tl := v.Outcome, v.Fairness, v.Trustless
		v.Outcome, v.Fairness, v.Trustless = nil, nil, nil
		fmt.Fprintf(&b, "%+v\n", *v)
		tlj, err := json.Marshal(tl)
		require.NoError(t, err)
		b.Write(tlj)
		if o != nil {
			fmt.Fprintf(&b, "%+v\n", *o)
		}
		fj, err := json.Marshal(f) // its openings by value, not by address
		require.NoError(t, err)
		b.Write(fj)
	}
	st, err := s.StateBytes(g)
	require.NoError(t, err)
	b.Write(st)
	return b.String()
}

type refusal struct {
	name string
	a    table.Action
	code table.Code
	msg  string // a part of the message, if given
}

// refuseAll sends each action to g, checks its code and that the table is
// byte for byte as it was, and adds the code to seen.
func refuseAll(t *testing.T, s *table.Memory, g string, cases []refusal, seen map[table.Code]bool) {
	t.Helper()
	before := snapshot(t, s, g)
	for _, c := range cases {
		res, err := s.Do(g, c.a)
		require.Nil(t, res, c.name)
		require.ErrorIs(t, err, c.code, c.name)
		var te *table.Error
		require.True(t, errors.As(err, &te), c.name)
		require.Equal(t, before, snapshot(t, s, g), "%s changed the table", c.name)
		require.Contains(t, err.Error(), c.msg, c.name)
		for _, gc := range game.Codes {
			if string(gc) == string(c.code) {
				require.ErrorIs(t, err, gc, "%s: the game's code matches too", c.name)
			}
		}
		seen[c.code] = true
	}
}

func TestEveryRefusal(t *testing.T) {
	seen := map[table.Code]bool{}
	s := table.NewMemory()

	// Create's refusals, and the store's.
	for _, c := range []struct {
		name string
		g    string
		req  table.CreateRequest
		code table.Code
	}{
		{"bad actor", "c", table.CreateRequest{Actor: "a b", ActionID: "c", Mode: rng.ModeCrypto}, table.CodeBadActor},
		{"server creates", "c", table.CreateRequest{Actor: table.ServerActor, ActionID: "c", Mode: rng.ModeCrypto}, table.CodeBadActor},
		{"bad action id", "c", table.CreateRequest{Actor: "u0", ActionID: "c:1", Mode: rng.ModeCrypto}, table.CodeBadActionID},
		{"bad mode", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: "dice"}, table.CodeBadSetup},
		{"a trustless table with a seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeTrustless, Seed: "s"}, table.CodeBadSetup},
		{"a trustless table with a short deadline", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeTrustless, DeadlineMs: 999}, table.CodeBadSetup},
		{"a trustless table with a chain too long", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeTrustless, ChainLength: 1<<20 + 1}, table.CodeBadSetup},
		{"a chain length at a crypto table", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, ChainLength: 5}, table.CodeBadSetup},
		{"fair without the server's seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeFair}, table.CodeBadSetup},
		{"fair with a short server seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeFair, ServerSeed: "00"}, table.CodeBadSetup},
		{"fair with an upper-case server seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeFair, ServerSeed: strings.Repeat("A", 64)}, table.CodeBadSetup},
		{"fair with a seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeFair, ServerSeed: strings.Repeat("a", 64), Seed: "s"}, table.CodeBadSetup},
		{"crypto with a server seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, ServerSeed: strings.Repeat("a", 64)}, table.CodeBadSetup},
		{"seeded without seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeSeeded}, table.CodeBadSetup},
		{"crypto with seed", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Seed: "s"}, table.CodeBadSetup},
		{"seven seats", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Seats: 7}, table.CodeBadSetup},
		{"one seat", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Seats: 1}, table.CodeBadSetup},
		{"rules missing a field", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Rules: []byte(`{"goal":100}`)}, table.CodeBadRuleset},
		{"rules with an unknown field", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Rules: []byte(`{"goal":100,"dieSides":6,"x":1}`)}, table.CodeBadRuleset},
		{"rules out of range", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Rules: []byte(`{"goal":100,"dieSides":1}`)}, table.CodeBadRuleset},
		{"rules not JSON", "c", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto, Rules: []byte(`goal=100`)}, table.CodeBadRuleset},
		{"bad game id", "c/1", table.CreateRequest{Actor: "u0", ActionID: "c", Mode: rng.ModeCrypto}, table.CodeBadGameID},
	} {
		res, err := s.Create(c.g, pig.Def, c.req)
		require.Nil(t, res, c.name)
		require.ErrorIs(t, err, c.code, c.name)
		seen[c.code] = true
	}
	_, err := s.Do("nowhere", table.Action{Actor: "u0", ActionID: "a", Version: 1, Kind: table.KindStart})
	require.ErrorIs(t, err, table.CodeNotCreated)
	seen[table.CodeNotCreated] = true

	// A Pig lobby of 3 seats: u0 (the owner) on seat 0, u1 on seat 1,
	// seat 2 free; version 3.
	_, err = s.Create("p", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: "refusals", Seats: 3})
	require.NoError(t, err)
	for i := range 2 {
		_, err = s.Do("p", table.Action{Actor: uid(i), ActionID: "join", Version: uint64(1 + i), Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	_, err = s.Create("p", pig.Def, table.CreateRequest{Actor: uid(1), ActionID: "create", Mode: rng.ModeCrypto})
	require.ErrorIs(t, err, table.CodeAlreadyCreated)
	seen[table.CodeAlreadyCreated] = true
	join := func(actor string, seat int) table.Action {
		return table.Action{Actor: actor, ActionID: "j", Version: 3, Kind: table.KindJoin, Seat: seat}
	}
	with := func(a table.Action, f func(*table.Action)) table.Action { f(&a); return a }
	refuseAll(t, s, "p", []refusal{
		{"empty actor", join("", 2), table.CodeBadActor, ""},
		{"actor with a space", join("u 2", 2), table.CodeBadActor, ""},
		{"the server joins", join(table.ServerActor, 2), table.CodeBadActor, ""},
		{"empty action id", with(join("u2", 2), func(a *table.Action) { a.ActionID = "" }), table.CodeBadActionID, ""},
		{"action id with a colon", with(join("u2", 2), func(a *table.Action) { a.ActionID = "a:b" }), table.CodeBadActionID, ""},
		{"action id of 129", with(join("u2", 2), func(a *table.Action) { a.ActionID = strings.Repeat("a", 129) }), table.CodeBadActionID, ""},
		{"id reused with other content", with(join(uid(1), 2), func(a *table.Action) { a.ActionID = "join" }), table.CodeActionIDReused, ""},
		{"unknown kind", with(join("u2", 2), func(a *table.Action) { a.Kind = "sit" }), table.CodeInvalidAction, ""},
		{"move in the lobby", table.Action{Actor: uid(0), ActionID: "m", Version: 3, Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)}, table.CodeNotStarted, ""},
		{"stale version, behind", with(join("u2", 2), func(a *table.Action) { a.Version = 2 }), table.CodeStaleVersion, ""},
		{"stale version, ahead", with(join("u2", 2), func(a *table.Action) { a.Version = 4 }), table.CodeStaleVersion, ""},
		{"no version", with(join("u2", 2), func(a *table.Action) { a.Version = 0 }), table.CodeStaleVersion, ""},
		{"seat out of range", join("u2", 3), table.CodeUnknownPlayer, ""},
		{"negative seat", join("u2", -1), table.CodeUnknownPlayer, ""},
		{"already joined", join(uid(1), 2), table.CodeAlreadyJoined, ""},
		{"seat taken", join("u2", 0), table.CodeSeatTaken, ""},
		{"an option Pig has not", with(join("u2", 2), func(a *table.Action) { a.Options = map[string]string{"class": "monk"} }), table.CodeBadOption, ""},
		{"leave without a seat", table.Action{Actor: "u2", ActionID: "l", Version: 3, Kind: table.KindLeave}, table.CodeNotSeated, ""},
		{"remove by another", table.Action{Actor: uid(1), ActionID: "r", Version: 3, Kind: table.KindRemoveSeat, Seat: 0}, table.CodeNotOwner, ""},
		{"remove a seat out of range", table.Action{Actor: uid(0), ActionID: "r", Version: 3, Kind: table.KindRemoveSeat, Seat: 3}, table.CodeUnknownPlayer, ""},
		{"remove a free seat", table.Action{Actor: uid(0), ActionID: "r", Version: 3, Kind: table.KindRemoveSeat, Seat: 2}, table.CodeSeatFree, ""},
		{"start by another", table.Action{Actor: uid(1), ActionID: "s", Version: 3, Kind: table.KindStart}, table.CodeNotOwner, ""},
		{"start with a seat free", table.Action{Actor: uid(0), ActionID: "s", Version: 3, Kind: table.KindStart}, table.CodeTooFewPlayers, ""},
		{"abandon by another", table.Action{Actor: uid(1), ActionID: "a", Version: 3, Kind: table.KindAbandon}, table.CodeNotOwner, ""},
	}, seen)

	// A dungeon lobby: its option class.
	_, err = s.Create("d", dungeon.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeCrypto, Seats: 2})
	require.NoError(t, err)
	refuseAll(t, s, "d", []refusal{
		{"a class not of the game", table.Action{Actor: "u1", ActionID: "j", Version: 1, Kind: table.KindJoin, Options: map[string]string{"class": "wizard"}}, table.CodeBadOption, ""},
		{"an unknown option", table.Action{Actor: "u1", ActionID: "j", Version: 1, Kind: table.KindJoin, Options: map[string]string{"class": "monk", "hat": "red"}}, table.CodeBadOption, ""},
	}, seen)

	// A dungeon game in play, 2 seats.
	lobby(t, s, dungeon.Def, "dp", rng.ModeSeeded, "refusals", 2, nil)
	pub, err := s.View("dp", "")
	require.NoError(t, err)
	mover, other := pub.Seats[pub.ToMove].UID, pub.Seats[1-pub.ToMove].UID
	v := pub.Version
	move := func(actor, js string) table.Action {
		return table.Action{Actor: actor, ActionID: "m", Version: v, Kind: table.KindMove, Move: []byte(js)}
	}
	legal, err := s.View("dp", mover)
	require.NoError(t, err)
	ok := string(game.AppendMoveJSON(nil, dungeon.Def.Kinds(), legal.Legal[0]))
	refuseAll(t, s, "dp", []refusal{
		{"join once started", table.Action{Actor: "u7", ActionID: "j", Version: v, Kind: table.KindJoin, Seat: 0}, table.CodeAlreadyStarted, ""},
		{"leave once started", table.Action{Actor: mover, ActionID: "l", Version: v, Kind: table.KindLeave}, table.CodeAlreadyStarted, ""},
		{"remove once started", table.Action{Actor: uid(0), ActionID: "r", Version: v, Kind: table.KindRemoveSeat, Seat: 1}, table.CodeAlreadyStarted, ""},
		{"start again", table.Action{Actor: uid(0), ActionID: "s", Version: v, Kind: table.KindStart}, table.CodeAlreadyStarted, ""},
		{"move by a spectator", move("u9", ok), table.CodeNotSeated, ""},
		{"move out of turn", move(other, ok), table.CodeNotYourTurn, ""},
		{"stale move", with(move(mover, ok), func(a *table.Action) { a.Version = v - 1 }), table.CodeStaleVersion, ""},
		{"unknown move kind", move(mover, `{"kind":"fly"}`), table.CodeInvalidAction, `unknown move kind "fly"`},
		{"unknown move field", move(mover, `{"kind":"sleep","hours":8}`), table.CodeInvalidAction, `unknown field "hours" on sleep`},
		{"argument out of range", move(mover, `{"kind":"useItem","item":64}`), table.CodeInvalidAction, "useItem.item must be a whole number in [0, 63], not 64"},
		{"missing argument", move(mover, `{"kind":"useItem"}`), table.CodeInvalidAction, `useItem needs "item"`},
		{"not JSON", move(mover, `roll`), table.CodeInvalidAction, ""},
		{"trailing data", move(mover, ok+`{}`), table.CodeInvalidAction, ""},
	}, seen)

	// Pig's own refusal: a hold at a turn total of 0.
	lobby(t, s, pig.Def, "pp", rng.ModeSeeded, "refusals", 2, nil)
	pub, err = s.View("pp", "")
	require.NoError(t, err)
	refuseAll(t, s, "pp", []refusal{
		{"hold at 0", table.Action{Actor: pub.Seats[pub.ToMove].UID, ActionID: "h", Version: pub.Version, Kind: table.KindMove, Move: []byte(`{"kind":"hold"}`)}, table.CodeInvalidAction, ""},
	}, seen)

	// Entropy: a fair table's only, and well formed.
	_, err = s.Create("fe", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: strings.Repeat("a", 64), Seats: 2})
	require.NoError(t, err)
	withEntropy := func(e string) table.Action {
		return table.Action{Actor: uid(1), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 1, Entropy: e}
	}
	refuseAll(t, s, "fe", []refusal{
		{"odd entropy", withEntropy("abc"), table.CodeBadEntropy, "odd number"},
		{"entropy not hex", withEntropy("zz"), table.CodeBadEntropy, "not hex"},
		{"entropy too long", withEntropy(strings.Repeat("ab", 65)), table.CodeBadEntropy, "at most 64 bytes"},
	}, seen)
	_, err = s.Create("ce", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeCrypto, Seats: 2})
	require.NoError(t, err)
	refuseAll(t, s, "ce", []refusal{{"entropy at a crypto table", withEntropy("ab"), table.CodeBadEntropy, "for fair tables"}}, seen)

	// A record is the end's: not_finished in play (Record's refusals are
	// TestTableRecordRefusals').
	_, err = s.Record("pp", uid(0))
	require.ErrorIs(t, err, table.CodeNotFinished)
	seen[table.CodeNotFinished] = true

	// A finished table refuses everything but retries.
	res, err := s.Do("pp", table.Action{Actor: table.ServerActor, ActionID: "end", Version: pub.Version, Kind: table.KindAbandon})
	require.NoError(t, err)
	refuseAll(t, s, "pp", []refusal{
		{"move once over", table.Action{Actor: pub.Seats[pub.ToMove].UID, ActionID: "r", Version: res.Version, Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`)}, table.CodeGameOver, ""},
		{"abandon again", table.Action{Actor: uid(0), ActionID: "a", Version: res.Version, Kind: table.KindAbandon}, table.CodeGameOver, ""},
		{"join once over", table.Action{Actor: "u5", ActionID: "j", Version: res.Version, Kind: table.KindJoin}, table.CodeGameOver, ""},
	}, seen)

	trustlessRefusals(t, s, seen)
	openingsRefusals(t, s, seen)

	for _, c := range table.Codes {
		require.True(t, seen[c], "no test refuses with %s", c)
	}
}
