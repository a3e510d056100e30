package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// TestTrustlessCloseRefusesACorruptRound: the last reveal closes a round
// from the reveals held pending and their links kept in Secret; a state
// in which they do not match (a store that lost a link, a held reveal of
// a player with no seat or of another seat than its link's, a seat held
// twice and another missing) is refused as it is, never closed with a
// link missing or misplaced, and the game is left exactly as it was.
func TestTrustlessCloseRefusesACorruptRound(t *testing.T) {
	const mismatch = "the pending round's secret links do not match its reveals"
	for name, c := range map[string]struct {
		corrupt func(g *engine.Game)
		want    string
	}{
		"a link lost":                 {func(g *engine.Game) { g.Secret.Links = g.Secret.Links[:1] }, mismatch},
		"no link at all":              {func(g *engine.Game) { g.Secret.Links = nil }, mismatch},
		"a held reveal of a stranger": {func(g *engine.Game) { g.Public.Trustless.Pending.Reveals[0].UID = "mallory" }, mismatch},
		"a link of another seat":      {func(g *engine.Game) { g.Secret.Links[1].Seat = 0 }, mismatch},
		"a seat held twice": {func(g *engine.Game) {
			pd := g.Public.Trustless.Pending
			pd.Reveals[1] = pd.Reveals[0]
			g.Secret.Links[1] = g.Secret.Links[0]
		}, "the pending round is missing seat 1's link"},
	} {
		t.Run(name, func(t *testing.T) {
			tg := newTrustless(t, 3)
			tg.must(tg.signed(0, engine.Action{Kind: engine.ActStart}))
			tg.must(tg.reveal(0))
			tg.must(tg.reveal(1))
			last := tg.reveal(2) // before the state is corrupted: the seat checks what it is shown
			require.Len(t, tg.g.Secret.Links, 2)
			c.corrupt(&tg.g)
			tg.refused(last, engine.CodeInvalidAction)
			_, err := tg.do(last)
			require.ErrorContains(t, err, c.want)
		})
	}
}

// TestTrustlessAbortOfARoundWithALostLink: an abort at the deadline ends
// a round whose held reveals outnumber the links kept in Secret (a store
// that lost one): each reveal is published, the one whose link is lost
// without it, and the game ends; nothing reads past the links kept.
func TestTrustlessAbortOfARoundWithALostLink(t *testing.T) {
	tg := newTrustless(t, 3)
	tg.must(tg.signed(0, engine.Action{Kind: engine.ActStart}))
	tg.must(tg.reveal(0))
	tg.must(tg.reveal(1))
	kept := tg.g.Secret.Links[0].Link
	tg.g.Secret.Links = tg.g.Secret.Links[:1]
	tg.noFollow = true // the seats' replicas would refuse a reveal without its link
	pd := tg.g.Public.Trustless.Pending
	ev := tg.must(engine.Action{Kind: engine.ActAbort, Actor: "server", At: pd.Deadline + 1})
	rec := ev[0].Trust
	require.Equal(t, engine.AbortDeadline, rec.Reason)
	require.Len(t, rec.Reveals, 2)
	require.Equal(t, kept, rec.Reveals[0].Link)
	require.Equal(t, engine.Hash32{}, rec.Reveals[1].Link, "the lost link is not made up")
	require.Equal(t, []string{"p3"}, rec.Missing)
	require.Equal(t, engine.PhaseFinished, tg.g.Public.Phase)
}
