// Package seed is on the allow-list in its test, so that only the clock rule
// reports: the clock is never a seed, allowed package or not.
package seed

import (
	"fmt"
	mrand "math/rand"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/chacha"
)

// A package-level initialiser is checked too; of nested sinks only the
// innermost is reported.
var global = mrand.New(mrand.NewSource(time.Now().UnixNano())) // want `the clock is not a seed \(it flows into rand.NewSource\)`

func direct() {
	rng.NewSeeded(fmt.Sprint(time.Now().UnixNano()))     // want `flows into rng.NewSeeded`
	rng.NewSFC32(uint32(time.Now().Unix()), 1, 2, 3)     // want `flows into rng.NewSFC32`
	chacha.NewHashChain(time.Now().Format(time.RFC3339)) // want `flows into chacha.NewHashChain`
	_ = rand.NewPCG(uint64(time.Now().UnixNano()), 1)    // want `flows into rand.NewPCG`
	mrand.Seed(time.Since(time.Time{}).Nanoseconds())    // want `flows into rand.Seed`
}

func throughVariables() {
	t := time.Now()
	n := t.UnixNano()
	var seed = strconv.FormatInt(n, 10)
	rng.NewSeeded(seed) // want `flows into rng.NewSeeded`
	h, _ := rng.Cyrb128(seed)
	rng.NewSFC32(h[0], h[1], h[2], h[3])     // want `flows into rng.NewSFC32`
	chacha.NewChaCha20(chacha.KeyFrom(seed)) // want `flows into chacha.NewChaCha20`
}

// A timestamp is fine, and so is a seed that does not come from the clock.
func timestamp(stored string) (string, error) {
	at := time.Now()
	s, err := rng.NewSeeded(stored)
	if err != nil {
		return "", err
	}
	_ = s
	return fmt.Sprint(at.Unix()), nil
}
