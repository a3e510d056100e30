// Package reducers stands for the engine's reducers: they receive the
// stream, never build it, and never let a map's order reach it.
package reducers

import (
	"maps"
	"slices"
	"sort"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/chacha"
)

// Setup receives its stream: fine.
func Setup(s *rng.Stream, deck []string) {
	rng.Shuffle(s, deck, rng.TagMoveRoll, nil)
}

func builds() {
	rng.NewSeeded("x")                 // want `rng.NewSeeded builds an RNG in a reducer package: reducers receive the \*rng.Stream; only the caller builds it`
	rng.NewCrypto()                    // want `rng.NewCrypto builds an RNG`
	rng.New(rng.NewSFC32(1, 2, 3, 4))  // want `rng.New builds an RNG` `rng.NewSFC32 builds an RNG`
	chacha.NewChaCha20([32]byte{})     // want `chacha.NewChaCha20 builds an RNG`
	_ = rng.InitShuffleTag("treasure") // not a constructor
}

// A relay builds no RNG: its words are the draws of the stream it relays.
func relays(s *rng.Stream) {
	_ = rng.NewRelay(s, "seeded", rng.TagMoveRoll)
}

// Every map range in a reducer package is reported unless it is order-safe.
func events(scores map[string]int) []string {
	var out []string
	for uid := range scores { // want `range over a map in a reducer package: its random order can reach the RNG, an event or the state`
		out = append(out, uid)
	}
	return out
}

func iterators(scores map[string]int) (out []string) {
	for uid := range maps.Keys(scores) { // want `range over a map in a reducer package`
		out = append(out, uid)
	}
	return out
}

func floats(weights map[string]float64) float64 {
	var sum float64
	for _, w := range weights { // want `range over a map`
		sum += w // float addition is not associative
	}
	return sum
}

func breaks(scores map[string]int) (first string) {
	for uid := range scores { // want `range over a map`
		first = uid
		break
	}
	return first
}

func calls(s *rng.Stream, scores map[string]int) {
	for uid := range scores { // want `range over a map`
		if s.Seq() > 0 {
			delete(scores, uid)
		}
	}
}

// The order-safe forms.

func sortedKeys(scores map[string]int) []string {
	keys := make([]string, 0, len(scores))
	for uid := range scores {
		keys = append(keys, uid)
	}
	slices.Sort(keys)
	return keys
}

func sortedStrings(scores map[string]int) []string {
	var keys []string
	for uid, n := range scores {
		if n > 0 {
			keys = append(keys, uid)
		}
	}
	sort.Strings(keys)
	return keys
}

func aggregates(scores map[string]int) (int, map[string]int) {
	total, positive := 0, 0
	copied := make(map[string]int, len(scores))
	for uid, n := range scores {
		total += n
		copied[uid] = n * 2
		if n <= 0 {
			delete(scores, uid)
			continue
		}
		positive++
	}
	return total + positive, copied
}

func counts(scores map[string]int) int {
	n := 0
	for range scores {
		n++
	}
	for _, _ = range scores {
	}
	return n
}
