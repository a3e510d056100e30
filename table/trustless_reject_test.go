package table_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// trustlessRefusals is TestEveryRefusal's part for trustless tables:
// each refusal leaves the table byte for byte as it was, and the good
// action each one was made from is accepted after them (the positive
// control).
func trustlessRefusals(t *testing.T, s *table.Memory, seen map[table.Code]bool) {
	// A lobby: seat 0 joined, seat 1 free (version 2).
	_, err := s.Create("tl", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeTrustless, Seats: 2, ChainLength: 64})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, "tl", uid(i), i, 64)
		require.NoError(t, err)
	}
	_, err = s.Do("tl", seats[0].Join("join", 1, nil, nil))
	require.NoError(t, err)
	good := seats[1].Join("join", 2, nil, nil)
	with := func(a table.Action, f func(*table.Action)) table.Action { f(&a); return a }
	other := seats[0].Join("x", 2, nil, nil) // seat 0's key and signature
	refuseAll(t, s, "tl", []refusal{
		{"a join without its chain", with(good, func(a *table.Action) { a.ChainHead, a.PublicKey, a.Signature = "", "", "" }), table.CodeInvalidAction, "chainHead"},
		{"a chain head not hex", with(good, func(a *table.Action) { a.ChainHead = strings.Repeat("z", 64) }), table.CodeInvalidAction, "chainHead"},
		{"a join signed by another key", with(good, func(a *table.Action) { a.Signature = other.Signature }), table.CodeBadSignature, ""},
		{"a join's head changed after signing", with(good, func(a *table.Action) { a.ChainHead = other.ChainHead }), table.CodeBadSignature, ""},
		{"a reveal in the lobby", table.Action{Actor: uid(0), ActionID: "r", Kind: table.KindReveal, Reveal: &table.Reveal{}}, table.CodeNotStarted, ""},
	}, seen)
	_, err = s.Do("tl", good)
	require.NoError(t, err)
	_, err = s.Do("tl", table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)

	// In play, nothing pending (version 4): seat 0 to move.
	v0, err := s.View("tl", uid(0))
	require.NoError(t, err)
	roll, err := seats[0].Move("roll", v0, pigRoll)
	require.NoError(t, err)
	require.NotNil(t, roll.Reveal, "a roll draws: it carries the actor's reveal")
	impostor, err := trustseat.New(pig.Def, "tl", uid(0), 0, 64) // another key and chain for seat 0
	require.NoError(t, err)
	forged, err := impostor.Move("roll", v0, pigRoll)
	require.NoError(t, err)
	refuseAll(t, s, "tl", []refusal{
		{"a reveal with nothing pending", table.Action{Actor: uid(1), ActionID: "r", Kind: table.KindReveal, Reveal: roll.Reveal}, table.CodeWrongIndex, "no round"},
		{"an abort with nothing pending", table.Action{Actor: table.ServerActor, ActionID: "ab", Kind: table.KindAbort, At: 1 << 40}, table.CodeWrongIndex, "no round"},
		{"a move signed by another key", with(roll, func(a *table.Action) { a.Signature = forged.Signature }), table.CodeBadSignature, ""},
		{"a move whose reveal has no link", with(roll, func(a *table.Action) { r := *a.Reveal; r.Link = ""; a.Reveal = &r }), table.CodeInvalidAction, "link"},
		{"a move whose own reveal has another chain's link", with(roll, func(a *table.Action) { r := *a.Reveal; r.Link = forged.Reveal.Link; a.Reveal = &r }), table.CodeWrongLink, ""},
		{"a move whose own reveal is signed by another key", with(roll, func(a *table.Action) { r := *a.Reveal; r.Signature = forged.Reveal.Signature; a.Reveal = &r }), table.CodeBadSignature, ""},
		{"a reveal with a move that draws nothing", with(roll, func(a *table.Action) { a.Move = []byte(`{"kind":"hold"}`) }), table.CodeInvalidAction, ""},
	}, seen)
	_, err = s.Do("tl", roll)
	require.NoError(t, err)

	// Round 1 pending, seat 0 revealed with its roll (version 5).
	v1, err := s.View("tl", uid(1))
	require.NoError(t, err)
	p := v1.Trustless.Pending
	require.NotNil(t, p)
	require.Len(t, p.Reveals, 1)
	rev, err := seats[1].Reveal("rev", v1)
	require.NoError(t, err)
	rev.At = p.Deadline
	seat0Link := roll.Reveal.Link // seat 0's valid link for round 1: not seat 1's chain's
	mod := func(f func(r *table.Reveal)) table.Action {
		a := rev
		r := *rev.Reveal
		f(&r)
		a.Reveal = &r
		return a
	}
	refuseAll(t, s, "tl", []refusal{
		{"a move while a round is pending", table.Action{Actor: uid(0), ActionID: "m2", Version: 5, Kind: table.KindMove, Move: []byte(`{"kind":"hold"}`)}, table.CodePending, ""},
		{"a second reveal by seat 0", with(rev, func(a *table.Action) { a.Actor = uid(0); r := *roll.Reveal; a.Reveal = &r }), table.CodeAlreadyRevealed, ""},
		{"a reveal for another seat", mod(func(r *table.Reveal) { r.Seat = 0 }), table.CodeWrongSeat, ""},
		{"a reveal by a spectator", with(rev, func(a *table.Action) { a.Actor = "u9" }), table.CodeNotSeated, ""},
		{"a reveal for another index", mod(func(r *table.Reveal) { r.Index = 2 }), table.CodeWrongIndex, ""},
		{"a reveal after the deadline", with(rev, func(a *table.Action) { a.At = p.Deadline + 1 }), table.CodeDeadlinePassed, ""},
		{"a reveal of another digest", mod(func(r *table.Reveal) { r.Digest = strings.Repeat("ab", 32) }), table.CodeWrongDigest, ""},
		{"a reveal of another transcript", mod(func(r *table.Reveal) { r.Transcript = strings.Repeat("ab", 32) }), table.CodeWrongDigest, ""},
		{"a reveal with a broken signature", mod(func(r *table.Reveal) { r.Signature = roll.Reveal.Signature }), table.CodeBadSignature, ""},
		{"a reveal with another seat's link", mod(func(r *table.Reveal) { r.Link = seat0Link }), table.CodeWrongLink, ""},
		{"a reveal without its reveal", with(rev, func(a *table.Action) { a.Reveal = nil }), table.CodeInvalidAction, ""},
		{"an abort before the deadline", table.Action{Actor: table.ServerActor, ActionID: "ab", Kind: table.KindAbort, At: p.Deadline}, table.CodeDeadlineNotPassed, ""},
		{"an abort by the server's name at a join", table.Action{Actor: table.ServerActor, ActionID: "j", Kind: table.KindJoin}, table.CodeBadActor, ""},
	}, seen)
	res, err := s.Do("tl", rev) // the control: the good reveal closes the round
	require.NoError(t, err)
	require.Equal(t, uint64(6), res.Version)
	v, err := s.View("tl", "")
	require.NoError(t, err)
	require.Nil(t, v.Trustless.Pending)
	require.Len(t, v.Trustless.Moves, 1)
	require.Equal(t, uint32(1), v.Trustless.Moves[0].Index)
}

var pigRoll = game.Move{Kind: pig.KindRoll}
