package dungeon

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// notBuiltIn is the cautious policy behind a type policy.BuiltInOf does not
// know: its choices take the copying path (State.choose copies them).
type notBuiltIn struct{ policy.Cautious }

// playChosen plays seeded games of 2 to 5 seats whose seats' policies
// are pols in turn, calling each for every decision through ChooseDirect
// (which keeps the move's engine action on the state), and at each
// decision calls check with the state, the seat and the move chosen,
// before the move is applied. It returns the kinds chosen.
func playChosen(t *testing.T, games int, pols []policy.Policy, check func(s *State, seat int, m game.Move)) map[string]int {
	kinds := map[string]int{}
	for g := range games {
		n := 2 + g%4
		seats := make([]game.Seat, n)
		policies := make([]*Policy, n)
		for i := range seats {
			policies[i] = &Policy{Bot: pols[(g+i)%len(pols)]}
		}
		s, err := rng.NewSeeded(fmt.Sprint("chosen-", g))
		require.NoError(t, err)
		rnd := game.FromStream(s)
		st, _, err := Def.Setup(DefaultRules(), seats, rnd, nil)
		require.NoError(t, err)
		ds := st.(*State)
		for moves := 0; ds.ToMove() != game.Nobody; moves++ {
			require.Less(t, moves, 20000, "game %d does not end", g)
			seat := ds.ToMove()
			m := policies[seat].ChooseDirect(ds, seat)
			kinds[m.Kind]++
			check(ds, seat, m)
			_, err := ds.Apply(m, rnd, nil)
			require.NoError(t, err, "game %d, %s by seat %d", g, m.Kind, seat)
		}
	}
	return kinds
}

// The action a policy's choice keeps on the state is, field for field,
// the one Apply builds for the move on a state that kept none (a clone):
// for the built-in policies (kept as policy.BuiltIn.Pick wrote it) and for
// a policy that is not built in (copied).
func TestChosenActionIsBuilt(t *testing.T) {
	pols := []policy.Policy{policy.Cautious{}, policy.Aggressive{}, notBuiltIn{}}
	kinds := playChosen(t, 12, pols, func(s *State, seat int, m game.Move) {
		require.True(t, s.chosenOK, "%s by seat %d: no action kept", m.Kind, seat)
		c := s.Clone().(*State) // keeps nothing: builds the action from the move
		want, err := c.action(m)
		require.NoError(t, err)
		require.Equal(t, *want, *s.chosenAct, "%s by seat %d", m.Kind, seat)
	})
	for _, k := range []engine.ActionKind{engine.ActUseItem, engine.ActOfferDuel, engine.ActDiscard, engine.ActMove} {
		require.Positive(t, kinds[string(k)], "no %s chosen: the test misses the moves with an argument", k)
	}
}

// A kept action serves the one move it was kept for, once: after that
// move is applied, the same move applied again (an item index now naming
// another card, a target now elsewhere) is built anew, as on a state
// that never kept one. Control: the kept action left valid after the
// dispatch plays a used card again, which this test catches.
func TestChosenActionNotKeptPastItsMove(t *testing.T) {
	differ := func(stale bool) (checked, differed int) {
		pols := []policy.Policy{policy.Cautious{}, policy.Aggressive{}}
		playChosen(t, 6, pols, func(s *State, seat int, m game.Move) {
			// On two clones: the move applied, then applied again, one
			// clone keeping the choice (as the state would), the other
			// not.
			kept, fresh := s.Clone().(*State), s.Clone().(*State)
			kept.choose(seat, m, s.chosenAct)
			r1, r2 := stream(t), stream(t) // the same draws on both
			_, err := kept.Apply(m, r1, nil)
			require.NoError(t, err)
			_, err = fresh.Apply(m, r2, nil)
			require.NoError(t, err)
			if stale {
				kept.chosenOK = true // the control: the kept action outlives its move
			}
			_, e1 := kept.Apply(m, r1, nil)
			_, e2 := fresh.Apply(m, r2, nil)
			checked++
			if fmt.Sprint(e1) != fmt.Sprint(e2) || string(kept.AppendPublic(nil)) != string(fresh.AppendPublic(nil)) {
				differed++
			}
		})
		return checked, differed
	}
	checked, differed := differ(false)
	require.Positive(t, checked)
	require.Zero(t, differed, "of %d moves applied twice, %d differed from a state that kept nothing", checked, differed)
	_, differed = differ(true)
	require.Positive(t, differed, "control: a kept action outliving its move is never caught")
}

// stream is a seeded Rand, the same for every call.
func stream(t *testing.T) game.Rand {
	s, err := rng.NewSeeded("chosen-twice")
	require.NoError(t, err)
	return game.FromStream(s)
}
