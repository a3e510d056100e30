package eights_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/eights"
	"github.com/fairboard/fairboard/match"
)

// The contract suite over Crazy Eights at 2, 2 and 4 seats.
func TestContract(t *testing.T) {
	require.NoError(t, match.CheckContract(eights.Def, match.ContractOptions{Games: 4}))
}

// leaky is Crazy Eights whose view shows the next seat's hand: the
// contract suite's hidden-information checks must catch it (the positive
// control of TestContract).
type leaky struct{ eights.Definition }

type leakyState struct{ *eights.State }

func (l leaky) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := l.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return leakyState{st.(*eights.State)}, ev, nil
}

func (s leakyState) Clone() game.State { return leakyState{s.State.Clone().(*eights.State)} }
func (s leakyState) Sample(seat int, rnd game.Rand) game.State {
	return leakyState{s.State.Sample(seat, rnd).(*eights.State)}
}
func (s leakyState) AppendView(b []byte, seat int) []byte {
	return fmt.Appendf(s.State.AppendView(b, seat), " next %v", s.Hand((seat+1)%s.NumSeats()))
}

// blind is Crazy Eights whose sampler deals the seat's own hand again.
type blind struct{ eights.Definition }

type blindState struct{ *eights.State }

func (l blind) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := l.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return blindState{st.(*eights.State)}, ev, nil
}

func (s blindState) Clone() game.State { return blindState{s.State.Clone().(*eights.State)} }

// Sample samples for the next seat: the seat's own hand is dealt again.
func (s blindState) Sample(seat int, rnd game.Rand) game.State {
	return blindState{s.State.Sample((seat+1)%s.NumSeats(), rnd).(*eights.State)}
}

func TestContractCatchesLeaks(t *testing.T) {
	require.ErrorContains(t, match.CheckContract(leaky{}, match.ContractOptions{Games: 1}), "another view")
	require.ErrorContains(t, match.CheckContract(blind{}, match.ContractOptions{Games: 1}), "another view")
}
