package trustseat_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// started makes a started 2-seat trustless table g of def.
func started(t *testing.T, m *table.Memory, def game.Definition, g string) []*trustseat.Seat {
	t.Helper()
	_, err := m.Create(g, def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeTrustless, Seats: 2, ChainLength: 4096})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(def, g, uid(i), i, 4096)
		require.NoError(t, err)
		_, err = m.Do(g, seats[i].Join("j", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = m.Do(g, table.Action{Actor: uid(0), ActionID: "s", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	return seats
}

// verified checks the finished table's record as gamectl verify does.
func verified(t *testing.T, m *table.Memory, def game.Definition, g string) {
	t.Helper()
	rec, err := m.Record(g, uid(0))
	require.NoError(t, err)
	div, err := match.CheckRecord(def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
}

// firstLegal plays the first legal move (poker: check or bet first, so
// hands go to a showdown; Pig: roll), and at Pig the last (hold) once
// the turn's total reaches 20.
func firstLegal(v *table.View) game.Move {
	if v.Game == pig.Def.Name() && len(v.Legal) > 1 {
		var st struct{ TurnTotal int }
		if json.Unmarshal(v.State, &st) == nil && st.TurnTotal >= 20 {
			return v.Legal[len(v.Legal)-1]
		}
	}
	return v.Legal[0]
}

// prefixed is a trustseat.Server whose action ids carry a prefix: one
// table played by several calls of Play (each numbers its actions from
// a0).
type prefixed struct {
	memSrv
	p string
}

func (s prefixed) Do(a table.Action) (*table.Result, error) {
	a.ActionID = s.p + a.ActionID
	return s.memSrv.Do(a)
}

// points names where in the game a step is, for the restores counted.
func point(v *table.View) string {
	p := v.Trustless
	switch {
	case p.Deal != nil && p.Deal.Phase == trustdeal.PhasePass && len(p.Deal.Passes) > 0:
		return "mid-deal"
	case p.Deal != nil && p.Deal.Phase != trustdeal.PhasePass:
		return "cards dealt"
	case p.Pending != nil && len(p.Pending.Reveals) > 0:
		return "mid-round"
	case p.Pending == nil && len(p.Moves) > 0:
		return "between rounds"
	}
	return "other"
}

// Every seat is replaced, before every action of whole trustless Pig,
// Kuhn and Leduc games, by the seat its exported secrets restore (what a
// page reloaded at that moment holds): mid-deal, with the cards dealt and
// opened, between rounds and mid-round; the games end and their records
// verify. The control: seats drawn again (New) instead, at one such
// moment, cannot play on (Pig: the new seat, which revealed nothing, is
// asked for the next index; poker: its new key is not the one the seat
// joined with, and its deal client refuses to start).
func TestRestoreEveryStep(t *testing.T) {
	for _, c := range []struct {
		def     game.Definition
		want    []string
		refused string // the control's refusal
	}{
		{pig.Def, []string{"between rounds", "mid-round"}, "asked for index"},
		{kuhn.Def, []string{"mid-deal", "cards dealt"}, "the signing key is not seat 0.s"},
		{leduc.Def, []string{"mid-deal", "cards dealt"}, "the signing key is not seat 0.s"},
	} {
		t.Run(c.def.Name(), func(t *testing.T) {
			m := table.NewMemory()
			g := "r-" + c.def.Name()
			seats := started(t, m, c.def, g)
			seen := map[string]int{}
			v, err := trustseat.Play(memSrv{m, g}, seats, firstLegal, func(v *table.View) bool {
				seen[point(v)]++
				for i, s := range seats {
					back, err := trustseat.Restore(c.def, g, s.UID(), s.Index(), s.Export())
					require.NoError(t, err)
					seats[i] = back
				}
				return false
			}, 2000)
			require.NoError(t, err)
			require.Equal(t, table.PhaseFinished, v.Phase)
			require.False(t, v.Outcome.Abandoned)
			for _, p := range c.want {
				require.Positive(t, seen[p], "no restore %s (%v)", p, seen)
			}
			verified(t, m, c.def, g)
		})
		t.Run(c.def.Name()+"/control", func(t *testing.T) {
			m := table.NewMemory()
			g := "rc-" + c.def.Name()
			seats := started(t, m, c.def, g)
			_, err := trustseat.Play(memSrv{m, g}, seats, firstLegal, func(v *table.View) bool {
				if point(v) == c.want[0] {
					for i, s := range seats {
						fresh, err := trustseat.New(c.def, g, s.UID(), s.Index(), 4096)
						require.NoError(t, err)
						seats[i] = fresh
					}
				}
				return false
			}, 2000)
			require.Error(t, err)
			require.Regexp(t, c.refused, err.Error())
		})
	}
}

// A Kuhn seat restored after its card was opened on its device opens the
// same card again, and the table plays on to a record that verifies; a
// seat restored mid-deal (after its first pass, before its second) makes
// its second pass with the keys its first pass committed to.
func TestRestoreKeepsCards(t *testing.T) {
	m := table.NewMemory()
	seats := started(t, m, kuhn.Def, "kc")
	srv := prefixed{memSrv{m, "kc"}, "1"}
	// Mid-deal: seat 0 has made its first pass and awaits its second.
	_, err := trustseat.Play(srv, seats, firstLegal, func(v *table.View) bool {
		d := v.Trustless.Deal
		return d.Phase == trustdeal.PhasePass && d.NextSeat == 0 && len(d.Passes) == 2
	}, 100)
	require.NoError(t, err)
	seats[0], err = trustseat.Restore(kuhn.Def, "kc", uid(0), 0, seats[0].Export())
	require.NoError(t, err)
	// Cards opened.
	srv.p = "2"
	_, err = trustseat.Play(srv, seats, firstLegal, func(v *table.View) bool { return v.Trustless.Deal.Phase == trustdeal.PhasePlay }, 100)
	require.NoError(t, err)
	cards := make([]map[int]int, 2)
	for i, s := range seats {
		v, err := srv.View(s.UID())
		require.NoError(t, err)
		_, err = s.DealTo("x", v) // takes the view in; nothing to send in play
		require.NoError(t, err)
		cards[i] = s.Cards()
		require.Len(t, cards[i], 1, "seat %d's card is opened", i)
		back, err := trustseat.Restore(kuhn.Def, "kc", s.UID(), i, s.Export())
		require.NoError(t, err)
		require.Empty(t, back.Cards(), "nothing is opened before a view")
		_, err = back.DealTo("x", v)
		require.NoError(t, err)
		require.Equal(t, cards[i], back.Cards(), "seat %d opens the same card again", i)
		seats[i] = back
	}
	require.NotEqual(t, cards[0], cards[1])
	srv.p = "3"
	v, err := trustseat.Play(srv, seats, firstLegal, nil, 100)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, v.Phase)
	verified(t, m, kuhn.Def, "kc")
}
