package match

import (
	"bytes"
	"fmt"
	"math"

	"github.com/fairboard/fairboard/game"
)

// hidden records what seat s sees against what it may see.
func (c *contract) hidden(st game.State, s int) {
	key := fmt.Sprintf("%d\x00%s\x00%s", s, st.AppendPublic(nil), st.AppendPrivate(nil, s))
	val := st.AppendView(nil, s)
	for _, m := range st.Legal(s, nil) {
		val = append(val, 0)
		val = game.AppendMoveCanonical(val, c.kinds, m)
	}
	if old, ok := c.views[key]; ok && old != string(val) {
		c.fail("seat %d's view or legal moves differ between two states with the same public part and own private part: they read another seat's private part or the secret part", s)
	}
	c.views[key] = string(val)
}

// moveEvents records, for each seat, the events it may read of move mv
// from before to after against what it sees of both.
func (c *contract) moveEvents(before game.State, mv game.Move, after game.State, evs []game.Event) {
	types := c.def.EventTypes()
	for s := range before.NumSeats() {
		key := fmt.Sprintf("%d\x00%s\x00%s\x00%s\x00%s\x00%s", s, before.AppendPublic(nil), before.AppendPrivate(nil, s),
			desc(c.kinds, mv), after.AppendPublic(nil), after.AppendPrivate(nil, s))
		var val []byte
		for _, e := range evs {
			if e.Visible(s) {
				val = game.AppendEventJSON(val, types, 0, e)
			}
		}
		if old, ok := c.events[key]; ok && old != string(val) {
			c.fail("the events seat %d reads of a %s differ between two moves it cannot tell apart: they carry another seat's private part or the secret part", s, mv.Kind)
		}
		c.events[key] = string(val)
	}
}

// sample checks the sampler for seat s.
func (c *contract) sample(st game.State, s int) {
	sm := st.Sample(s, game.FromStream(c.probe))
	if sm == nil {
		c.fail("Sample returned nil")
		return
	}
	same := func(f func(b []byte, st game.State) []byte) bool { return bytes.Equal(f(nil, st), f(nil, sm)) }
	switch {
	case !same(func(b []byte, x game.State) []byte { return x.AppendView(b, s) }):
		c.fail("a state sampled for seat %d shows it another view", s)
	case !same(func(b []byte, x game.State) []byte { return x.AppendPublic(b) }):
		c.fail("a state sampled for seat %d has another public part", s)
	case !same(func(b []byte, x game.State) []byte { return x.AppendPrivate(b, s) }):
		c.fail("a state sampled for seat %d has another private part for it", s)
	case !same(func(b []byte, x game.State) []byte { return x.AppendInfoKey(b, s) }):
		c.fail("a state sampled for seat %d has another information-state key", s)
	}
	if err := sm.Check(); err != nil {
		c.fail("a sampled state fails Check: %v", err)
	}
}

// chance checks the chance outcomes of the awaited seat's legal moves.
func (c *contract) chance(st game.State) {
	seat := st.ToMove()
	if seat == game.Nobody {
		return
	}
	for _, m := range st.Legal(seat, nil) {
		outs, ok := st.ChanceOutcomes(m)
		if !ok {
			continue
		}
		if len(outs) == 0 {
			rnd := &counting{Rand: game.FromStream(c.probe)}
			if _, err := st.Clone().Apply(m, rnd, nil); err != nil || rnd.n != 0 {
				c.fail("%s lists no chance outcome but draws (or is refused: %v)", m.Kind, err)
			}
			continue
		}
		sum := 0.0
		for i, o := range outs {
			sum += o.P
			if i >= 64 {
				continue
			}
			script := game.Script(o.Draws...)
			if err := applyScripted(st.Clone(), m, script); err != nil || !script.Done() {
				c.fail("%s's chance outcome %v does not apply with exactly its draws: %v", m.Kind, o.Draws, err)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			c.fail("%s's chance outcomes sum to %g, not 1", m.Kind, sum)
		}
	}
}

// applyScripted applies m with script, turning a script's panic (a draw
// past its end or out of range) into an error.
func applyScripted(st game.State, m game.Move, script *game.Scripted) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	_, err = st.Apply(m, script, nil)
	return err
}
