package match_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// seatsOnly is a definition known only by its seats.
type seatsOnly struct {
	game.Definition
	s game.Seats
}

func (d seatsOnly) Seats() game.Seats { return d.s }

// The deal is balanced: over 6 consecutive games of a game with a 2-value
// and a 3-value option, each seat plays each of the 6 combinations once;
// over 2 games each seat plays each value of the first option once.
func TestDealOptionsIsBalanced(t *testing.T) {
	def := seatsOnly{s: game.Seats{Min: 2, Max: 4, Default: 3, Options: []game.SeatOption{
		{Name: "side", Values: []string{"north", "south"}}, {Name: "hat", Values: []string{"red", "green", "blue"}}}}}
	for _, start := range []int64{0, 5, 120} {
		for seat := range 4 {
			combos := map[[2]string]int{}
			for i := start; i < start+6; i++ {
				s := match.DealOptions(def, i, 4)[seat]
				require.Len(t, s.Options, 2)
				combos[[2]string{s.Options[0], s.Options[1]}]++
			}
			require.Len(t, combos, 6, "start %d seat %d: %v", start, seat, combos)
			sides := map[string]int{}
			for i := start; i < start+2; i++ {
				sides[match.DealOptions(def, i, 4)[seat].Options[0]]++
			}
			require.Equal(t, map[string]int{"north": 1, "south": 1}, sides)
		}
	}
	// By hand: game 3, seat 1: side (3+1) mod 2 = 0 (north); hat
	// (floor(3/2)+1) mod 3 = 2 (blue).
	require.Equal(t, []string{"north", "blue"}, match.DealOptions(def, 3, 4)[1].Options)
	require.Equal(t, "game,seed,seat,uid,side,hat,bot,position,won,payoff", match.PlayersHeaderOf(def))
	require.Equal(t, match.PlayersHeader, match.PlayersHeaderOf(seatsOnly{s: game.Seats{Min: 2, Max: 2, Default: 2}}))
	require.Empty(t, match.DealOptions(seatsOnly{s: game.Seats{Min: 2, Max: 2}}, 7, 2)[1].Options)
}
