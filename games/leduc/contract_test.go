package leduc_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
)

// The contract suite plays Leduc at its minimum, default and maximum
// seat counts (2, 2 and 10).
func TestContract(t *testing.T) {
	require.NoError(t, match.CheckContract(leduc.Def, match.ContractOptions{Games: 40}))
}

// seats is a definition that takes exactly n seats: the contract suite
// then plays it with n.
type seats struct {
	game.Definition
	n int
}

func (d seats) Seats() game.Seats { return game.Seats{Min: d.n, Max: d.n, Default: d.n} }

// The contract suite over three-seat Leduc, with its positive controls:
// a view that shows the next seat's card, a sampler that deals the seat's
// own card again.
func TestContractThreeSeats(t *testing.T) {
	require.NoError(t, match.CheckContract(seats{leduc.Def, 3}, match.ContractOptions{Games: 60}))
	require.ErrorContains(t, match.CheckContract(seats{leaky{}, 3}, match.ContractOptions{Games: 60}), "view or legal moves differ")
	require.ErrorContains(t, match.CheckContract(seats{badSample{}, 3}, match.ContractOptions{Games: 60}), "shows it another view")
}

// leaky is Leduc whose view shows the next seat's card: the contract
// suite's hidden-information check must catch it (the positive control of
// TestContract).
type leaky struct{ leduc.Definition }

type leakyState struct{ *leduc.State }

func (l leaky) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := l.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return leakyState{st.(*leduc.State)}, ev, nil
}

func (s leakyState) Clone() game.State { return leakyState{s.State.Clone().(*leduc.State)} }
func (s leakyState) Sample(seat int, rnd game.Rand) game.State {
	return leakyState{s.State.Sample(seat, rnd).(*leduc.State)}
}
func (s leakyState) AppendView(b []byte, seat int) []byte {
	return fmt.Appendf(s.State.AppendView(b, seat), " other %d", s.Card((seat+1)%s.NumSeats()))
}

func TestContractCatchesLeak(t *testing.T) {
	require.ErrorContains(t, match.CheckContract(leaky{}, match.ContractOptions{Games: 40}), "view or legal moves differ")
}

// badSample is Leduc whose sampler deals the seat's own card again
// instead of the other's: a sample that changes the seat's own view must
// be caught (the positive control of the sampler's check).
type badSample struct{ leduc.Definition }

type badSampleState struct{ *leduc.State }

func (l badSample) Setup(r game.Ruleset, seats []game.Seat, rnd game.Rand, ev []game.Event) (game.State, []game.Event, error) {
	st, ev, err := l.Definition.Setup(r, seats, rnd, ev)
	if err != nil {
		return nil, ev, err
	}
	return badSampleState{st.(*leduc.State)}, ev, nil
}

func (s badSampleState) Clone() game.State { return badSampleState{s.State.Clone().(*leduc.State)} }

func (s badSampleState) Sample(seat int, rnd game.Rand) game.State {
	return badSampleState{s.State.Sample((seat+1)%s.NumSeats(), rnd).(*leduc.State)}
}

func TestContractCatchesBadSample(t *testing.T) {
	require.ErrorContains(t, match.CheckContract(badSample{}, match.ContractOptions{Games: 40}), "shows it another view")
}
