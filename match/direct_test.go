package match_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// holdAt is a Pig policy that holds at a turn total of n, read from the
// public part; as a game.DirectPolicy it also says how often the loop
// asked it without the list, and, if broken, holds at 0 (not a legal
// move).
type holdAt struct {
	n      int64
	direct *int
	listed *int
	broken bool
}

func turnTotal(t *testing.T, st game.State) int64 {
	var pub struct {
		TurnTotal int64 `json:"turnTotal"`
	}
	require.NoError(t, json.Unmarshal(st.AppendPublic(nil), &pub))
	return pub.TurnTotal
}

// Choose implements game.Policy.
func (h holdAt) Choose(st game.State, seat int, legal []game.Move) game.Move {
	*h.listed++
	for _, m := range legal {
		if m.Kind == "hold" {
			return m
		}
	}
	return legal[0]
}

type directHold struct {
	holdAt
	t *testing.T
}

// ChooseDirect implements game.DirectPolicy.
func (h directHold) ChooseDirect(st game.State, seat int) game.Move {
	*h.direct++
	if h.broken || turnTotal(h.t, st) >= h.n {
		return game.Move{Seat: seat, Kind: "hold"}
	}
	return game.Move{Seat: seat, Kind: "roll"}
}

// The simulations' loop asks a style whose policy is a game.DirectPolicy
// without the legal list, and only it (a plain policy is handed the
// list); the direct move is checked by Apply all the same: a policy that
// holds at a turn total of 0 (not a legal move) stops the game with the
// game's refusal.
func TestPlayOutAsksDirectPolicies(t *testing.T) {
	newMatch := func(seed string) *match.Match {
		m, err := match.New(pig.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2), Lean: true})
		require.NoError(t, err)
		return m
	}
	var direct, listed int
	d := match.NewStyleBot("direct", directHold{holdAt{n: 15, direct: &direct, listed: &listed}, t})
	p := match.NewStyleBot("plain", holdAt{direct: &direct, listed: &listed})
	moves, err := match.PlayOut(newMatch("direct#1"), []match.Bot{d, p}, 0)
	require.NoError(t, err)
	require.Positive(t, direct)
	require.Positive(t, listed)
	require.EqualValues(t, moves, direct+listed, "one choice a move, each bot by its own way")

	broken := match.NewStyleBot("broken", directHold{holdAt{n: 15, direct: &direct, listed: &listed, broken: true}, t})
	_, err = match.PlayOut(newMatch("direct#2"), []match.Bot{broken, broken}, 0)
	require.Error(t, err)
	require.ErrorIs(t, err, game.CodeInvalidAction)
	require.Contains(t, err.Error(), "broken's hold refused")
}
