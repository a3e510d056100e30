package functions_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/internal/checks"
)

// actData is act's data for the signed action a with action id id, and
// the reveal rv if not nil.
func actData(a engine.Action, id string, rv *engine.Action) map[string]any {
	d := map[string]any{"actionId": id, "kind": a.Kind, "version": a.Version, "signature": a.Signature}
	if a.Target != "" {
		d["target"] = a.Target
	}
	if a.CardID != "" {
		d["cardId"] = a.CardID
	}
	if rv != nil {
		d["reveal"] = map[string]any{"seat": rv.Seat, "index": rv.Index, "link": rv.Link, "digest": rv.Digest,
			"transcript": rv.Transcript, "signature": rv.Signature}
	}
	return d
}

// signed is seat i's action of kind k against the table's version.
func (tb *tlTable) signed(i int, k engine.ActionKind) engine.Action {
	tb.t.Helper()
	a := engine.Action{Kind: k, Actor: tb.seats[i].UID(), Version: tb.state.Version}
	require.NoError(tb.t, tb.seats[i].Sign(&a))
	return a
}

// TestActWithItsRevealThroughTheFunctions: an action that draws, sent
// with its actor's reveal (docs/fairness.md, "An action with its
// reveal"), is applied with it in one commit: pending, the actor's marker
// in the game document and its link nowhere a player reads; the other
// seat's one reveal then closes the round in its own call, and the round
// publishes both links in the order they came. Every way to send it
// wrongly is refused with nothing applied: with an action that draws
// nothing, with a link that is not the chain's, without a field, with a
// field the reveal does not have; the same action id with another reveal;
// the actor's reveal sent again. The refusals by a protocol check have
// their positive controls, on a table of their own: with the engine's
// link check off, the act with a wrong link is taken; with its check of
// a seat's one reveal off, the actor's reveal sent again closes the round
// on its two reveals and is refused only for the other seat's missing
// link.
func TestActWithItsRevealThroughTheFunctions(t *testing.T) {
	s := newTLServer(t)
	tb, x, move, rv := toActReveal(t, s, "tl-actreveal")
	uid, y := tb.seats[x].UID(), 1-x
	before := tb.state.Version
	unchanged := func(what string) {
		t.Helper()
		tb.sync()
		require.Equal(t, before, tb.state.Version, "%s: the game changed", what)
		require.Nil(t, tb.state.Trustless.Pending, "%s: something is pending", what)
	}

	// With an action that draws nothing (a sleep heals: no die).
	sleep := tb.signed(x, engine.ActSleep)
	refused(t, tb.call("act", uid, actData(sleep, "sleep", &rv)), "INVALID_ARGUMENT", "invalid_action")
	unchanged("a reveal with a sleep")
	// With a link that is not the chain's.
	wrong := rv
	wrong.Link = strings.Repeat("0f", 32)
	refused(t, tb.call("act", uid, actData(move, "m-wrong", &wrong)), "INVALID_ARGUMENT", "wrong_link")
	unchanged("a wrong link")
	t.Run("wrong link control", func(t *testing.T) {
		checks.Off(t, checks.RevealLink)
		tb, x, move, rv := toActReveal(t, s, "tl-actreveal-link")
		rv.Link = strings.Repeat("0f", 32)
		require.NoError(t, tb.call("act", tb.seats[x].UID(), actData(move, "m-wrong", &rv)), "with RevealLink off, the act with a wrong link is taken")
	})
	actRevealRest(t, s, tb, x, y, uid, before, move, rv, unchanged)
}

// toActReveal is a table of s whose start's round is closed and whose
// awaited seat x has played up to its move: the move, signed, and the
// reveal that goes with it (index 2).
func toActReveal(t *testing.T, s *tlServer, id string) (tb *tlTable, x int, move, rv engine.Action) {
	tb = newTLTable(t, s, id)
	// The start's round, revealed the usual way.
	for i, uid := range []string{"p1", "p2"} {
		a, err := tb.seats[i].Reveal(&tb.state, 0)
		require.NoError(t, err)
		require.NoError(t, tb.call("reveal", uid, revealData(a, "r1")))
	}
	tb.sync()
	require.Nil(t, tb.state.Trustless.Pending)
	// Play the awaited seat's decisions that draw nothing up to its move.
	for {
		x = map[string]int{"p1": 0, "p2": 1}[tb.state.Awaiting]
		if tb.state.Step == engine.StepMoveOrSleep {
			break
		}
		a := policy.Cautious{}.Choose(&tb.state, eng.Rules(), tb.state.Awaiting)
		a.Actor, a.Version = tb.state.Awaiting, tb.state.Version
		require.NoError(t, tb.seats[x].Sign(&a))
		_, draws, err := tb.seats[x].ActReveal(&a)
		require.NoError(t, err)
		require.False(t, draws, "%s draws", a.Kind)
		require.NoError(t, tb.call("act", a.Actor, actData(a, "a"+string(a.Kind)+strconv.FormatUint(a.Version, 10), nil)))
		tb.sync()
	}
	move = tb.signed(x, engine.ActMove)
	var draws bool
	var err error
	rv, draws, err = tb.seats[x].ActReveal(&move)
	require.NoError(t, err)
	require.True(t, draws, "a move draws")
	require.Equal(t, uint32(2), rv.Index)
	return tb, x, move, rv
}

