package service

import (
	"slices"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// awaits names the round's closer alike for every reveal (the highest
// seat that has not revealed into the game): the closer waits for the
// seats neither revealed nor staged; any other reveal waits for nothing,
// and is told that the closer is still to stage (so its staging need not
// look at the round again) exactly while the closer's reveal is not among
// the staged ones.
func TestAwaitsNamesTheCloser(t *testing.T) {
	p := &engine.Public{Trustless: &engine.Trustless{
		Seats:   []engine.TrustSeat{{Seat: 0}, {Seat: 1}, {Seat: 2}, {Seat: 3}},
		Pending: &engine.Pending{Index: 4, Reveals: []engine.RevealMark{{Seat: 1}}},
	}}
	staged := func(seats ...int) []engine.Action {
		var out []engine.Action
		for _, s := range seats {
			out = append(out, engine.Action{Seat: s, Index: 4})
		}
		return out
	}
	cases := []struct {
		name   string
		staged []engine.Action
		seat   int
		await  []int
		closer bool
	}{
		{"the closer, nothing staged", nil, 3, []int{0, 2}, false},
		{"the closer, seat 0 staged", staged(0), 3, []int{2}, false},
		{"another seat, the closer not staged", staged(0), 2, nil, true},
		{"another seat, the closer staged", staged(3), 0, nil, false},
		{"the seat revealed with the act", nil, 1, nil, true},
	}
	for _, c := range cases {
		await, closer := awaits(p, c.staged, c.seat)
		if !slices.Equal(await, c.await) || closer != c.closer {
			t.Errorf("%s: awaits = %v, %v; want %v, %v", c.name, await, closer, c.await, c.closer)
		}
	}
	if await, closer := awaits(&engine.Public{}, nil, 0); await != nil || closer {
		t.Errorf("no trustless round: awaits = %v, %v", await, closer)
	}
}
