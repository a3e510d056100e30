package engine_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/rng"
)

// TestTrustlessLinksHiddenUntilTheRoundCloses: after every reveal that
// does not close its round, nothing a player can read (Public, every
// event) holds the link; once the round closes, every link is there. The
// positive control: the same scan finds the links in Secret, and in a
// Public that holds one by mistake.
func TestTrustlessLinksHiddenUntilTheRoundCloses(t *testing.T) {
	tg := newTrustless(t, 4)
	tg.must(tg.signed(0, engine.Action{Kind: engine.ActStart}))
	for round := 0; round < 6; round++ {
		pd := tg.g.Public.Trustless.Pending
		require.NotNil(t, pd)
		v := pd.Index
		var held []string
		for k := range 3 {
			a := tg.reveal((int(v) + k) % 4)
			tg.must(a)
			held = append(held, a.Link)
			pub := tg.publicJSON()
			for _, l := range held {
				require.NotContains(t, string(pub), l, "round %d: a link is readable before the round closes", v)
			}
			// Positive control: the scan sees the link where it is.
			sec, _ := tg.g.CanonicalJSON()
			require.Contains(t, string(sec), held[k], "the link is in Secret")
			leak := tg.g.Clone()
			leak.Public.Trustless.Pending.Reveals[k].Signature = held[k]
			b, _ := leak.CanonicalJSON()
			require.Contains(t, string(b[:bytes.Index(b, []byte(`"secret"`))]), held[k], "a Public holding a link is caught")
		}
		last := tg.reveal((int(v) + 3) % 4)
		tg.must(last)
		pub := string(tg.publicJSON())
		for _, l := range append(held, last.Link) {
			require.Contains(t, pub, l, "round %d: the closed round publishes every link", v)
		}
		// Play on to the next pending action.
		p := &tg.g.Public
		for p.Trustless.Pending == nil && p.Phase == engine.PhasePlaying {
			_, i := p.Player(p.Awaiting)
			a := engine.Action{Kind: engine.ActMove}
			switch p.Step {
			case engine.StepManage:
				a.Kind = engine.ActEndManage
			case engine.StepPreDuel:
				a.Kind = engine.ActSkipDuel
			case engine.StepCombat:
				a.Kind = engine.ActCombatRound
			case engine.StepCapacity:
				a.Kind, a.CardID = engine.ActDiscard, p.Players[i].Items[0]
			}
			tg.must(tg.signed(i, a))
		}
	}
}

// TestTrustlessRandomIsTheStatesAnswer: whether an action is held for a
// round is decided by a dry run of the action on the current state, not by
// its kind: the same kind, by the same player, is applied at once in one
// state and held in another. (A probe handler for open draws a word only
// when an odd number of players is seated.)
func TestTrustlessRandomIsTheStatesAnswer(t *testing.T) {
	tab := engine.ReferenceTable()
	tab[engine.ActOpen] = func(c *engine.Ctx, a *engine.Action) error {
		if len(c.P.Players)%2 == 1 {
			c.RNG.Uint32(rng.TagTestOnly, nil)
		}
		c.Add(engine.EvRoundEnded).Round = len(c.P.Players)
		return nil
	}
	tg := newTrustless(t, 2)
	tg.eng = engine.New(engine.DefaultRules(), tab)
	tg.noFollow = true // the seats' replicas play the real rules
	ev := tg.must(tg.signed(0, engine.Action{Kind: engine.ActOpen}))
	require.Equal(t, []engine.EventType{engine.EvRoundEnded, engine.EvActionAccepted}, []engine.EventType{ev[0].Type, ev[1].Type},
		"two players: open draws nothing and is applied at once")
	require.Zero(t, tg.g.Public.RNG.Seq)

	s, err := player.NewSeat(tg.eng.Rules(), "tg", "p3", 2, uint32(testChain))
	require.NoError(t, err)
	tg.seats = append(tg.seats, s)
	j, err := s.Join(engine.ClassDuelist, false, tg.g.Public.Version)
	require.NoError(t, err)
	tg.must(j)
	ev = tg.must(tg.signed(0, engine.Action{Kind: engine.ActOpen}))
	require.Len(t, ev, 1)
	require.Equal(t, engine.EvActionPending, ev[0].Type, "three players: the same open draws, and waits for its round")
	pd := tg.g.Public.Trustless.Pending
	for i := range 3 {
		tg.must(tg.revealSigned(i, pd.Index, pd.Digest, pd.Transcript, tg.link(i, pd.Index)))
	}
	require.Equal(t, uint64(1), tg.g.Public.RNG.Seq, "applied with the round's stream: one word")
}