// actRevealRest is the rest of TestActWithItsRevealThroughTheFunctions.
func actRevealRest(t *testing.T, s *tlServer, tb *tlTable, x, y int, uid string, before uint64, move, rv engine.Action, unchanged func(string)) {
	// Without its link; with a field a reveal does not have.
	noLink := rv
	noLink.Link = ""
	refused(t, tb.call("act", uid, actData(move, "m-nolink", &noLink)), "INVALID_ARGUMENT", "invalid_reveal.link")
	d := actData(move, "m-extra", &rv)
	d["reveal"].(map[string]any)["lnk"] = rv.Link
	err := tb.call("act", uid, d)
	require.Error(t, err)
	require.Contains(t, err.Error(), "data.reveal has an unknown field")
	unchanged("a malformed reveal")

	// The action with its reveal: applied together.
	require.NoError(t, tb.call("act", uid, actData(move, "m", &rv)))
	tb.sync()
	pd := tb.state.Trustless.Pending
	require.NotNil(t, pd)
	require.Equal(t, rv.Index, pd.Index)
	require.Equal(t, before+2, tb.state.Version, "the action and its reveal: two versions")
	require.Len(t, pd.Reveals, 1)
	require.Equal(t, uid, pd.Reveals[0].UID)
	require.Equal(t, rv.Signature, pd.Reveals[0].Signature)
	var raw struct {
		View    map[string]any   `json:"state"`
		Reveals []map[string]any `json:"reveals"`
	}
	require.NoError(t, s.c.Call(context.Background(), "getView", "dev:"+tb.seats[y].UID(), map[string]any{"gameId": tb.id}, &raw))
	require.NotContains(t, strings.ToLower(jsonString(t, raw)), strings.ToLower(rv.Link), "the actor's link is readable before the round closes")
	// The other seat's replica takes the shown reveal (its signature
	// checked), and the other seat has one reveal to send.
	require.NoError(t, player.CheckShown(tb.seats[y].Follower().Game().Public, tb.state))
	_, err = tb.seats[x].Reveal(&tb.state, 0)
	require.ErrorIs(t, err, player.ErrNothingToReveal, "the actor has revealed with its action")

	// The same call again: the first answer. The same action id with
	// another reveal: another request. The actor's reveal sent again.
	require.NoError(t, tb.call("act", uid, actData(move, "m", &rv)))
	other := rv
	other.Transcript = strings.Repeat("ab", 32)
	refused(t, tb.call("act", uid, actData(move, "m", &other)), "ALREADY_EXISTS", "action_id_reused")
	refused(t, tb.call("reveal", uid, revealData(rv, "again")), "ALREADY_EXISTS", "already_revealed")
	t.Run("again control", func(t *testing.T) {
		checks.Off(t, checks.RevealOnce)
		tb, x, move, rv := toActReveal(t, s, "tl-actreveal-again")
		uid := tb.seats[x].UID()
		require.NoError(t, tb.call("act", uid, actData(move, "m", &rv)))
		refused(t, tb.call("reveal", uid, revealData(rv, "again")), "INVALID_ARGUMENT", "invalid_action")
	})

	// The other seat's reveal closes the round in its own call.
	last, err := tb.seats[y].Reveal(&tb.state, 0)
	require.NoError(t, err)
	var res struct {
		Staged bool           `json:"staged"`
		Events []engine.Event `json:"events"`
	}
	require.NoError(t, s.c.Call(context.Background(), "reveal", "dev:"+tb.seats[y].UID(), map[string]any{"gameId": tb.id, "actionId": "r2",
		"seat": last.Seat, "index": last.Index, "link": last.Link, "digest": last.Digest, "transcript": last.Transcript, "signature": last.Signature}, &res))
	require.False(t, res.Staged, "the last reveal closes the round itself")
	require.NotEmpty(t, res.Events)
	require.Equal(t, engine.EvRoundRevealed, res.Events[0].Type)
	rs := res.Events[0].Trust.Reveals
	require.Len(t, rs, 2)
	require.Equal(t, []string{uid, tb.seats[y].UID()}, []string{rs[0].UID, rs[1].UID}, "in the order they came")
	require.Equal(t, rv.Link, rs[0].Link.String())
	tb.sync()
	require.Nil(t, tb.state.Trustless.Pending)
	for _, seat := range tb.seats {
		require.NoError(t, seat.Follower().Err(), "the round replays for the players")
	}
	require.NoError(t, player.CheckShown(tb.seats[y].Follower().Game().Public, tb.state))
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
