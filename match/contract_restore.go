package match

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// restore checks, for a game.Restorer, that st made again from its three
// parts (game.RestoreState, under the default ruleset, as the contract's
// games are played) is st: the same state bytes, seat to move, outcome
// and legal moves of every seat, and every legal move of the seat to
// move applied to both with the same draws gives the same state bytes and
// events.
func (c *contract) restore(st game.State) {
	n := st.NumSeats()
	priv := make([][]byte, n)
	for s := range n {
		priv[s] = st.AppendPrivate(nil, s)
	}
	r, err := game.RestoreState(c.def, c.def.DefaultRuleset(), make([]game.Seat, n), st.AppendPublic(nil), priv, st.AppendSecret(nil))
	if errors.Is(err, game.ErrNotRestorer) {
		return
	}
	if err != nil {
		c.fail("RestoreState refuses a reachable state's parts: %v", err)
		return
	}
	if !bytes.Equal(StateBytes(r), StateBytes(st)) || r.ToMove() != st.ToMove() || fmt.Sprint(r.Outcome()) != fmt.Sprint(st.Outcome()) {
		c.fail("RestoreState gives another state than the one whose parts it was given")
		return
	}
	for s := range n {
		if !slices.Equal(r.Legal(s, nil), st.Legal(s, nil)) {
			c.fail("RestoreState's state lists other legal moves for seat %d", s)
			return
		}
	}
	to := st.ToMove()
	if to == game.Nobody {
		return
	}
	for i, mv := range st.Legal(to, nil) {
		seed := fmt.Sprintf("restore/%d", i)
		ra, _ := rng.NewSeeded(seed)
		rb, _ := rng.NewSeeded(seed)
		a, b := st.Clone(), r.Clone()
		evA, errA := a.Apply(mv, game.FromStream(ra), nil)
		evB, errB := b.Apply(mv, game.FromStream(rb), nil)
		if (errA == nil) != (errB == nil) || !slices.Equal(evA, evB) || !bytes.Equal(StateBytes(a), StateBytes(b)) {
			c.fail("a %s applied to RestoreState's state gives other events or state bytes than to the original", mv.Kind)
			return
		}
	}
}
