package match_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
)

func TestContractPeek(t *testing.T) {
	require.NoError(t, match.CheckContract(peek{}, match.ContractOptions{Games: 30}))
}

// The positive controls: each broken variant is caught, by the check
// that names its fault.
func TestContractCatches(t *testing.T) {
	for _, c := range []struct {
		name string
		def  game.Definition
		want string
	}{
		{"a view that shows the other seat's card", peek{leakView: true}, "view or legal moves differ"},
		{"an event that tells the guesser's card", peek{leakEvent: true}, "events seat 1 reads of a guess differ"},
		{"a sampler that changes the seat's own card", peek{badSample: true}, "a state sampled for seat 0 shows it another view"},
		{"a legal list that omits a move", matchtest.Omit(peek{}), "which Legal does not list"},
		{"a legal list that adds a move", matchtest.Add(peek{}), "Legal lists"},
		{"a legal list for a seat that is not seated", matchtest.Unseated(peek{}), "which is not seated"},
		{"a game with private cards that declares itself all public", falselyPublic{peek{}}, "declares every part public (game.AllPublic) but seat"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := match.CheckContract(c.def, match.ContractOptions{Games: 30})
			require.ErrorContains(t, err, c.want)
			t.Log(err)
		})
	}
}

// falselyPublic is peek, whose cards are private, declaring every part
// public: the contract's check of game.AllPublic must catch it.
type falselyPublic struct{ peek }

func (falselyPublic) AllPublic() bool { return true }
