// Package api stands for the transport layer: it builds or restores the
// stream and hands it to the engine; it never draws.
package api

import (
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/rng"
)

func Move(state string, deck []string) (string, error) {
	s, err := rng.Restore(state, "seed") // fine: restoring and passing a stream
	if err != nil {
		return "", err
	}
	reducers.Setup(s, deck)
	_ = s.Seq()
	return s.State() // fine: persisting the state is the transport's job
}

func Cheat(s *rng.Stream, src rng.Source, deck []string) {
	s.Dice(6, rng.TagMoveRoll, nil)              // want `\(\*rng.Stream\).Dice draws from the RNG in the transport layer: only the engine may call the RNG`
	s.UniformInt(1, 6, rng.TagMoveRoll, nil)     // want `\(\*rng.Stream\).UniformInt draws`
	s.Float01(rng.TagMoveRoll, nil)              // want `\(\*rng.Stream\).Float01 draws`
	rng.Shuffle(s, deck, rng.TagMoveRoll, nil)   // want `rng.Shuffle draws`
	rng.ChooseOne(s, deck, rng.TagMoveRoll, nil) // want `rng.ChooseOne draws`
	src.Uint32()                                 // want `\(rng.Source\).Uint32 draws`
	rng.NewSFC32(1, 2, 3, 4).Uint32()            // want `\(\*rng.SFC32\).Uint32 draws`
}

// A function with a *rng.Stream parameter must not leak a map's order,
// whatever its package.
func Hand(s *rng.Stream, players map[string][]string) {
	for _, deck := range players { // want `range over a map in a function that draws from a \*rng.Stream`
		reducers.Setup(s, deck)
	}
}
